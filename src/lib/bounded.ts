// Caches and memo maps bounded by the bytes their keys and values hold: least-recently-used caches
// (lru-cache, weighed in bytes), and memo maps and sets that start afresh when the next entry would
// pass their bound (a clear is O(1) and a later miss only costs a re-parse).
import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used cache holding at most `maxBytes` (as `weigh` counts them: the key too) and
 * `maxEntries` entries; an entry heavier than `maxBytes` is never kept. A bound of 0 keeps nothing.
 * With `ttlMs`, each entry leaves that long after it was set.
 */
export function byteLru<V extends {}>(maxBytes: number, maxEntries: number, weigh: (value: V, key: string) => number, ttlMs?: number): LRUCache<string, V> {
  const bytes = Math.max(1, Math.floor(maxBytes));
  // lru-cache wants positive integer bounds: with a bound of 0, every entry weighs 2 against a 1-byte limit.
  const none = maxBytes <= 0;
  return new LRUCache<string, V>({
    max: Math.max(1, maxEntries),
    maxSize: bytes,
    maxEntrySize: bytes,
    sizeCalculation: none ? () => 2 : (value, key) => Math.max(1, Math.ceil(weigh(value, key))),
    // Read the clock on each access instead of caching it behind a timer per access.
    ...(ttlMs === undefined ? {} : { ttl: ttlMs, ttlResolution: 0 }),
  });
}

/** Bytes a string may hold in V8 (two per code unit, the worst case) plus a Map entry's overhead. */
export function stringBytes(s: string): number {
  return 2 * s.length + 48;
}

/** Bytes a value of a ByteBoundedMap holds: two per code unit of a string, eight for a number. */
const valueBytes = (value: string | number): number => (typeof value === 'number' ? 8 : 2 * value.length);

/** A string-keyed map (of strings, or of numbers such as counts) whose keys and values together stay within `maxBytes`. */
export class ByteBoundedMap<V extends string | number = string> {
  private readonly map = new Map<string, V>();
  private used = 0;
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  /** Stores the pair (in place of the key's value, if any) unless it alone is larger than the bound; clears the map first when full. */
  set(key: string, value: V): void {
    this.delete(key);
    const bytes = stringBytes(key) + valueBytes(value);
    if (bytes > this.maxBytes) return;
    if (this.used + bytes > this.maxBytes) this.clear();
    this.map.set(key, value);
    this.used += bytes;
  }

  /** Removes `key`; true when it was there. */
  delete(key: string): boolean {
    const value = this.map.get(key);
    if (value === undefined) return false;
    this.map.delete(key);
    this.used -= stringBytes(key) + valueBytes(value);
    return true;
  }

  clear(): void {
    this.map.clear();
    this.used = 0;
  }

  get size(): number {
    return this.map.size;
  }

  /** Bytes accounted for the entries held. */
  get bytes(): number {
    return this.used;
  }
}
