// Helpers for the production integration tests: the real server (the bundle `npm run serve` runs) as a child process
// with its pid and output, `npm run release` / `npm run keys:*` as child processes, and loopback
// HTTP requests that never throw (errors come back as status 0).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVE_FLAGS, serverEntry } from './server.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Server {
  url: string;
  pid: number;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  signal(sig: NodeJS.Signals): void;
  stop(): Promise<void>;
  /** Resident memory of the server process in KiB (/proc/<pid>/status VmRSS). */
  rssKiB(): number;
  /** Resolves once `test(output)` holds, checked as output arrives (waits for a logged event, never a fixed time). */
  waitForOutput(test: (output: string) => boolean, timeoutMs?: number): Promise<void>;
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on Linux). */
const CLK_TCK = 100;

/** A process's CPU time so far, in ms (utime + stime of /proc/<pid>/stat): work done, whatever else the machine runs. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

/**
 * Starts the server over `outDir` on a free loopback port (`nodeArgs`: V8/Node flags, by default
 * those of `npm run serve`); resolves once it listens.
 */
export function startServer(outDir: string, env: NodeJS.ProcessEnv = {}, nodeArgs: readonly string[] = SERVE_FLAGS): Promise<Server> {
  const child = spawn(process.execPath, [...nodeArgs, serverEntry()], {
    cwd: ROOT,
    env: { ...process.env, RTP_OUT_DIR: outDir, HOST: '127.0.0.1', PORT: '0', ACCESS_LOG: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  const waiters = new Set<() => void>();
  // Keep only the last 256 KB (an access log on stdout can be long).
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 512 * 1024) out = out.slice(-256 * 1024);
    for (const w of [...waiters]) w();
  };
  const waitForOutput = (test: (output: string) => boolean, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!test(out)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`server: the awaited output did not come within ${timeoutMs} ms:\n${out.slice(-4000)}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        running.delete(child);
        return resolve();
      }
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(kill);
        running.delete(child);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`server did not start within 30 s:\n${out}`));
    }, 30_000);
    const onData = () => {
      const m = /listening on (http:\/\/[^\s,]+)/.exec(out);
      if (m === null) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        url: m[1]!,
        pid: child.pid!,
        output: () => out,
        signal: (sig) => child.kill(sig),
        stop,
        waitForOutput,
        rssKiB: () => {
          const m2 = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          return m2 === null ? Number.NaN : Number(m2[1]);
        },
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? sig}) before listening:\n${out}`));
    });
  });
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node script of the project (`scripts/release.ts`, `scripts/keys.ts`) to completion. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 170_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, script), ...args], { cwd: ROOT, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...env }, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: number | string; signal?: NodeJS.Signals }) | null;
      resolve({ code: e === null ? 0 : typeof e.code === 'number' ? e.code : null, signal: e?.signal ?? null, stdout, stderr });
    });
  });
}

export interface Answer {
  /** 0 when the request failed below HTTP (connection refused or reset). */
  status: number;
  headers: Headers;
  text: string;
  error?: string;
}

/** A GET (or other method) that never throws. */
export async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  try {
    const res = await fetch(url, { redirect: 'manual', ...init });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    return { status: 0, headers: new Headers(), text: '', error: String((err as Error).cause ?? err) };
  }
}

/** Sends SIGHUP (a forced reload) and resolves once the server has logged it, checking it serves release `name`. */
export async function reloadedOn(server: Server, name: string): Promise<void> {
  const serving = (out: string) => out.split('\n').filter((l) => l.includes('release: now serving'));
  const before = serving(server.output()).length;
  server.signal('SIGHUP');
  await server.waitForOutput((out) => serving(out).length > before);
  const line = serving(server.output()).at(-1)!;
  if (!line.includes(`${name} `)) throw new Error(`after SIGHUP the server serves another release than ${name}: ${line}`);
}
