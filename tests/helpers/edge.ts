// Runs `npm run edge` (scripts/edge.ts) for the edge tests: nginx, server instances and a
// redis-server on free loopback ports, its state in a temp folder; stopped with SIGTERM, after
// which none of its parts may still run. Also the headers two answers are compared on.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { alive } from '../../src/lib/write.ts';
import { EDGE_STATE_FILE, type EdgeState, EdgeStateSchema } from '../../src/schemas/edge.ts';
import { REPO_ROOT, testOutDir } from './server.ts';

export interface RunningEdge {
  url: string;
  /** state.json as it is now (the instances change when a release switches). */
  readonly state: EdgeState;
  dir: string;
  /** Everything the edge and its parts printed so far. */
  output(): string;
  /** Resolves once the output holds a match of `re` (waits for a logged event, never a fixed time). */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  /** SIGTERM; resolves with the exit code once the edge has exited. */
  stop(): Promise<number | null>;
  /** The pids of every part that still runs. */
  running(): number[];
}

/** Starts the edge over the build under test (or `env.RTP_OUT_DIR`) with its state in `dir`. */
export function startEdge(dir: string, instances: number, env: NodeJS.ProcessEnv = {}): Promise<RunningEdge> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts/edge.ts'), '--instances', String(instances)], {
    cwd: REPO_ROOT,
    env: { ...process.env, RTP_OUT_DIR: testOutDir(), HOST: '127.0.0.1', PORT: '0', ACCESS_LOG: 'off', EDGE_DIR: dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters = new Set<() => void>();
  const keep = (d: Buffer) => {
    out += d.toString('utf8');
    if (out.length > 1024 * 1024) out = out.slice(-512 * 1024);
    for (const w of [...waiters]) w();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = (re: RegExp, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!re.test(out)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`edge: no ${re} within ${timeoutMs} ms:\n${out.slice(-4000)}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return new Promise((resolve, reject) => {
    const ready = /edge ready on (http:\/\/\S+)/;
    const onExit = (code: number | null) => reject(new Error(`edge exited (${code}) before it was ready:\n${out.slice(-4000)}`));
    void exited.then(onExit);
    waitFor(ready, 120_000).then(
      () => {
        const read = () => EdgeStateSchema.parse(JSON.parse(readFileSync(path.join(dir, EDGE_STATE_FILE), 'utf8')));
        const first = read();
        // Every part it ever ran: none may outlive the edge.
        const pids = new Set([first.nginx.pid, first.redis.pid, ...first.instances.map((i) => i.pid)]);
        let last = first;
        resolve({
          url: ready.exec(out)![1]!,
          get state() {
            try {
              last = read();
              for (const i of last.instances) pids.add(i.pid);
            } catch {
              // Removed once the edge has stopped: the last one read.
            }
            return last;
          },
          dir,
          output: () => out,
          waitFor,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
          running: () => [...pids].filter(alive),
        });
      },
      (err: Error) => {
        child.kill('SIGKILL');
        reject(err);
      },
    );
  });
}

/** Headers that differ between two servers by nature: the date, the server's name and the hop-by-hop ones (RFC 9110 §7.6.1). */
export const NOT_COMPARED = new Set(['date', 'server', 'connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'te', 'trailer', 'upgrade']);
/** Validators: nginx makes its own for the files it serves. */
export const VALIDATORS = new Set(['etag', 'last-modified']);
/** The rate limiter's headers (counted families; the edge, like a CDN, does not count the static files it serves). */
export const RATE_LIMIT_HEADERS = new Set(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy']);

/** The headers of an answer as a sorted name -> value object, without `leaveOut`. */
export function comparable(headers: Headers, leaveOut: ReadonlySet<string>): Record<string, string> {
  return Object.fromEntries([...headers].filter(([n]) => !leaveOut.has(n)).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A whole raw HTTP/1.1 answer (read to the connection's close; a 100 Continue before it skipped): its status, headers and body. */
export function parseAnswer(raw: string): { status: number; headers: Headers; body: string } {
  if (/^HTTP\/1\.1 100 /.test(raw)) return parseAnswer(raw.slice(raw.indexOf('\r\n\r\n') + 4));
  const end = raw.indexOf('\r\n\r\n');
  const lines = raw.slice(0, end).split('\r\n');
  const headers = new Headers(lines.slice(1).map((l): [string, string] => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(lines[0]!.split(' ')[1]), headers, body: raw.slice(end + 4) };
}
