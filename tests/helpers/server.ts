// Starts the real server (the bundle `npm run serve` runs: dist/server/runtime/server.mjs, kept
// current with src/ by the test global setup) as a child process on a free port for tests, reads
// its address from the start-up log line, and stops it with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_ENTRY_FILE } from '../../src/schemas/dist.ts';
import { serveFlags } from '../../scripts/node.mjs';

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

export interface RunningServer {
  /** e.g. http://127.0.0.1:45123 */
  url: string;
  child: ChildProcess;
  /** Everything the server printed so far. */
  output: () => string;
  /** SIGTERM, then the exit code (null when killed by a signal). */
  stop: () => Promise<number | null>;
}

export interface StartOptions {
  outDir?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** The script to run instead of the bundle (e.g. src/server/main.ts, the sources `npm start` runs). */
  entry?: string;
}

const LISTENING = /listening on (http:\/\/\S+)/;

/** Spawns the server with PORT=0 and resolves once it logs its address. */
export function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const child = spawn(process.execPath, [...SERVE_FLAGS, options.entry ?? serverEntry()], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', RTP_OUT_DIR: options.outDir ?? testOutDir(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${options.timeoutMs ?? 30_000} ms:\n${log}`));
    }, options.timeoutMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const m = LISTENING.exec(log);
      if (m !== null) {
        clearTimeout(timer);
        resolve({ url: m[1]!, child, output: () => log, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (code ${code}) before listening:\n${log}`));
    });
  });
}
