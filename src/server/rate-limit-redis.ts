// A rate-limit store shared by several server instances: one counter per client key in Redis,
// counted atomically in one round trip by a Lua script (INCR; PEXPIRE when the window starts;
// return the count and PTTL), sent with EVALSHA (EVAL when Redis has not cached the script yet).
// Chosen by RATE_LIMIT_STORE=redis with REDIS_URL (docs/production.md).
//
// Policy when Redis cannot answer (down, unreachable, full, slower than REDIS_TIMEOUT_MS): fall
// back to this process's in-memory limiter (FallbackRateLimiter). The limit then still holds per
// instance, the public API stays up, one line is logged per minute at most, and Redis is asked
// again (one probe request at a time, at most once a second) until it answers.
import { createHash } from 'node:crypto';
import { createClient } from '@redis/client';
import { type RateLimitDecision, RateLimiter, type RateLimiterOptions } from './rate-limit.ts';
import { DEFAULT_REDIS_PREFIX, DEFAULT_REDIS_TIMEOUT_MS, type RateLimitStore, type WindowCount } from './rate-limit-store.ts';

export { DEFAULT_REDIS_PREFIX, DEFAULT_REDIS_TIMEOUT_MS };

/**
 * KEYS[1] the client's counter, ARGV[1] the window in ms. A counter found without an expiry (which
 * only an outside write could leave) gets one, so no client is blocked for ever.
 */
export const WINDOW_SCRIPT = `local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return {count, tonumber(ARGV[1])}
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;
export const WINDOW_SCRIPT_SHA = createHash('sha1').update(WINDOW_SCRIPT).digest('hex');

const WARN_EVERY_MS = 60_000;

/** Redis could not count this request (down, unreachable, too slow, or an unexpected reply). */
export class RateLimitStoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RateLimitStoreUnavailable';
  }
}

export interface RedisStoreOptions {
  /** `redis://[[user]:password@]host[:port][/db]` */
  url: string;
  /** Prepended to every counter key (one key space per deployment, or per test). */
  prefix?: string;
  /** A command not answered within this many ms fails (and the request is let through). */
  timeoutMs?: number;
  /** How long `connect` waits for the first connection before going on without it. */
  connectWaitMs?: number;
  log?: (line: string) => void;
  now?: () => number;
}

/** What the store needs of a Redis client (the `@redis/client` client provides it). */
interface Client {
  sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>;
  readonly isOpen: boolean;
  close(): Promise<void>;
  destroy(): void;
}

/** Shows a Redis URL without its password. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable REDIS_URL)';
  }
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly prefix: string;
  private readonly client: Client;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private lastErrorLog = 0;
  private closed = false;

  private constructor(client: Client, options: RedisStoreOptions) {
    this.client = client;
    this.prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? ((line) => console.error(line));
  }

  /**
   * Creates the client and waits up to `connectWaitMs` (default 2 s) for Redis. When Redis is not
   * there yet the store is returned anyway: requests are counted in process until the client's reconnection
   * loop (backing off up to 2 s) reaches it.
   */
  static async connect(options: RedisStoreOptions): Promise<RedisRateLimitStore> {
    const client = createClient({
      url: options.url,
      // Fail fast while disconnected instead of queueing requests behind a dead connection.
      disableOfflineQueue: true,
      commandsQueueMaxLength: 10_000,
      socket: { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
    });
    const store = new RedisRateLimitStore(client, options);
    client.on('error', (err: unknown) => store.warn(`rate limit: Redis error: ${err instanceof Error ? err.message : String(err)}`));
    client.on('ready', () => store.log(`rate limit: Redis store ready at ${redactUrl(options.url)} (key prefix ${store.prefix})`));
    const connecting = client.connect().then(
      () => true,
      (err: unknown) => {
        store.warn(`rate limit: cannot connect to Redis at ${redactUrl(options.url)}: ${err instanceof Error ? err.message : String(err)}`);
        return false;
      },
    );
    const waitMs = options.connectWaitMs ?? 2000;
    let timer: NodeJS.Timeout | undefined;
    const ready = await Promise.race([connecting, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)))]);
    clearTimeout(timer);
    if (!ready) store.log(`rate limit: Redis at ${redactUrl(options.url)} is not reachable yet: requests are counted in this process until it is`);
    return store;
  }

  /** Logs a problem at most once a minute. */
  warn(line: string): void {
    const t = Date.now();
    if (t - this.lastErrorLog < WARN_EVERY_MS) return;
    this.lastErrorLog = t;
    this.log(line);
  }

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    if (this.closed) throw new RateLimitStoreUnavailable('the Redis store is closed');
    const redisKey = this.prefix + key;
    const window = String(windowMs);
    let reply: unknown;
    try {
      try {
        reply = await this.send(['EVALSHA', WINDOW_SCRIPT_SHA, '1', redisKey, window]);
      } catch (err) {
        if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
        // First use on this Redis (or after a restart): EVAL runs the script and caches it.
        reply = await this.send(['EVAL', WINDOW_SCRIPT, '1', redisKey, window]);
      }
    } catch (err) {
      throw new RateLimitStoreUnavailable(`Redis did not count the request: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    if (!Array.isArray(reply) || reply.length !== 2 || typeof reply[0] !== 'number' || typeof reply[1] !== 'number') {
      throw new RateLimitStoreUnavailable(`unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
    }
    return { count: reply[0], resetAt: this.now() + Math.max(0, reply[1]) };
  }

  /**
   * Sends one command and waits at most `timeoutMs` for its answer. The client's own command
   * timeout only covers the wait to be written, not the wait for the reply of a hung server.
   */
  private send(args: string[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      this.client.sendCommand(args, { timeout: this.timeoutMs }).then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.client.isOpen) return;
    // A graceful close waits for pending replies; a hung Redis would hold shutdown up, so 1 s at most.
    let timer: NodeJS.Timeout | undefined;
    const gave = await Promise.race([
      this.client.close().then(
        () => false,
        () => true,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), 1000))),
    ]);
    clearTimeout(timer);
    if (gave) this.client.destroy();
  }
}

