// Per-client request budget: a fixed window (default 1,000 requests per 24 hours) over every
// counted route family (src/routes/routes.ts POLICIES[f].rateLimited), with the response headers below.
//
// Headers on every counted response:
//   X-RateLimit-Limit / X-RateLimit-Remaining / X-RateLimit-Reset (Unix seconds)  public-api.md, Limits
//   RateLimit-Policy: "default";q=<limit>;w=<window seconds>
//   RateLimit: "default";r=<remaining>;t=<seconds until reset>
// The last two follow the IETF draft "RateLimit header fields for HTTP"
// (draft-ietf-httpapi-ratelimit-headers-10, sections 3 and 4: a quoted policy name with
// q = quota, w = window; r = remaining quota, t = seconds until the quota resets).
import { PUBLIC_RATE_LIMIT, RATE_LIMITED_MESSAGE, type RateLimitedBody } from '../schemas/rate-limit.ts';
import type { RateLimitStore, WindowCount } from './rate-limit-store.ts';

export const DEFAULT_RATE_LIMIT = PUBLIC_RATE_LIMIT;
export const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;
export const POLICY_NAME = 'default';

/** The outcome of counting one request. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window ends. */
  reset: number;
  /** Whole seconds until then (at least 1 while the window is open). */
  retryAfter: number;
  /** The headers to send, name/value pairs in a fixed order. */
  headers: string[];
}

export interface RateLimiterOptions {
  store: RateLimitStore;
  limit?: number;
  windowMs?: number;
  /** The clock (epoch ms); defaults to Date.now, which vi.useFakeTimers controls. */
  now?: () => number;
}

export class RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly store: RateLimitStore;
  protected readonly now: () => number;
  private readonly policy: string;

  constructor(options: RateLimiterOptions) {
    this.store = options.store;
    this.limit = options.limit ?? DEFAULT_RATE_LIMIT;
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.now = options.now ?? (() => Date.now());
    this.policy = `"${POLICY_NAME}";q=${this.limit};w=${Math.ceil(this.windowMs / 1000)}`;
  }

  /** Counts one request of `key`; synchronous when the store is. */
  hit(key: string): RateLimitDecision | Promise<RateLimitDecision> {
    const counted = this.store.increment(key, this.windowMs);
    return counted instanceof Promise ? counted.then((c) => this.decide(c)) : this.decide(counted);
  }

  private decide({ count, resetAt }: WindowCount): RateLimitDecision {
    const remaining = Math.max(0, this.limit - count);
    const reset = Math.ceil(resetAt / 1000);
    const retryAfter = Math.max(1, Math.ceil((resetAt - this.now()) / 1000));
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining,
      reset,
      retryAfter,
      headers: [
        'X-RateLimit-Limit',
        String(this.limit),
        'X-RateLimit-Remaining',
        String(remaining),
        'X-RateLimit-Reset',
        String(reset),
        'RateLimit-Policy',
        this.policy,
        'RateLimit',
        `"${POLICY_NAME}";r=${remaining};t=${retryAfter}`,
      ],
    };
  }

  close(): void | Promise<void> {
    return this.store.close();
  }
}

/** The JSON body of the 429 answer. */
export function rateLimitedBody(decision: RateLimitDecision): RateLimitedBody {
  return { statusCode: 429, statusMessage: RATE_LIMITED_MESSAGE, limit: decision.limit, remaining: 0, reset: decision.reset };
}
