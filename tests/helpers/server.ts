// The one way tests start the real server: the bundle `npm run serve` runs (dist/server/runtime/server.mjs,
// kept current with src/ by the test global setup) as a child process on a free port, its address
// read from the start-up log line, with its pid, output, memory and CPU time; stopped with SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveFlags } from '../../scripts/node.mjs';
import { SERVER_ENTRY_FILE } from '../../src/schemas/dist.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The Node flags of `npm start` and `npm run serve` (heap bounds): the tests run the server as it is deployed. */
export const SERVE_FLAGS: readonly string[] = serveFlags(REPO_ROOT);

/** The build under test: RTP_OUT_DIR or dist/. */
export function testOutDir(): string {
  return path.resolve(REPO_ROOT, process.env.RTP_OUT_DIR || 'dist');
}

/** The data the build under test was made from: RTP_DATA_DIR or data/. */
export function testDataDir(): string {
  return path.resolve(REPO_ROOT, process.env.RTP_DATA_DIR || 'data');
}

/** The production server the build bundled, in the build under test (src/emit/server-bundle.ts). */
export function serverEntry(): string {
  return path.join(testOutDir(), 'server', SERVER_ENTRY_FILE);
}

export interface Server {
  /** e.g. http://127.0.0.1:45123 */
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the server wrote to stdout and stderr so far (the last 256 KB at least). */
  output(): string;
  signal(sig: NodeJS.Signals): void;
  /** SIGTERM (SIGKILL after 10 s), then the exit code (null when killed by a signal). */
  stop(): Promise<number | null>;
  /** Resident memory of the server process in KiB (/proc/<pid>/status VmRSS). */
  rssKiB(): number;
  /** Resolves once `test(output)` holds, checked as output arrives (waits for a logged event, never a fixed time). */
  waitForOutput(test: (output: string) => boolean, timeoutMs?: number): Promise<void>;
}

export interface StartOptions {
  /** The build to serve: the build under test unless given. */
  outDir?: string;
  /** Added to the environment; the access log is off unless ACCESS_LOG says otherwise. */
  env?: NodeJS.ProcessEnv;
  /** V8/Node flags: those of `npm run serve` unless given. */
  nodeArgs?: readonly string[];
  /** The script to run instead of the bundle (e.g. src/server/main.ts, the sources `npm start` runs). */
  entry?: string;
  timeoutMs?: number;
}

const LISTENING = /listening on (http:\/\/[^\s,]+)/;

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on Linux). */
const CLK_TCK = 100;

/** A process's CPU time so far, in ms (utime + stime of /proc/<pid>/stat): work done, whatever else the machine runs. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

/** Spawns the server on a free loopback port (PORT=0) and resolves once it logs its address. */
export function startServer(options: StartOptions = {}): Promise<Server> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? SERVE_FLAGS), options.entry ?? serverEntry()], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', RTP_OUT_DIR: options.outDir ?? testOutDir(), ACCESS_LOG: 'off', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  const waiters = new Set<() => void>();
  // Keep the last 256 KB at least (an access log on stdout can be long).
  const keep = (d: Buffer) => {
    out += d.toString('utf8');
    if (out.length > 512 * 1024) out = out.slice(-256 * 1024);
    for (const w of [...waiters]) w();
  };
  const waitForOutput = (test: (output: string) => boolean, waitMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!test(out)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`server: the awaited output did not come within ${waitMs} ms:\n${out.slice(-4000)}`));
      }, waitMs);
      waiters.add(check);
      check();
    });
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.kill('SIGTERM');
    const code = await exited;
    clearTimeout(kill);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`server did not start within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = () => {
      const m = LISTENING.exec(out);
      if (m === null) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        url: m[1]!,
        pid: child.pid!,
        child,
        output: () => out,
        signal: (sig) => child.kill(sig),
        stop,
        waitForOutput,
        rssKiB: () => {
          const rss = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          return rss === null ? Number.NaN : Number(rss[1]);
        },
      });
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (code ${code ?? child.signalCode}) before listening:\n${out}`));
    });
  });
}
