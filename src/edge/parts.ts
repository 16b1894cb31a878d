// The processes of the edge: starting one and waiting for it to be ready (a line of its output,
// or a port accepting connections), stopping it, and writing its files whole.
import { type ChildProcess, spawn } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import net from 'node:net';

/** What starting a part needs to know besides its command. */
export interface PartOptions {
  output: NodeJS.WritableStream;
  readyTimeoutMs?: number;
}

/** A child process of the edge. */
export interface Part {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** A port nobody listens on right now (bound and released). */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts a part; resolves with it and the first match of `ready` in its output. */
export function startPart(
  name: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  options: PartOptions,
): Promise<{ part: Part; match: RegExpExecArray }> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let seen = '';
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new Error(`edge: ${name} did not get ready within ${options.readyTimeoutMs ?? 30_000} ms:\n${seen.slice(-4000)}`));
    }, options.readyTimeoutMs ?? 30_000);
    const finish = (err: Error | null, match?: RegExpExecArray) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err !== null) reject(err);
      else resolve({ part: { name, child, exited }, match: match! });
    };
    const onData = (chunk: Buffer) => {
      if (done) return void options.output.write(chunk);
      seen += chunk.toString('utf8');
      options.output.write(chunk);
      const m = ready.exec(seen);
      if (m !== null) finish(null, m);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (err) => finish(new Error(`edge: cannot run ${name} (${command}): ${err.message}`)));
    void exited.then((code) => finish(new Error(`edge: ${name} exited (${code ?? child.signalCode}) before getting ready:\n${seen.slice(-4000)}`)));
  });
}

/** Resolves once something accepts connections on host:port (nginx prints nothing when it is ready). */
export function waitForListener(host: string, port: number, part: Part, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (part.child.exitCode !== null || part.child.signalCode !== null)
        return reject(new Error(`edge: ${part.name} exited before listening on ${host}:${port}`));
      const socket = net.connect({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`edge: ${part.name} did not listen on ${host}:${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export async function stopPart(part: Part, graceMs = 10_000): Promise<void> {
  const { child } = part;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
  child.kill('SIGTERM');
  await part.exited;
  clearTimeout(kill);
}

export const hostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** Writes `file` whole or not at all (a temporary file renamed over it). */
export function writeWhole(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}
