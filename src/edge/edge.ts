// The production shape on one machine (`npm run edge`): one redis-server, N server instances
// counting on it, and nginx in front running the build's dist/edge/nginx.conf (src/build/nginx.ts)
// with the per-run parts written beside it. Every part is a child process; stop() ends them all.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { EDGE_DIR, EDGE_SITE_FILE, NGINX_CONF_FILE, UPSTREAM_SERVERS_FILE } from '../build/nginx.ts';
import { acquirePidLock } from '../lib/write.ts';
import { EDGE_STATE_FILE, EdgeStateSchema, type EdgeState } from '../schemas/edge.ts';
import { SERVER_ENTRY_FILE } from '../schemas/dist.ts';

export interface EdgeOptions {
  /** The build served (holds client/, server/ and edge/): dist/ or a release link. */
  outDir: string;
  /** The edge's own folder: state.json, the nginx prefix, redis-server's folder. */
  stateDir: string;
  host: string;
  /** 0: a free port. */
  port: number;
  instances: number;
  /** The environment every instance starts with (server settings such as RATE_LIMIT). */
  env: NodeJS.ProcessEnv;
  programs: { nginx: string; redisServer: string; node: string };
  /** Node flags of the instances (those of `npm run serve`). */
  nodeArgs: readonly string[];
  /** Lines about the parts (start, exit); the parts' own output goes to `output`. */
  log: (line: string) => void;
  output: NodeJS.WritableStream;
  /** How long a part may take to get ready. */
  readyTimeoutMs?: number;
}

export interface Edge {
  url: string;
  state: EdgeState;
  /** Stops every part (nginx first, then the instances, then Redis) and removes state.json. */
  stop(): Promise<void>;
  /** Resolves when nginx exits on its own (the edge is down then). */
  nginxExited: Promise<number | null>;
}

interface Part {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** A port nobody listens on right now (bound and released). */
function freePort(host: string): Promise<number> {
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
function startPart(name: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv, ready: RegExp, options: EdgeOptions): Promise<{ part: Part; match: RegExpExecArray }> {
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
function waitForListener(host: string, port: number, part: Part, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (part.child.exitCode !== null || part.child.signalCode !== null) return reject(new Error(`edge: ${part.name} exited before listening on ${host}:${port}`));
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
async function stopPart(part: Part, graceMs = 10_000): Promise<void> {
  const { child } = part;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
  child.kill('SIGTERM');
  await part.exited;
  clearTimeout(kill);
}

const hostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** Writes `file` whole or not at all (a temporary file renamed over it). */
function writeWhole(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** Starts Redis, the instances and nginx, in that order; anything started is stopped again on a failure. */
export async function startEdge(options: EdgeOptions): Promise<Edge> {
  const dir = path.resolve(options.stateDir);
  mkdirSync(path.join(dir, 'temp'), { recursive: true });
  const unlock = await acquirePidLock(path.join(dir, 'edge.lock'), (pid) => `edge: another edge (pid ${pid}) runs in ${dir}: stop it first`, options.log);
  const parts: Part[] = [];
  const stopAll = async () => {
    // nginx first (no new requests reach the instances), then the instances, then Redis.
    for (const part of [...parts].reverse()) await stopPart(part);
    rmSync(path.join(dir, EDGE_STATE_FILE), { force: true });
    await unlock();
  };
  try {
    const timeout = options.readyTimeoutMs ?? 30_000;
    const redisPort = await freePort('127.0.0.1');
    const redis = await startPart('redis-server', options.programs.redisServer, ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], process.env, /Ready to accept connections/, options);
    parts.push(redis.part);

    const instanceEnv: NodeJS.ProcessEnv = {
      ...options.env,
      HOST: '127.0.0.1',
      PORT: '0',
      RTP_OUT_DIR: options.outDir,
      RATE_LIMIT_STORE: 'redis',
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      // Only nginx connects to the instances, from 127.0.0.1, and it sets X-Forwarded-For to the client's own address.
      TRUST_PROXY: '127.0.0.1',
    };
    const entry = path.join(options.outDir, 'server', SERVER_ENTRY_FILE);
    const started = await Promise.all(
      Array.from({ length: options.instances }, (_, k) => startPart(`instance ${k + 1}`, options.programs.node, [...options.nodeArgs, entry], instanceEnv, /listening on http:\/\/[^\s,]*:(\d+)/, options)),
    );
    for (const s of started) parts.push(s.part);
    const instancePorts = started.map((s) => Number(s.match[1]));

    const port = options.port === 0 ? await freePort(options.host) : options.port;
    writeWhole(path.join(dir, UPSTREAM_SERVERS_FILE), instancePorts.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;\n`).join(''));
    writeWhole(path.join(dir, EDGE_SITE_FILE), `listen ${hostPort(options.host, port)};\nroot ${JSON.stringify(path.join(path.resolve(options.outDir), 'client'))};\n`);
    const link = path.join(dir, NGINX_CONF_FILE);
    rmSync(link, { force: true });
    // A link, not a copy: nginx reads the build's file, and includes the files above from the link's folder.
    symlinkSync(path.join(path.resolve(options.outDir), EDGE_DIR, NGINX_CONF_FILE), link);
    const args = ['-p', `${dir}/`, '-c', link, '-e', 'stderr'];
    // As root, nginx would run its workers as nobody, who cannot read a private checkout or temp folder.
    if (process.getuid?.() === 0) args.push('-g', 'user root;');
    const nginxChild = spawn(options.programs.nginx, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    nginxChild.stdout!.pipe(options.output, { end: false });
    nginxChild.stderr!.pipe(options.output, { end: false });
    const nginx: Part = { name: 'nginx', child: nginxChild, exited: new Promise((resolve) => nginxChild.once('exit', (code) => resolve(code))) };
    nginxChild.once('error', (err) => options.log(`edge: cannot run nginx (${options.programs.nginx}): ${err.message}`));
    parts.push(nginx);
    await waitForListener(options.host, port, nginx, timeout);

    const state = EdgeStateSchema.parse({
      nginx: { pid: nginxChild.pid, port },
      redis: { pid: redis.part.child.pid, port: redisPort },
      instances: started.map((s, k) => ({ pid: s.part.child.pid, port: instancePorts[k] })),
    });
    writeWhole(path.join(dir, EDGE_STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
    let stopping = false;
    let stopped: Promise<void> | undefined;
    for (const part of parts) {
      void part.exited.then((code) => {
        if (!stopping) options.log(`edge: ${part.name} (pid ${part.child.pid}) exited (${code ?? part.child.signalCode})`);
      });
    }
    return {
      url: `http://${hostPort(options.host, port)}`,
      state,
      nginxExited: nginx.exited,
      stop: () => {
        stopping = true;
        stopped ??= stopAll();
        return stopped;
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
