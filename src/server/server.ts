// The production server (started by src/server/main.ts): one Node process answering the list and
// history routes from the list bundle and static files from dist/client. No framework runtime is
// loaded. Loads the registry before listening, applies the limits against hostile clients
// (docs/security.md), and exits cleanly on SIGTERM/SIGINT (docs/server.md).
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { KEY_BUDGET_FACTOR, KeyAuth } from '../keys/auth.ts';
import { loadServices, type RegistryServices } from '../list/service.ts';
import { readBuildInfo } from '../routes/build-info.ts';
import { pageHeaders } from '../routes/response-headers.ts';
import { createAccessLog } from './access-log.ts';
import { createApp, type McpHandler } from './app.ts';
import { countedResponse, UnsentLedger } from './backpressure.ts';
import { listPageCacheBytes, memoryBudget } from './budget.ts';
import { readConfig } from './config.ts';
import { answerClientError, answerExpectation, limitConnections, OpenResponses, serverOptions } from './connections.ts';
import { makeGraceful } from './graceful.ts';
import { LiveRelease } from './live-release.ts';
import { http } from './node-http.ts';
import type { OgImageOptions, OgImages } from './og-image.ts';
import { readProductionSettings } from './production.ts';
import { RateLimiter } from './rate-limit.ts';
import { MemoryRateLimitStore } from './rate-limit-memory.ts';
import type { RateLimitStore } from './rate-limit-store.ts';
import { describeRoute } from './request.ts';
import { StaticFiles } from './static.ts';

const FALLBACK_404 =
  '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1><p>There is no page at this address.</p></body></html>\n';

async function readNotFoundPage(clientDir: string): Promise<Buffer> {
  try {
    return await readFile(path.join(clientDir, '404.html'));
  } catch {
    return Buffer.from(FALLBACK_404);
  }
}

/** GET /api/og/rtp/{slug}.png, with its module (and resvg) loaded on the first card asked for. */
function lazyOgImages(services: RegistryServices, options: OgImageOptions): OgImages {
  let images: Promise<OgImages> | undefined;
  return async (pathname) => {
    images ??= import('./og-image.ts').then((m) => m.createOgImages(services, options));
    return (await images)(pathname);
  };
}

/**
 * POST /mcp, with the MCP SDK loaded on the first request: it is a third of the server's module
 * loading, which every start would otherwise pay before its first answer.
 */
function lazyMcp(services: RegistryServices, site: string, bodyTimeoutMs: number): McpHandler {
  let handler: Promise<McpHandler> | undefined;
  return async (req, res, extra, charge, client) => {
    handler ??= import('./mcp-http.ts').then((m) => m.createMcpHandler(services, site, { bodyTimeoutMs }));
    return (await handler)(req, res, extra, charge, client);
  };
}

function urlOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

