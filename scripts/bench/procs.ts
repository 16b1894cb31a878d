// Bounded child processes for the benchmark: spawn with a deadline, kill the whole group on exit, read RSS from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

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
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
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

export interface Spawned {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far (kept to the last 64 KB). */
  output: () => string;
  /** Resolves with the exit code (or -1 when killed by a signal). */
  exited: Promise<number>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has gone. */
  stop: (graceMs?: number) => Promise<void>;
}

/**
 * Spawns a child in its own process group, registered for kill-on-exit, with a hard deadline
 * (`timeoutMs`) after which the group is killed.
 */
export function spawnBounded(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Spawned {
  hookExit();
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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

/** A field of /proc/<pid>/status in KiB (VmRSS, VmHWM), or undefined when the process is gone. */
export function procStatusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size of a process in MiB. */
export function rssMiB(pid: number): number | undefined {
  const k = procStatusKiB(pid, 'VmRSS');
  return k === undefined ? undefined : k / 1024;
}

/** Peak RSS reported by GNU time -v ("Maximum resident set size (kbytes)"), in MiB. */
export function parseTimeMaxRss(stderr: string): number | undefined {
  const m = /Maximum resident set size \(kbytes\):\s*(\d+)/.exec(stderr);
  return m ? Number(m[1]) / 1024 : undefined;
}

/** Whether GNU time is available for peak-RSS measurement. */
export const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Descendant pids of `pid` (children, grandchildren...) read from /proc. */
export function descendants(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = byParent.get(ppid) ?? [];
      list.push(Number(e));
      byParent.set(ppid, list);
    } catch {
      // process ended while reading
    }
  }
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    for (const c of byParent.get(stack.pop()!) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

/**
 * Polls /proc every `intervalMs` for the peak VmHWM over a process and its descendants (the fallback
 * when GNU time is missing). Returns a function that stops polling and gives the peak in MiB.
 */
export function watchPeakRss(pid: number, intervalMs = 100): () => number | undefined {
  let peak: number | undefined;
  const poll = () => {
    for (const p of [pid, ...descendants(pid)]) {
      const k = procStatusKiB(p, 'VmHWM');
      if (k !== undefined) peak = Math.max(peak ?? 0, k / 1024);
    }
  };
  poll();
  const t = setInterval(poll, intervalMs);
  return () => {
    clearInterval(t);
    return peak;
  };
}

/** Polls `probe` until it resolves true (then true) or `timeoutMs` passes (then false). */
export async function pollUntil(probe: () => Promise<boolean>, timeoutMs: number, intervalMs = 10): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await probe()) return true;
    } catch {
      // not ready yet
    }
    await sleep(intervalMs);
  }
  return false;
}
