// The memory the server may hold for what grows with requests, from its settings: every cache and
// map is bounded by bytes (or by count × a capped entry size), and the sum of those on the heap with
// the heap the loaded registry uses must fit the heap Node was given (the start scripts'
// --max-old-space-size); bodies and arrays outside the heap are counted apart.
import v8 from 'node:v8';
import { HISTORY_CACHE_BYTES } from '../list/history.ts';
import { LIST_BODY_POOL_BYTES } from '../list/list.ts';
import { DOORKEEPER_BYTES, PAGE_CACHE_BYTES, RAW_KEYS_BYTES } from '../list/list-cache.ts';
import { defaultSearchCacheBytes, Q_KEYS_BYTES } from '../list/memory-engine.ts';
import { FUZZY_MEMO_BYTES } from '../list/search.ts';
import { ACCESS_LOG_BUFFER_BYTES, ACCESS_LOG_HASH_BYTES, ACCESS_LOG_HASHES } from './access-log.ts';
import type { ServerConfig } from './config.ts';
import { MCP_BODY_BYTES, MCP_READING } from './mcp-http.ts';
import { OG_CACHE_BYTES, OG_DRAWING_BYTES } from './og-image.ts';
import { BYTES_PER_KEY } from './rate-limit-memory.ts';

/** Heap a connection holds while open beyond what the kernel and Node's C++ parser keep (socket, parser and request objects). */
export const BYTES_PER_CONNECTION = 6 * 1024;

const MiB = 1024 * 1024;

/** The list route's evaluated-page cache: PAGE_CACHE_BYTES, or none when LIST_CACHE_MB=0 turns the list caches off. */
export function listPageCacheBytes(config: Pick<ServerConfig, 'listCacheBytes'>): number {
  return config.listCacheBytes === 0 ? 0 : PAGE_CACHE_BYTES;
}

/** The search cache's bound for a registry of `games`: SEARCH_CACHE_MB, else scaled to the registry. */
export function searchCacheBytes(config: Pick<ServerConfig, 'searchCacheBytes'>, games: number): number {
  return config.searchCacheBytes ?? defaultSearchCacheBytes(games);
}

/** Where a bounded part lives: on the V8 heap (objects, strings), or outside it (Buffers and typed arrays). */
export type MemorySpace = 'heap' | 'outside';

export interface MemoryBudget {
  /** Each bound in bytes, by what it bounds, and where its bytes live. */
  parts: Array<[string, number, MemorySpace]>;
  /** The bounds on the heap, summed (checked against the heap limit). */
  total: number;
  /** The bounds outside the heap, summed (resident memory beside the heap; V8's limit does not apply). */
  outside: number;
  heapUsed: number;
  heapLimit: number;
  fits: boolean;
  line: string;
  warning: string;
}

/**
 * The bounds of `config` for a registry of `games`: those on the heap, summed with `heapUsed` (by
 * default the heap in use now, the registry loaded), must fit the heap limit; the bodies and
 * arrays outside the heap are reported beside them.
 */
export function memoryBudget(
  config: ServerConfig,
  games: number,
  heapUsed = process.memoryUsage().heapUsed,
  heapLimit = v8.getHeapStatistics().heap_size_limit,
): MemoryBudget {
  const parts: Array<[string, number, MemorySpace]> = [
    ['static file cache (STATIC_CACHE_MB)', config.staticCacheBytes, 'outside'],
    ['list response cache (LIST_CACHE_MB)', config.listCacheBytes, 'outside'],
    // Pages are typed arrays, but many small ones: their objects are counted as heap.
    ['list evaluated-page cache', listPageCacheBytes(config), 'heap'],
    ['list answer buffers kept for reuse', LIST_BODY_POOL_BYTES, 'outside'],
    ['search result cache (SEARCH_CACHE_MB)', searchCacheBytes(config, games), 'outside'],
    ['history response cache', HISTORY_CACHE_BYTES, 'outside'],
    ['list raw-query keys', RAW_KEYS_BYTES, 'heap'],
    ['list cache admission keys', DOORKEEPER_BYTES, 'heap'],
    ['search q keys', Q_KEYS_BYTES, 'heap'],
    ['search fuzzy expansions by word', FUZZY_MEMO_BYTES, 'heap'],
    ['rate-limit store (RATE_LIMIT_MAX_KEYS)', config.rateLimit > 0 ? config.rateLimitMaxKeys * BYTES_PER_KEY : 0, 'heap'],
    ['access-log backlog and address hashes', ACCESS_LOG_BUFFER_BYTES + ACCESS_LOG_HASHES * ACCESS_LOG_HASH_BYTES, 'heap'],
    ['open connections (MAX_CONNECTIONS)', config.maxConnections * BYTES_PER_CONNECTION, 'heap'],
    ['answers not yet taken by clients (MAX_UNSENT_MB)', config.maxUnsent, 'outside'],
    ['preview cards kept in memory', OG_CACHE_BYTES, 'outside'],
    ['preview card pixels drawn and not yet collected', OG_DRAWING_BYTES, 'outside'],
    ['MCP bodies being read', MCP_READING * MCP_BODY_BYTES, 'outside'],
  ];
  const sum = (space: MemorySpace) => parts.reduce((acc, [, bytes, where]) => (where === space ? acc + bytes : acc), 0);
  const total = sum('heap');
  const outside = sum('outside');
  const fits = heapUsed + total <= heapLimit;
  const mib = (n: number) => `${(n / MiB).toFixed(0)} MiB`;
  return {
    parts,
    total,
    outside,
    heapUsed,
    heapLimit,
    fits,
    line:
      `rtp-registry: memory bounds ${mib(total)} in the heap (maps, keys, connections) + ${mib(heapUsed)} heap in use = ${mib(heapUsed + total)} of a ${mib(heapLimit)} heap limit; ` +
      `${mib(outside)} outside it (cached bodies, search arrays, unsent answers)`,
    warning:
      `rtp-registry: WARNING the memory bounds in the heap (${mib(total)}) and the heap in use (${mib(heapUsed)}) exceed the heap limit (${mib(heapLimit)}): ` +
      'lower STATIC_CACHE_MB, LIST_CACHE_MB, SEARCH_CACHE_MB, RATE_LIMIT_MAX_KEYS or MAX_CONNECTIONS, or raise --max-old-space-size (docs/security.md)',
  };
}
