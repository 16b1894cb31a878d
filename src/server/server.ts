// The production server (started by src/server/main.ts): one Node process answering the list and
// history routes from the list bundle, static files from dist/client, and any other on-demand Astro
// route through the node adapter. Loads the registry before listening; the adapter, needed by no
// route the registry serves, is imported right after. Exits cleanly on SIGTERM/SIGINT (docs/server.md).
import { access, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_FILE } from '../registry/bundle.ts';
import { loadServices } from '../list/service.ts';
import { createApp, type AstroHandler } from './app.ts';
import { readConfig } from './config.ts';
import { MemoryRateLimitStore } from './rate-limit-memory.ts';
import { RateLimiter } from './rate-limit.ts';
import { StaticFiles } from './static.ts';
import { KEY_BUDGET_FACTOR, KeyAuth } from '../keys/auth.ts';
import { readProductionSettings } from '../release/settings.ts';
import { LiveRelease } from '../release/live.ts';
import { createAccessLog } from './access-log.ts';
import type { RateLimitStore } from './rate-limit-store.ts';
import { makeGraceful } from './graceful.ts';

const FALLBACK_404 = '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1><p>There is no page at this address.</p></body></html>\n';

/** Checks that the adapter's entry exists (a missing one means no complete build); returns its path. */
async function findAstroEntry(serverDir: string): Promise<string> {
  const entry = path.join(serverDir, 'entry.mjs');
  try {
    await access(entry);
  } catch {
    throw new Error(`Cannot find ${entry}: run \`npm run build\` first.`);
  }
  return entry;
}

async function importAstroHandler(entry: string): Promise<AstroHandler> {
  const mod = (await import(pathToFileURL(entry).href)) as { handler?: AstroHandler };
  if (typeof mod.handler !== 'function') throw new Error(`${entry} exports no handler: the node adapter must be in middleware mode.`);
  return mod.handler;
}

async function readNotFoundPage(clientDir: string): Promise<Buffer> {
  try {
    return await readFile(path.join(clientDir, '404.html'));
  } catch {
    return Buffer.from(FALLBACK_404);
  }
}