async function main(): Promise<void> {
  const config = readConfig();
  const production = readProductionSettings();
  const ledger = new UnsentLedger({ connectionBytes: config.maxUnsentPerConnection, processBytes: config.maxUnsent });
  const keys = await KeyAuth.open({ file: production.keysFile, pollMs: production.keysPollMs });

  // One store for both budgets: per client address, and per API key at KEY_BUDGET_FACTOR times the limit.
  let store: RateLimitStore | null = null;
  let limiter: RateLimiter | null = null;
  let keyLimiter: RateLimiter | null = null;
  if (config.rateLimit > 0) {
    const budget = { limit: config.rateLimit, windowMs: config.rateLimitWindowMs };
    if (production.rateLimitStore === 'redis') {
      // Loaded only when chosen: the Redis client is a tenth of the server's start-up.
      const { FallbackRateLimiter, RedisRateLimitStore } = await import('./rate-limit-redis.ts');
      // Redis down, full or too slow: requests are counted in this process meanwhile, see rate-limit-redis.ts.
      const redis = await RedisRateLimitStore.connect({ url: production.redisUrl, prefix: production.redisPrefix, timeoutMs: production.redisTimeoutMs });
      const local = new MemoryRateLimitStore({ maxKeys: config.rateLimitMaxKeys });
      store = {
        increment: (k, w) => redis.increment(k, w),
        close: async () => {
          local.close();
          await redis.close();
        },
      };
      limiter = new FallbackRateLimiter({ store: redis, ...budget, fallback: new RateLimiter({ store: local, ...budget }) });
      const keyBudget = { ...budget, limit: budget.limit * KEY_BUDGET_FACTOR };
      keyLimiter = new FallbackRateLimiter({ store: redis, ...keyBudget, fallback: new RateLimiter({ store: local, ...keyBudget }) });
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
  /** Loads one release (list bundle, static index, 404 page) from its real folder. */
  const loadRelease = async (outDir: string) => {
    const clientDir = path.join(outDir, 'client');
    const serverDir = path.join(outDir, 'server');
    // build-info.json is read once: the list bundle is checked against it, and the site origin (for the
    // pages' CSP) comes from it, beside the other loads, not before them.
    const infoRead = readBuildInfo(serverDir);
    const siteRead = infoRead.then((info) => info.site);
    const headersRead = siteRead.then((site) => pageHeaders(new URL(site).origin));
    const [[services, listMs], [statics, filesMs], notFoundHtml, headers] = await Promise.all([
      timed(
        loadServices(
          serverDir,
          {
            cacheBytes: config.listCacheBytes,
            pageCacheBytes: listPageCacheBytes(config),
            ...(config.searchCacheBytes === null ? {} : { searchCacheBytes: config.searchCacheBytes }),
          },
          infoRead,
        ),
      ),
      timed(headersRead.then((h) => StaticFiles.open(clientDir, { cacheBytes: config.staticCacheBytes, pageHeaders: h }))),
      readNotFoundPage(clientDir),
      headersRead,
    ]);
    const app = createApp({
      services,
      statics,
      limiter,
      keyLimiter,
      authenticate: (req) => keys.check(req),
      trustProxy: config.trustProxy,
      notFoundHtml,
      pageHeaders: headers,
      mcp: lazyMcp(services, await siteRead, config.bodyTimeoutMs),
      ogImages: lazyOgImages(services, { cacheDir: config.cardCacheDir, diskBytes: config.cardCacheBytes }),
      ledger,
      // The route and the error, never the request target: it can carry keys or attack payloads.
      onError: (err, req) => console.error(`error answering ${describeRoute(req)}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
    });
    return { services, app, timings: `list ${listMs} ms, files ${filesMs} ms` };
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

  const server = http.createServer({ ...serverOptions(config), ServerResponse: countedResponse(ledger) });
  limitConnections(server, config);
  // Malformed requests and oversized heads get a JSON error too (Node's default is a bare status line).
  const open = new OpenResponses();
  server.on('clientError', answerClientError(open));
  server.on('checkExpectation', answerExpectation);
  // Every request's errors are caught where they happen; anything that still escapes is logged
  // (without request data) and the server keeps serving: its state is read-only after start.
  process.on('unhandledRejection', (reason) => logEscaped('unhandled rejection', reason));
  process.on('uncaughtException', (err) => logEscaped('uncaught exception', err));
  const graceful = makeGraceful(server, (req, res) => {
    open.track(res);
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
        `(ready ${ready} ms after start; ${timings}, in parallel)` +
        (limiter === null
          ? ', rate limit off'
          : `, rate limit ${limiter.limit} per ${Math.round(limiter.windowMs / 1000)} s (${production.rateLimitStore} store)`) +
        `, ${keys.size} API key(s)`,
    );
    const budget = memoryBudget(config, services.games);
    console.log(budget.line);
    if (!budget.fits) console.error(budget.warning);
  });
}

let escapedLogged = 0;
let escapedWindow = 0;
/** Logs an error that escaped every handler: at most 10 lines a minute, then a count. */
function logEscaped(kind: string, err: unknown): void {
  const now = Date.now();
  if (now - escapedWindow >= 60_000) {
    escapedWindow = now;
    escapedLogged = 0;
  }
  if (++escapedLogged > 10) return;
  console.error(`${kind}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
