// The memory the server may hold for what grows with requests, from its settings: every cache and
// map is bounded by bytes (or by count × a capped entry size), and their sum with the heap the
// loaded registry uses must fit the heap Node was given (the start scripts' --max-old-space-size).
import v8 from 'node:v8';
import { HISTORY_CACHE_BYTES } from '../list/history.ts';
import { Q_KEYS_BYTES } from '../list/memory-engine.ts';
import { ACCESS_LOG_BUFFER_BYTES, ACCESS_LOG_HASHES, ACCESS_LOG_HASH_BYTES } from './access-log.ts';
import type { ServerConfig } from './config.ts';
import { BYTES_PER_KEY } from './rate-limit-memory.ts';
import { DOORKEEPER_BYTES, PAGE_CACHE_BYTES, RAW_KEYS_BYTES } from '../list/list-cache.ts';
import { LIST_BODY_POOL_BYTES } from '../list/list.ts';

/** Heap a connection holds while open beyond what the kernel and Node's C++ parser keep (socket, parser and request objects). */
export const BYTES_PER_CONNECTION = 6 * 1024;

const MiB = 1024 * 1024;

/** The list route's evaluated-page cache: PAGE_CACHE_BYTES, or none when LIST_CACHE_MB=0 turns the list caches off. */
export function listPageCacheBytes(config: Pick<ServerConfig, 'listCacheBytes'>): number {
  return config.listCacheBytes === 0 ? 0 : PAGE_CACHE_BYTES;
}

export interface MemoryBudget {
  /** Each bound in bytes, by what it bounds. */
  parts: Array<[string, number]>;
  total: number;
  heapUsed: number;
  heapLimit: number;
  fits: boolean;
  line: string;
  warning: string;
}

/** The bounds of `config`, summed; `heapUsed` defaults to the heap in use now (the registry loaded). */
export function memoryBudget(config: ServerConfig, heapUsed = process.memoryUsage().heapUsed, heapLimit = v8.getHeapStatistics().heap_size_limit): MemoryBudget {
  const parts: Array<[string, number]> = [
    ['static file cache (STATIC_CACHE_MB)', config.staticCacheBytes],
    ['list response cache (LIST_CACHE_MB)', config.listCacheBytes],
    ['list evaluated-page cache', listPageCacheBytes(config)],
    ['list answer buffers kept for reuse', LIST_BODY_POOL_BYTES],
    ['search result cache (SEARCH_CACHE_MB)', config.searchCacheBytes],
    ['history response cache', HISTORY_CACHE_BYTES],
    ['list raw-query keys', RAW_KEYS_BYTES],
    ['list cache admission keys', DOORKEEPER_BYTES],
    ['search q keys', Q_KEYS_BYTES],
    ['rate-limit store (RATE_LIMIT_MAX_KEYS)', config.rateLimit > 0 ? config.rateLimitMaxKeys * BYTES_PER_KEY : 0],
    ['access-log backlog and address hashes', ACCESS_LOG_BUFFER_BYTES + ACCESS_LOG_HASHES * ACCESS_LOG_HASH_BYTES],
    ['open connections (MAX_CONNECTIONS)', config.maxConnections * BYTES_PER_CONNECTION],
  ];
  const total = parts.reduce((sum, [, bytes]) => sum + bytes, 0);
  const fits = heapUsed + total <= heapLimit;
  const mib = (n: number) => `${(n / MiB).toFixed(0)} MiB`;
  return {
    parts,
    total,
    heapUsed,
    heapLimit,
    fits,
    line: `rtp-registry: memory bounds ${mib(total)} (caches, maps, buffers, connections) + ${mib(heapUsed)} heap in use = ${mib(heapUsed + total)} of a ${mib(heapLimit)} heap limit`,
    warning:
      `rtp-registry: WARNING the memory bounds (${mib(total)}) and the heap in use (${mib(heapUsed)}) exceed the heap limit (${mib(heapLimit)}): ` +
      'lower STATIC_CACHE_MB, LIST_CACHE_MB, SEARCH_CACHE_MB, RATE_LIMIT_MAX_KEYS or MAX_CONNECTIONS, or raise --max-old-space-size (docs/security.md)',
  };
}
