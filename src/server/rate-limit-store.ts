// The rate limiter's storage contract: a counter per client key in a fixed window. The in-memory
// store (rate-limit-memory.ts) is the default; a shared store (Redis, say) can implement the same.

/** Key prefix and per-request time budget of the Redis store (rate-limit-redis.ts); here so that
 * reading the settings does not load the Redis client. */
export const DEFAULT_REDIS_PREFIX = 'rtp:rl:';
export const DEFAULT_REDIS_TIMEOUT_MS = 250;

/** A client's counter after one more request. */
export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Epoch milliseconds at which the window ends. */
  resetAt: number;
}

export interface RateLimitStore {
  /**
   * Counts one request for `key` and returns the window's state. A key without a window, or whose
   * window has ended, starts a new window of `windowMs` at this request. May answer synchronously
   * (the memory store does, to keep the request path free of promise hops) or with a promise.
   */
  increment(key: string, windowMs: number): WindowCount | Promise<WindowCount>;
  /** Releases timers and connections. */
  close(): void | Promise<void>;
}
