// Public error bodies shared by every JSON route.
import { z } from 'zod';

export const ErrorBodySchema = z.strictObject({
  statusCode: z.int(),
  statusMessage: z.string(),
  errors: z.array(z.strictObject({ param: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.output<typeof ErrorBodySchema>;

/** The spec's fixed 404 body for an unknown slug (public-api.md, Errors). */
export const SLOT_NOT_FOUND: ErrorBody = { statusCode: 404, statusMessage: 'slot not found in registry' };

/** The 404 body of an unknown path under the API outside the slots' prefix. */
export const ROUTE_NOT_FOUND: ErrorBody = { statusCode: 404, statusMessage: 'route not found' };
