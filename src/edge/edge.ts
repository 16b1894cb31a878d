// The production shape on one machine (`npm run edge`): one redis-server, N server instances
// counting on it, and nginx in front running the build's dist/edge/nginx.conf (src/emit/nginx.ts)
// with the per-run parts written beside it. Every part is a child process; stop() ends them all, and
// an instance that exits on its own is started again (src/edge/supervise.ts).
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import {
  EDGE_DIR,
  EDGE_LOG_FILE,
  EDGE_POOL_FILE,
  EDGE_SITE_FILE,
  FAILURE_LOG_CONDITION,
  FAILURE_LOG_FORMAT,
  NGINX_CONF_FILE,
  POOLS,
  type Pool,
  poolServerLine,
  poolServersFile,
  poolUpstream,
} from '../emit/nginx.ts';
import { Reloader } from '../lib/reload.ts';
import { acquirePidLock } from '../lib/write.ts';
import { SERVER_ENTRY_FILE } from '../schemas/dist.ts';
import { EDGE_STATE_FILE, type EdgeState, EdgeStateSchema } from '../schemas/edge.ts';
import { type FailureLog, openFailureLog } from './failure-log.ts';
import { freePort, hostPort, type Part, startPart, stopPart, waitForListener, writeWhole } from './parts.ts';
import { type Slot, Supervisor } from './supervise.ts';

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
  /** How often a release link (`outDir`) is checked for a new target (ms; 0: only on `switchRelease()`). */
  releasePollMs?: number;
  /** The delay before an instance that exited is started again (ms; doubling for each exit in a row; src/edge/supervise.ts). */
  restartDelayMs?: number;
}

export interface Edge {
  url: string;
  state: EdgeState;
  /** Stops every part (nginx first, then the instances, then Redis) and removes state.json. */
  stop(): Promise<void>;
  /** Resolves when nginx exits on its own (the edge is down then). */
  nginxExited: Promise<number | null>;
  /** Serves the release `outDir` points to now, when it is another one (SIGHUP); resolves true on a switch. */
  switchRelease(): Promise<boolean>;
}

/** Replaces `link` with a symbolic link to `target`, atomically (a new link renamed over it). */
function relink(target: string, link: string): void {
  rmSync(`${link}.tmp`, { force: true });
  symlinkSync(target, `${link}.tmp`);
  renameSync(`${link}.tmp`, link);
}

/**
 * Starts Redis, the instances and nginx, in that order; anything started is stopped again on a
 * failure. The instances and nginx serve the real folder `outDir` resolves to. When `outDir` is a
 * release link that moves, the edge starts the other pool of instances on the new release, then
 * moves one link, `serving`, through which nginx reads both the files it serves and the pool it
 * passes requests to, and stops the old pool. nginx is never reloaded (a reload would close its
 * clients' idle connections, failing a request sent on one as it closes), and every request after
 * the move gets the new release, static or dynamic: none gets an older answer after a newer one.
 */
