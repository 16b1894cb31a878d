// Public body of the 429 answer sent when a client exceeds its request budget.
import { z } from 'zod';

export const RATE_LIMITED_MESSAGE = 'rate limit exceeded';

/** The public budget: requests per client address and 24-hour window (public-api.md, Limits). */
export const PUBLIC_RATE_LIMIT = 1000;

export const RateLimitedBodySchema = z.strictObject({
  statusCode: z.literal(429),
  statusMessage: z.literal(RATE_LIMITED_MESSAGE),
  limit: z.int().min(1),
  remaining: z.literal(0),
  /** Unix time in seconds at which the client's window ends. */
  reset: z.int(),
});
export type RateLimitedBody = z.output<typeof RateLimitedBodySchema>;
