// The building blocks of the OpenAPI document's operations: component references, the headers of a
// cached answer and of a counted one, JSON answers and JSON errors.
import type { RouteOperation, RoutePolicy } from '../routes/routes.ts';
import type { Json } from './components.ts';

/** A reference to a component (`schemas` unless `kind` says otherwise). */
export const ref = (name: string, kind = 'schemas'): Json => ({ $ref: `#/components/${kind}/${name}` });

/** The rate-limit headers of a counted answer. */
export const RATE_HEADERS: Json = {
  'X-RateLimit-Limit': ref('X-RateLimit-Limit', 'headers'),
  'X-RateLimit-Remaining': ref('X-RateLimit-Remaining', 'headers'),
  'X-RateLimit-Reset': ref('X-RateLimit-Reset', 'headers'),
  RateLimit: ref('RateLimit', 'headers'),
  'RateLimit-Policy': ref('RateLimit-Policy', 'headers'),
};

/** The headers of every cacheable answer. */
export const CACHE_HEADERS: Json = {
  'Cache-Control': ref('Cache-Control', 'headers'),
  ETag: ref('ETag', 'headers'),
  'Access-Control-Allow-Origin': ref('Access-Control-Allow-Origin', 'headers'),
};

/** The headers of a 200 of `policy`'s family: the cache headers, and the rate-limit headers when it is counted. */
export function okHeaders(policy: RoutePolicy, more: Json = {}): Json {
  return { ...CACHE_HEADERS, ...more, ...(policy.rateLimited ? RATE_HEADERS : {}) };
}

/** A JSON 200 of `policy`'s family, its schema a component name or a schema. */
export function jsonOk(policy: RoutePolicy, description: string, schema: string | Json): Json {
  return { description, headers: okHeaders(policy), content: { 'application/json': { schema: typeof schema === 'string' ? ref(schema) : schema } } };
}

/** A 200 response that may also be CSV (`format=csv`). */
export function withCsv(response: Json): Json {
  return { ...response, content: { ...(response.content as Json), 'text/csv': { schema: { type: 'string' } } } };
}

/** A JSON error answer (an ErrorBody) with its example. */
export function jsonError(description: string, example: unknown, headers?: Json): Json {
  return { description, ...(headers === undefined ? {} : { headers }), content: { 'application/json': { schema: ref('ErrorBody'), example } } };
}

/**
 * What the document says of one operation, given its family's policy and its entry in the route
 * table: all but its id, budget and path parameters (src/openapi/document.ts adds those from the table).
 */
export type OperationSpec = (policy: RoutePolicy, op: RouteOperation) => Json;
