// Caches and memo maps bounded by the bytes their keys and values hold: least-recently-used caches
// (lru-cache, weighed in bytes), and memo maps and sets that start afresh when the next entry would
// pass their bound (a clear is O(1) and a later miss only costs a re-parse).
import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used cache holding at most `maxBytes` (as `weigh` counts them: the key too) and
 * `maxEntries` entries; an entry heavier than `maxBytes` is never kept. A bound of 0 keeps nothing.
 */
export function byteLru<V extends {}>(maxBytes: number, maxEntries: number, weigh: (value: V, key: string) => number): LRUCache<string, V> {
  const bytes = Math.max(1, Math.floor(maxBytes));
  // lru-cache wants positive integer bounds: with a bound of 0, every entry weighs 2 against a 1-byte limit.
  const none = maxBytes <= 0;
  return new LRUCache<string, V>({
    max: Math.max(1, maxEntries),
    maxSize: bytes,
    maxEntrySize: bytes,
    sizeCalculation: none ? () => 2 : (value, key) => Math.max(1, Math.ceil(weigh(value, key))),
  });
}

/** Bytes a string may hold in V8 (two per code unit, the worst case) plus a Map entry's overhead. */
export function stringBytes(s: string): number {
  return 2 * s.length + 48;
}

/** A string-keyed map whose keys and values together stay within `maxBytes`. */
export class ByteBoundedMap {
  private readonly map = new Map<string, string>();
  private used = 0;
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(key: string): string | undefined {
    return this.map.get(key);
  }

  /** Stores the pair unless it alone is larger than the bound; clears the map first when full. */
  set(key: string, value: string): void {
    if (this.map.has(key)) return;
    const bytes = stringBytes(key) + 2 * value.length;
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
    this.used -= stringBytes(key) + 2 * value.length;
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