/** Answers a request Node's parser refused (before any handler ran) with a JSON error, then closes. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'request header fields too large'] : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'request timeout'] : [400, 'bad request'];
  const body = JSON.stringify({ statusCode: status, statusMessage: message });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
      `Access-Control-Allow-Origin: *\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function urlOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

async function main(): Promise<void> {
  const config = readConfig();
  const production = readProductionSettings();
  const keys = await KeyAuth.open({ file: production.keysFile, pollMs: production.keysPollMs });

  // One store for both budgets: per client address, and per API key at KEY_BUDGET_FACTOR times the limit.
  let store: RateLimitStore | null = null;
  let limiter: RateLimiter | null = null;
  let keyLimiter: RateLimiter | null = null;
  if (config.rateLimit > 0) {
    const budget = { limit: config.rateLimit, windowMs: config.rateLimitWindowMs };
    if (production.rateLimitStore === 'redis') {
      // Loaded only when chosen: the Redis client is a tenth of the server's start-up.
      const { FailOpenRateLimiter, RedisRateLimitStore } = await import('./rate-limit-redis.ts');
      // Redis down or too slow: requests are served without a limit (fail open), see rate-limit-redis.ts.
      store = await RedisRateLimitStore.connect({ url: production.redisUrl, prefix: production.redisPrefix, timeoutMs: production.redisTimeoutMs });
      limiter = new FailOpenRateLimiter({ store, ...budget });
      keyLimiter = new FailOpenRateLimiter({ store, ...budget, limit: budget.limit * KEY_BUDGET_FACTOR });
    } else {
      store = new MemoryRateLimitStore({ maxKeys: config.rateLimitMaxKeys });
      limiter = new RateLimiter({ store, ...budget });
      keyLimiter = new RateLimiter({ store, ...budget, limit: budget.limit * KEY_BUDGET_FACTOR });
    }
  }

  const timed = async <T>(work: Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const value = await work;
    return [value, Math.round(performance.now() - started)];
  };
  // The first release's adapter is imported once the server listens (see below); a release
  // switched in later is loaded in full, adapter included, before it serves.
  let firstLoad = true;
  /** Loads one release (list bundle, static index, Astro handler, 404 page) from its real folder. */
  const loadRelease = async (outDir: string) => {
    const clientDir = path.join(outDir, 'client');
    const serverDir = path.join(outDir, 'server');
    const deferAdapter = firstLoad;
    firstLoad = false;
    const [[services, listMs], [statics, filesMs], entry, notFoundHtml] = await Promise.all([
      timed(loadServices(path.join(serverDir, BUNDLE_FILE), { cacheBytes: config.listCacheBytes, searchCacheBytes: config.searchCacheBytes })),
      timed(StaticFiles.open(clientDir, { cacheBytes: config.staticCacheBytes })),
      findAstroEntry(serverDir),
      readNotFoundPage(clientDir),
    ]);
    let astroImport: Promise<AstroHandler> | null = null;
    const astro = (): Promise<AstroHandler> => (astroImport ??= importAstroHandler(entry));
    let astroMs = 0;
    if (!deferAdapter) [, astroMs] = await timed(astro());
    const app = createApp({
      services,
      statics,
      limiter,
      keyLimiter,
      authenticate: (req) => keys.check(req),
      trustProxy: config.trustProxy,
      astro,
      notFoundHtml,
      onError: (err, req) => console.error(`error answering ${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
    });
    const timings = `list ${listMs} ms, files ${filesMs} ms` + (deferAdapter ? '' : `, adapter ${astroMs} ms`);
    return { services, app, astro, timings };
  };
  // RTP_OUT_DIR may be releases/current: a switched link is followed (polling, or SIGHUP) and the
  // next release loaded in full before new requests go to it; requests in flight finish on the old one.
  const live = await LiveRelease.open({
    outDir: config.outDir,
    load: loadRelease,
    pollMs: production.releasePollMs,
    describe: (r) => `data ${r.services.dataVersion}, ${r.services.games} games`,
  });
  const accessLog = createAccessLog(process.env, { trustProxy: config.trustProxy, keyCheck: (req) => keys.checked(req) });
  process.on('SIGHUP', () => {
    void live.reload(true);
    void keys.reload();
  });

  const server = http.createServer();
  // Malformed requests and oversized heads get a JSON error too (Node's default is a bare status line).
  server.on('clientError', answerClientError);
  const graceful = makeGraceful(server, (req, res) => {
    accessLog?.track(req, res);
    live.current.app(req, res);
  });
  const shutdown = (signal: string) => {
    console.log(`${signal}: no new connections; finishing ${graceful.inFlight} request(s) in flight`);
    graceful.shutdown(
      config.shutdownTimeoutMs,
      () => {
        live.close();
        keys.close();
        void Promise.all([store?.close(), accessLog?.close()]).finally(() => {
          console.log('stopped');
          process.exit(0);
        });
      },
      () => console.error(`requests still open after ${config.shutdownTimeoutMs} ms: closing their connections`),
    );
  };
  // on, not once: a second signal while closing must not fall back to the default (immediate exit).
  let signalled = false;
  const onSignal = (signal: string) => {
    if (signalled) return;
    signalled = true;
    shutdown(signal);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));

  server.once('error', (err: NodeJS.ErrnoException) => {
    console.error(`cannot listen on ${config.host}:${config.port}: ${err.code === 'EADDRINUSE' ? 'the address is in use' : err.message}`);
    process.exit(1);
  });
  server.listen(config.port, config.host, () => {
    const ready = Math.round(performance.now());
    const { services, timings } = live.current;
    console.log(
      `rtp-registry: data ${services.dataVersion}, ${services.games} games, listening on ${urlOf(server.address() as AddressInfo)} ` +
        `(ready ${ready} ms after start; ${timings}, in parallel; adapter loading)` +
        (limiter === null ? ', rate limit off' : `, rate limit ${limiter.limit} per ${Math.round(limiter.windowMs / 1000)} s (${production.rateLimitStore} store)`) +
        `, ${keys.size} API key(s)`,
    );
    // The adapter answers no route of the registry itself (only other on-demand pages): it is
    // imported now, off the start-up path. A release whose adapter cannot load is not served.
    const adapterStarted = performance.now();
    live.current.astro().then(
      () => console.log(`rtp-registry: adapter loaded in ${Math.round(performance.now() - adapterStarted)} ms`),
      (err: unknown) => {
        console.error(`cannot load the Astro adapter: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    );
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
