#!/usr/bin/env bash
# The README's Quick start on a fresh clone, as a new user runs it: clones this repository's HEAD
# into a temporary folder (no ../shared beside it), puts the machine's own Node first on PATH (the
# project's cached Node is not on it), then runs `npm install && npm start` until the site answers
# on the printed address, stops it and every process it started, and runs `npm test`. Passes when
# both commands succeed and the test summary shows 0 skipped. Used by .ci/run; `npm run
# fresh-clone-check` runs it by hand.
#
#   bash scripts/fresh-clone-check.sh [--keep]      --keep leaves the temporary clone in place
set -uo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
keep=0
[ "${1:-}" = "--keep" ] && keep=1

work="$(mktemp -d "${TMPDIR:-/tmp}/rtp-fresh-XXXXXX")"
clone="$work/rtp-registry"
server_pid=""
# Whether a live (not zombie) process of the server's session remains, read from /proc/<pid>/stat:
# after the ")" that ends the command come state, ppid, pgrp and session.
server_alive() {
  local f stat
  for f in /proc/[0-9]*/stat; do
    read -r stat 2>/dev/null <"$f" || continue
    set -- ${stat##*) }
    [ "${4:-}" = "$server_pid" ] && [ "$1" != Z ] && return 0
  done
  return 1
}
# Stops `npm start` with everything it started. npm does not always pass SIGTERM on through the
# shell it runs the script in, which left the server running after npm was gone; so `npm start`
# runs in a session of its own (setsid) and its whole process group is signalled.
stop_server() {
  [ -n "$server_pid" ] || return 0
  local outcome=1
  kill -TERM -- "-$server_pid" 2>/dev/null
  # Not `wait` first: npm waits for its script, so a server ignoring SIGTERM would hold it unbounded.
  for _ in $(seq 1 100); do
    server_alive || { outcome=0 && break; }
    sleep 0.1 # a process exiting in another session has no event a shell can wait on
  done
  [ "$outcome" = 0 ] || kill -KILL -- "-$server_pid" 2>/dev/null
  wait "$server_pid" 2>/dev/null # reaps npm, which has exited by now
  server_pid=""
  return "$outcome"
}
cleanup() {
  stop_server
  if [ "$keep" = 1 ]; then echo "fresh-clone-check: kept $clone"; else rm -rf "$work"; fi
}
trap cleanup EXIT
fail() {
  echo "fresh-clone-check: FAILED: $*" >&2
  exit 1
}

# The machine's PATH without any folder of the project's cached Node (the launcher must provide it).
PATH="$(printf '%s' "$PATH" | tr ':' '\n' | grep -v 'rtp-registry/node' | paste -sd: -)"
export PATH
echo "fresh-clone-check: $(command -v node) is $(node --version); npm $(npm --version 2>/dev/null)"

git clone --quiet "$repo" "$clone" || fail "git clone"
cd "$clone" || fail "cd $clone"
[ -e ../shared ] && fail "../shared exists beside the clone"

echo "fresh-clone-check: npm install"
started=$SECONDS
npm install --no-audit --no-fund || fail "npm install"
echo "fresh-clone-check: npm install took $((SECONDS - started)) s"

echo "fresh-clone-check: npm start (PORT=0: a free port)"
started=$SECONDS
log="$work/start.log"
PORT=0 setsid npm start >"$log" 2>&1 &
server_pid=$!
url=""
for _ in $(seq 1 600); do
  url="$(grep -o 'listening on http://[^ ,]*' "$log" | head -1 | cut -d' ' -f3)"
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5 # polling a log file for a line; there is no event to wait on from a shell
done
cat "$log"
[ -n "$url" ] || fail "npm start printed no address"
echo "fresh-clone-check: the site answers on $url after $((SECONDS - started)) s"
node -e '
  const base = process.argv[1];
  const checks = [["/", "text/html"], ["/api/rtp/book-of-dead", "application/json"], ["/api/rtp/list?q=book&limit=1", "application/json"]];
  (async () => {
    for (const [p, type] of checks) {
      const r = await fetch(base + p);
      if (r.status !== 200 || !String(r.headers.get("content-type")).startsWith(type)) throw new Error(`${p}: ${r.status} ${r.headers.get("content-type")}`);
      console.log(`fresh-clone-check: ${p} 200 ${type}`);
    }
  })().catch((e) => { console.error(String(e)); process.exit(1); });
' "$url" || fail "the site did not answer as expected"
stop_server || fail "npm start's processes were still running 10 s after SIGTERM"

echo "fresh-clone-check: npm test"
test_log="$work/test.log"
npm test 2>&1 | tee "$test_log"
status=${PIPESTATUS[0]}
summary="$(grep -E '^tests: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$test_log" | tail -1)"
verdict=0
if [ "$status" != 0 ]; then
  echo "fresh-clone-check: FAILED: npm test exited with $status" >&2
  verdict=1
elif [[ "$summary" != *", 0 failed, 0 skipped" ]]; then
  echo "fresh-clone-check: FAILED: npm test summary: ${summary:-none}" >&2
  verdict=1
else
  echo "fresh-clone-check: both README commands succeeded on a fresh clone"
fi
# The closing line CI reads, whatever happened.
echo "${summary:-tests: 0 passed, 1 failed, 0 skipped}"
exit "$verdict"
