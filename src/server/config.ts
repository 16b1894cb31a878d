// Server settings from the environment, validated all at once (docs/server.md lists them).
import path from 'node:path';
import { parseTrustProxy, type TrustProxy } from './client-ip.ts';
import { DEFAULT_RATE_LIMIT, DEFAULT_WINDOW_MS } from './rate-limit.ts';
import { DEFAULT_MAX_KEYS } from './rate-limit-memory.ts';

export interface ServerConfig {
  host: string;
  port: number;
  /** The build output folder (holds client/ and server/). */
  outDir: string;
  /** Requests per window and client; 0 turns the limiter off (benchmarks only). */
  rateLimit: number;
  rateLimitWindowMs: number;
  rateLimitMaxKeys: number;
  trustProxy: TrustProxy;
  /** node:http timeouts (ms) against slow clients: the whole head, the whole request, an idle keep-alive connection. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Open connections in all, and from one client address (connections past either are closed at once). */
  maxConnections: number;
  maxConnectionsPerAddress: number;
  staticCacheBytes: number;
  listCacheBytes: number;
  /** Memory for search results (matches per distinct q, their orders and facet tables). */
  /** SEARCH_CACHE_MB in bytes; null when unset: scaled to the registry (defaultSearchCacheBytes). */
  searchCacheBytes: number | null;
  shutdownTimeoutMs: number;
  /** How long a request body (POST /mcp) may take to arrive once its head has. */
  bodyTimeoutMs: number;
  /** Answer bytes not yet taken by clients: per connection (past it, its requests wait) and in the process (past it, 503). */
  maxUnsentPerConnection: number;
  maxUnsent: number;
  /** CARD_CACHE_DIR: where preview cards are kept on disk (a folder per data version); null: memory only. */
  cardCacheDir: string | null;
  /** CARD_CACHE_MB in bytes: the disk one data version's cards may take. */
  cardCacheBytes: number;
}

/** Reads an integer setting in [min, max]; a bad value is added to `problems` and the fallback used. */
export function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= min && n <= max)) {
    problems.push(`${name}=${JSON.stringify(raw)}: must be an integer from ${min} to ${max}`);
    return fallback;
  }
  return n;
}

/**
 * Reads HOST, PORT, RTP_OUT_DIR, RATE_LIMIT, RATE_LIMIT_WINDOW_MS, RATE_LIMIT_MAX_KEYS, TRUST_PROXY,
 * STATIC_CACHE_MB, LIST_CACHE_MB, SEARCH_CACHE_MB, SHUTDOWN_TIMEOUT_MS, HEADERS_TIMEOUT_MS,
 * REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS, BODY_TIMEOUT_MS,
 * MAX_UNSENT_KB_PER_CONNECTION, MAX_UNSENT_MB, CARD_CACHE_DIR, CARD_CACHE_MB.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const problems: string[] = [];
  const config: ServerConfig = {
    host: env.HOST !== undefined && env.HOST !== '' ? env.HOST : '127.0.0.1',
    port: int(env, 'PORT', 4321, 0, 65535, problems),
    outDir: path.resolve(env.RTP_OUT_DIR !== undefined && env.RTP_OUT_DIR !== '' ? env.RTP_OUT_DIR : 'dist'),
    rateLimit: int(env, 'RATE_LIMIT', DEFAULT_RATE_LIMIT, 0, 1_000_000_000, problems),
    rateLimitWindowMs: int(env, 'RATE_LIMIT_WINDOW_MS', DEFAULT_WINDOW_MS, 1000, 366 * DEFAULT_WINDOW_MS, problems),
    rateLimitMaxKeys: int(env, 'RATE_LIMIT_MAX_KEYS', DEFAULT_MAX_KEYS, 1, 100_000_000, problems),
    trustProxy: parseTrustProxy(env.TRUST_PROXY, problems),
    headersTimeoutMs: int(env, 'HEADERS_TIMEOUT_MS', 10_000, 1000, 600_000, problems),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000, problems),
    keepAliveTimeoutMs: int(env, 'KEEP_ALIVE_TIMEOUT_MS', 5000, 0, 600_000, problems),
    maxConnections: int(env, 'MAX_CONNECTIONS', 4096, 1, 1_000_000, problems),
    maxConnectionsPerAddress: int(env, 'MAX_CONNECTIONS_PER_ADDRESS', 64, 1, 1_000_000, problems),
    staticCacheBytes: int(env, 'STATIC_CACHE_MB', 12, 0, 65536, problems) * 1024 * 1024,
    listCacheBytes: int(env, 'LIST_CACHE_MB', 8, 0, 65536, problems) * 1024 * 1024,
    searchCacheBytes: env.SEARCH_CACHE_MB === undefined || env.SEARCH_CACHE_MB === '' ? null : int(env, 'SEARCH_CACHE_MB', 0, 0, 65536, problems) * 1024 * 1024,
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000, problems),
    bodyTimeoutMs: int(env, 'BODY_TIMEOUT_MS', 10_000, 100, 600_000, problems),
    maxUnsentPerConnection: int(env, 'MAX_UNSENT_KB_PER_CONNECTION', 1024, 64, 1024 * 1024, problems) * 1024,
    maxUnsent: int(env, 'MAX_UNSENT_MB', 64, 1, 65536, problems) * 1024 * 1024,
    // Outside the build by default: dist/ may be read-only where it is deployed. `off`: memory only.
    cardCacheDir:
      env.CARD_CACHE_DIR === 'off' ? null : path.resolve(env.CARD_CACHE_DIR !== undefined && env.CARD_CACHE_DIR !== '' ? env.CARD_CACHE_DIR : '.cache/cards'),
    cardCacheBytes: int(env, 'CARD_CACHE_MB', 512, 1, 1024 * 1024, problems) * 1024 * 1024,
  };
  if (problems.length > 0) throw new Error(`Invalid server settings:\n${problems.join('\n')}`);
  return config;
}