export async function startEdge(options: EdgeOptions): Promise<Edge> {
  const dir = path.resolve(options.stateDir);
  mkdirSync(path.join(dir, 'temp'), { recursive: true });
  const unlock = await acquirePidLock(path.join(dir, 'edge.lock'), (pid) => `edge: another edge (pid ${pid}) runs in ${dir}: stop it first`, options.log);
  const timeout = options.readyTimeoutMs ?? 30_000;
  let redis: Part | null = null;
  let nginx: Part | null = null;
  let failureLog: FailureLog | null = null;
  let instances: Slot[] = [];
  let stopping = false;
  /** How each slot's instance is started again (its pool's release and environment). */
  const launchers = new WeakMap<Slot, () => Promise<Part>>();
  let writeState = () => {};
  const supervisor = new Supervisor({
    start: (slot) => launchers.get(slot)!(),
    current: (slot) => !stopping && instances.includes(slot),
    restarted: () => writeState(),
    log: options.log,
    firstDelayMs: options.restartDelayMs,
  });
  const stopAll = async () => {
    stopping = true;
    await supervisor.close();
    // nginx first (no new requests reach the instances), then the instances, then Redis.
    for (const part of [nginx, ...instances.map((i) => i.part), redis]) if (part !== null) await stopPart(part);
    await failureLog?.close();
    rmSync(path.join(dir, EDGE_STATE_FILE), { force: true });
    await unlock();
  };
  const watch = (part: Part) => {
    void part.exited.then((code) => {
      if (!stopping) options.log(`edge: ${part.name} (pid ${part.child.pid}) exited (${code ?? part.child.signalCode})`);
    });
  };

  try {
    const redisPort = await freePort('127.0.0.1');
    redis = (
      await startPart(
        'redis-server',
        options.programs.redisServer,
        ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
        process.env,
        /Ready to accept connections/,
        options,
      )
    ).part;
    watch(redis);

    // Each pool has its ports for good: nginx's upstream groups name them once.
    const ports = {} as Record<Pool, number[]>;
    for (const pool of POOLS) {
      ports[pool] = [];
      for (let k = 0; k < options.instances; k++) ports[pool].push(await freePort('127.0.0.1'));
      writeWhole(path.join(dir, poolServersFile(pool)), ports[pool].map(poolServerLine).join(''));
      mkdirSync(path.join(dir, 'pools', pool), { recursive: true });
      // The marker edge-pool.conf tests for through the `serving` link.
      writeWhole(path.join(dir, 'pools', pool, pool), `${pool}\n`);
    }

    /** The pool's instances, serving the release folder `release`. */
    const startPool = async (pool: Pool, release: string) => {
      const env: NodeJS.ProcessEnv = {
        ...options.env,
        HOST: '127.0.0.1',
        RTP_OUT_DIR: release,
        // The edge moves the instances to a new release (another pool), never they themselves.
        RELEASE_POLL_MS: '0',
        RATE_LIMIT_STORE: 'redis',
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        // Only nginx connects to the instances, from 127.0.0.1, and it sets X-Forwarded-For to the client's own address.
        TRUST_PROXY: '127.0.0.1',
      };
      const entry = path.join(release, 'server', SERVER_ENTRY_FILE);
      const launch = (k: number, port: number) => async () =>
        (
          await startPart(
            `instance ${k + 1} (${pool})`,
            options.programs.node,
            [...options.nodeArgs, entry],
            { ...env, PORT: String(port) },
            /listening on http:\/\//,
            options,
          )
        ).part;
      const settled = await Promise.allSettled(ports[pool].map((port, k) => launch(k, port)().then((part): Slot => ({ part, port }))));
      const started = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed !== undefined) {
        for (const s of started) await stopPart(s.part);
        throw failed.reason;
      }
      started.forEach((slot, k) => {
        launchers.set(slot, launch(k, slot.port));
      });
      return started;
    };

    const release = realpathSync(options.outDir);
    let pool: Pool = 'blue';
    const conf = path.join(release, EDGE_DIR, NGINX_CONF_FILE);
    if (!existsSync(conf)) throw new Error(`edge: ${conf} is missing: rebuild with \`npm run build\` (or make a new release)`);
    relink(release, path.join(dir, 'pools', pool, 'release'));
    relink(path.join('pools', pool), path.join(dir, 'serving'));
    instances = await startPool(pool, release);
    for (const slot of instances) supervisor.watch(slot);

    const port = options.port === 0 ? await freePort(options.host) : options.port;
    const serving = path.join(dir, 'serving');
    failureLog = await openFailureLog(FAILURE_LOG_FORMAT, FAILURE_LOG_CONDITION, options.output);
    writeWhole(
      path.join(dir, EDGE_SITE_FILE),
      [`listen ${hostPort(options.host, port)};`, `root ${JSON.stringify(path.join(serving, 'release', 'client'))};`, `include ${EDGE_POOL_FILE};`, ''].join(
        '\n',
      ),
    );
    writeWhole(path.join(dir, EDGE_LOG_FILE), `${failureLog.directive}\n`);
    writeWhole(
      path.join(dir, EDGE_POOL_FILE),
      [
        `set $rtp_pool ${poolUpstream('blue')};`,
        `if (-f ${JSON.stringify(path.join(serving, 'green'))}) {`,
        `  set $rtp_pool ${poolUpstream('green')};`,
        '}',
        '',
      ].join('\n'),
    );
    // A link, not a copy: nginx reads the build's file, and includes the files above from the link's folder.
    const link = path.join(dir, NGINX_CONF_FILE);
    relink(conf, link);
    const args = ['-p', `${dir}/`, '-c', link, '-e', 'stderr'];
    // As root, nginx would run its workers as nobody, who cannot read a private checkout or temp folder.
    if (process.getuid?.() === 0) args.push('-g', 'user root;');
    const nginxChild = spawn(options.programs.nginx, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    nginxChild.stdout!.pipe(options.output, { end: false });
    nginxChild.stderr!.pipe(options.output, { end: false });
    nginx = { name: 'nginx', child: nginxChild, exited: new Promise((resolve) => nginxChild.once('exit', (code) => resolve(code))) };
    nginxChild.once('error', (err) => options.log(`edge: cannot run nginx (${options.programs.nginx}): ${err.message}`));
    watch(nginx);
    await waitForListener(options.host, port, nginx, timeout);

    const state = (): EdgeState =>
      EdgeStateSchema.parse({
        nginx: { pid: nginxChild.pid, port },
        redis: { pid: redis!.child.pid, port: redisPort },
        instances: instances.map((i) => ({ pid: i.part.child.pid, port: i.port })),
      });
    writeState = () => writeWhole(path.join(dir, EDGE_STATE_FILE), `${JSON.stringify(state(), null, 2)}\n`);
    writeState();

    // A moved release link: the other pool starts on its target, then takes over (lib/reload.ts: the
    // link polled, one switch at a time; a target that failed is retried when asked, not by polling).
    const switcher = new Reloader<string, string>(
      {
        probe: () => realpath(options.outDir),
        load: async (target) => {
          const next: Pool = pool === 'blue' ? 'green' : 'blue';
          options.log(`edge: ${options.outDir} now points to ${target}: starting the ${next} pool of ${options.instances} instance(s) on it`);
          relink(target, path.join(dir, 'pools', next, 'release'));
          const started = await startPool(next, target);
          const old = instances;
          // The switch: from here on nginx reads the new release's files and passes requests to the new pool.
          relink(path.join('pools', next), serving);
          instances = started;
          for (const slot of started) supervisor.watch(slot);
          pool = next;
          writeState();
          // Requests already passed to the old pool finish there (a graceful stop).
          await Promise.all(old.map((i) => stopPart(i.part)));
          options.log(`edge: now serving ${target} (${next} pool, ports ${started.map((i) => i.port).join(', ')})`);
          return target;
        },
        pollMs: lstatSync(options.outDir).isSymbolicLink() ? (options.releasePollMs ?? 1000) : 0,
        onError: (err, _target, { key: current }) => options.log(`edge: keeping ${current}: ${err instanceof Error ? err.message : String(err)}`),
      },
      { key: release, value: release },
    );

    let stopped: Promise<void> | undefined;
    return {
      url: `http://${hostPort(options.host, port)}`,
      get state() {
        return state();
      },
      nginxExited: nginx.exited,
      switchRelease: () => switcher.reload({ retryFailed: true }),
      stop: () => {
        switcher.close();
        stopped ??= switcher.idle().then(stopAll);
        return stopped;
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
