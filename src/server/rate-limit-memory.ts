// The default rate-limit store: counters in a Map, expired windows swept by an unref()ed timer,
// and a cap on the number of keys so memory stays bounded however many clients appear.
import type { RateLimitStore, WindowCount } from './rate-limit-store.ts';

export interface MemoryStoreOptions {
  /** Most keys held; beyond it the oldest windows are dropped (those clients start afresh). */
  maxKeys?: number;
  /** How often expired windows are swept. */
  sweepIntervalMs?: number;
  /** The clock (epoch ms); tests may inject one, or use fake timers. */
  now?: () => number;
}

export const DEFAULT_MAX_KEYS = 100_000;
/** Heap one held key costs (a /64 key string, its window object and the Map entry; measured about 213 bytes). */
export const BYTES_PER_KEY = 256;
export const DEFAULT_SWEEP_MS = 60_000;

export class MemoryRateLimitStore implements RateLimitStore {
  // Insertion order is window-start order: a key is deleted and re-inserted when its window
  // restarts, and every window has the same length, so the first entries always end first.
  private readonly windows = new Map<string, WindowCount>();
  private readonly maxKeys: number;
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => this.sweep(), options.sweepIntervalMs ?? DEFAULT_SWEEP_MS);
    this.timer.unref();
  }

  increment(key: string, windowMs: number): WindowCount {
    const now = this.now();
    const current = this.windows.get(key);
    if (current !== undefined && now < current.resetAt) {
      current.count++;
      return { count: current.count, resetAt: current.resetAt };
    }
    if (current !== undefined) this.windows.delete(key);
    else if (this.windows.size >= this.maxKeys && this.sweep() === 0) this.evictOldest();
    const fresh = { count: 1, resetAt: now + windowMs };
    this.windows.set(key, fresh);
    return { count: fresh.count, resetAt: fresh.resetAt };
  }

  /**
   * Drops the oldest sixteenth of the windows in one pass. Evicting in batches keeps a flood of
   * new clients cheap: a Map iterates past the slots of deleted entries until it compacts itself.
   */
  private evictOldest(): void {
    let toDrop = Math.max(1, this.windows.size - this.maxKeys + 1, this.maxKeys >> 4);
    for (const key of this.windows.keys()) {
      this.windows.delete(key);
      if (--toDrop === 0) break;
    }
  }

  /** Drops every ended window; stops at the first live one (see the ordering note above). */
  sweep(): number {
    const now = this.now();
    let removed = 0;
    for (const [key, w] of this.windows) {
      if (now < w.resetAt) break;
      this.windows.delete(key);
      removed++;
    }
    return removed;
  }

  /** Keys currently held. */
  get size(): number {
    return this.windows.size;
  }

  close(): void {
    clearInterval(this.timer);
    this.windows.clear();
  }
}
