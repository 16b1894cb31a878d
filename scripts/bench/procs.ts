// Bounded child processes for the benchmark: spawn with a deadline, kill the whole group on exit, read RSS from /proc.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fetchRaw } from './load.ts';

const live = new Set<ChildProcess>();
let hooked = false;

/** Kills every child process group still running (SIGKILL); idempotent. */
export function killAll(): void {
  for (const child of live) killGroup(child, 'SIGKILL');
  live.clear();
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // detached children lead their own group: take grandchildren too
  } catch {
    child.kill(signal); // no group (any more): the child alone; false, not a throw, when it is gone
  }
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAll);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      killAll();
      process.exit(130);
    });
  }
}

/** Where a child runs, its deadline, and whether its stdout is kept (with stderr) or discarded. */
export interface SpawnOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  stdout?: 'pipe' | 'ignore';
}

/**
 * Spawns a child in its own process group, registered for kill-on-exit, with a hard deadline
 * (`timeoutMs`) after which the group is killed. `output` gives the last 64 KB or more of its
 * stdout and stderr, `exited` its exit code (-1 when killed by a signal), `stop` SIGTERMs it
 * (SIGKILL after `graceMs`) and resolves when it has gone.
 */
export function spawnBounded(cmd: string, args: string[], opts: SpawnOptions) {
  hookExit();
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', opts.stdout ?? 'pipe', 'pipe'], detached: true });
  live.add(child);
  let buf = '';
  const keep = (d: Buffer) => {
    buf += d.toString('utf8');
    if (buf.length > 131072) buf = buf.slice(-65536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const timer = setTimeout(() => {
    buf += `\n[bench] killed after ${opts.timeoutMs} ms\n`;
    killGroup(child, 'SIGKILL');
  }, opts.timeoutMs);
  timer.unref();
  const exited = new Promise<number>((resolve) => {
    child.on('error', (err) => {
      buf += `\n[bench] spawn error: ${err.message}\n`;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      live.delete(child);
      resolve(code ?? -1);
    });
  });
  const stop = async (graceMs = 3000) => {
    if (child.exitCode !== null || child.signalCode !== null) return void (await exited);
    killGroup(child, 'SIGTERM');
    const t = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
    await exited;
    clearTimeout(t);
  };
  return { child, output: () => buf, exited, stop };
}

/** Resident set size of a process in MiB (/proc), or undefined when it is gone. */
export function rssMiB(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The cores this process may run on (0 to CPUS - 1), counted before it pins itself. */
const CPUS = os.availableParallelism();

/**
 * Which cores run what during load: on a machine of two cores or more (and with `taskset`), the
 * benchmark process, which runs the load generator, stays on CPU 0 and the servers under test
 * (server, ceiling) run on the others, so they do not take turns on one core.
 */
export const CORES: { loadGenerator: string | null; servers: string | null } =
  CPUS < 2 || !existsSync('/usr/bin/taskset') ? { loadGenerator: null, servers: null } : { loadGenerator: '0', servers: CPUS === 2 ? '1' : `1-${CPUS - 1}` };

/**
 * Runs `work` with this process (the load generator) pinned to its core, and on all CPUS cores
 * again afterwards (builds started later must not inherit one core); `pinned` says whether it held.
 */
export async function withLoadGeneratorPinned<T>(work: (pinned: boolean) => Promise<T>): Promise<T> {
  const set = (cores: string) => execFileSync('taskset', ['-cp', cores, String(process.pid)], { timeout: 5000, stdio: 'ignore' });
  let pinned = false;
  try {
    if (CORES.loadGenerator !== null) {
      set(CORES.loadGenerator);
      pinned = true;
    }
  } catch {
    // not permitted here: measured unpinned, and the report says so
  }
  try {
    return await work(pinned);
  } finally {
    if (pinned) set(`0-${CPUS - 1}`);
  }
}

/** A server process answering on `base`; `readyMs` from spawn to its first 200. */
export interface Running {
  proc: ReturnType<typeof spawnBounded>;
  base: string;
  readyMs: number;
}

/** Spawns a Node server (on the servers' cores) that listens on `port`, and polls `probePath` until it answers 200. */
export async function startAndWait(what: string, port: number, probePath: string, args: string[], opts: SpawnOptions): Promise<Running> {
  const base = `http://127.0.0.1:${port}`;
  const t = performance.now();
  const [file, argv] = CORES.servers === null ? [process.execPath, args] : ['taskset', ['-c', CORES.servers, process.execPath, ...args]];
  const proc = spawnBounded(file, argv, opts);
  let exited = false;
  void proc.exited.then(() => (exited = true));
  // Polled every 5 ms (start to ready is what the memory phase reports), until it exits or 2 minutes pass.
  const deadline = Date.now() + 120_000;
  let ok = false;
  while (!ok && !exited && Date.now() < deadline) {
    ok = await fetchRaw(base + probePath, 2000).then(
      (r) => r.status === 200,
      () => false,
    );
    if (!ok) await sleep(5);
  }
  const readyMs = performance.now() - t;
  if (!ok || exited) {
    await proc.stop();
    throw new Error(`${what} did not become ready: ${proc.output().slice(-1500).trim()}`);
  }
  return { proc, base, readyMs };
}

/** The unit of /proc's CPU times (USER_HZ, `getconf CLK_TCK`): 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS = 100;

/**
 * CPU time (user + system, all threads) a process has used, in microseconds, from /proc/<pid>/stat
 * (the same counters as `process.cpuUsage()` inside it, in clock ticks); undefined when it is gone.
 */
export function cpuMicros(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, in parentheses): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