export interface FallbackOptions extends RateLimiterOptions {
  /** Counts requests while the store cannot (the in-process limiter, same limit and window). */
  fallback: RateLimiter;
  log?: (line: string) => void;
  /** After a failure, how long requests go straight to the fallback before Redis is probed again. */
  retryMs?: number;
}

/** At most one "still unavailable" line per this many ms. */
export const FALLBACK_LOG_EVERY_MS = 60_000;
export const FALLBACK_RETRY_MS = 1000;

/**
 * A rate limiter over a shared store that may fail: while the store cannot count (an error, a
 * timeout, an unexpected reply), requests are counted by `fallback` in this process, so the limit
 * still holds per instance instead of failing open. After a failure the store is left alone for
 * `retryMs`; then one request probes it while the others keep using the fallback, and counting
 * returns to the store as soon as it answers.
 */
export class FallbackRateLimiter extends RateLimiter {
  private readonly fallback: RateLimiter;
  private readonly log: (line: string) => void;
  private readonly retryMs: number;
  private failing = false;
  private probing = false;
  private retryAt = 0;
  private counted = 0;
  private lastLog = Number.NEGATIVE_INFINITY;

  constructor(options: FallbackOptions) {
    super(options);
    this.fallback = options.fallback;
    this.log = options.log ?? ((line) => console.error(line));
    this.retryMs = options.retryMs ?? FALLBACK_RETRY_MS;
  }

  /** True while requests are counted in process. */
  get degraded(): boolean {
    return this.failing;
  }

  override hit(key: string): RateLimitDecision | Promise<RateLimitDecision> {
    if (this.failing && (this.probing || this.now() < this.retryAt)) return this.local(key);
    if (this.failing) this.probing = true;
    let counted: RateLimitDecision | Promise<RateLimitDecision>;
    try {
      counted = super.hit(key);
    } catch (err) {
      return this.fellBack(key, err);
    }
    if (!(counted instanceof Promise)) return this.recovered(counted);
    return counted.then(
      (d) => this.recovered(d),
      (err: unknown) => this.fellBack(key, err),
    );
  }

  private local(key: string): RateLimitDecision | Promise<RateLimitDecision> {
    this.counted++;
    return this.fallback.hit(key);
  }

  private recovered(decision: RateLimitDecision): RateLimitDecision {
    this.probing = false;
    if (this.failing) {
      this.failing = false;
      this.log(`rate limit: store answering again; counting there resumed (${this.counted} request(s) were counted in this process meanwhile)`);
      this.counted = 0;
      this.lastLog = Number.NEGATIVE_INFINITY;
    }
    return decision;
  }

  private fellBack(key: string, err: unknown): RateLimitDecision | Promise<RateLimitDecision> {
    this.probing = false;
    this.failing = true;
    const t = this.now();
    this.retryAt = t + this.retryMs;
    if (t - this.lastLog >= FALLBACK_LOG_EVERY_MS) {
      this.lastLog = t;
      this.log(
        `rate limit: WARNING store unavailable, counting in this process until it answers (${this.counted} request(s) so far): ` +
          `${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return this.local(key);
  }
}
