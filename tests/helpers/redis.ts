// A throwaway redis-server for tests: Debian's `redis-server` on a free loopback port, no
// persistence (--save '' --appendonly no), stopped in teardown; restartable on the same port.
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { missingMessage, requireTool } from '../../scripts/lib/system-tools.ts';

/** A port nobody listens on right now (bound and released by the kernel). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface TestRedis {
  port: number;
  url: string;
  /** Stops the server (SIGTERM, no save). */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  start(): Promise<void>;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) the process: a Redis that accepts but never answers. */
  pause(): void;
  resume(): void;
}

function launch(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      requireTool('redis-server'),
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not get ready on port ${port} within 30 s:\n${out}`));
    }, 30_000);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run redis-server (${missingMessage('redis-server')}): ${err.message}`));
    });
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        child.stderr!.resume();
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with code ${code} before getting ready:\n${out}`));
    });
  });
}

function stopChild(child: ChildProcess | null): Promise<void> {
  if (child === null || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGCONT');
    child.kill('SIGTERM');
  });
}

/** Starts a redis-server on a free loopback port. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | null = await launch(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await stopChild(child);
      child = null;
    },
    async start() {
      if (child === null) child = await launch(port);
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
  };
}
