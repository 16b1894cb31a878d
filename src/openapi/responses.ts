// The answers every route of the OpenAPI document can give besides its own (src/server/app.ts,
// connections.ts, mcp-http.ts): refused requests, bounds and load shedding, each with its body schema.

import { paths } from '../routes/paths.ts';
import { INVALID_API_KEY } from '../schemas/api-keys.ts';
import type { Json } from './components.ts';
import { jsonError, ref } from './shapes.ts';

/** The shared responses (components.responses), by name. */
export const SHARED_RESPONSES: Record<string, Json> = {
  MergedSlug: {
    description: `The slug was merged into the record of the same game (a studio's record into its publisher's: GET ${paths.removed} names it in \`merged_into\`, with the reason): \`Location\` is the same URL for the surviving slug. Cached 1 hour.`,
    headers: { Location: ref('Location', 'headers'), 'Cache-Control': ref('Cache-Control', 'headers') },
    content: {
      'application/json': {
        schema: ref('ErrorBody'),
        example: {
          statusCode: 301,
          statusMessage: `moved permanently: big-bass-splash-reel-kingdom was merged into big-bass-splash, the record of the same game (GET ${paths.removed} says why)`,
        },
      },
    },
  },
  NotModified: { description: 'The `If-None-Match` validator matches: no body.' },
  BadRequest: jsonError('A request Node cannot parse, or an HTTP/1.1 request without a `Host` header (the connection is closed).', {
    statusCode: 400,
    statusMessage: 'bad request: HTTP/1.1 requests must carry a Host header',
  }),
  Unauthorized: jsonError(
    'An API key was presented (`Authorization: Bearer` or `X-API-Key`) that is unknown, revoked or malformed: never a silent downgrade to the keyless budget. Counted against the address budget.',
    INVALID_API_KEY,
    { 'WWW-Authenticate': ref('WWW-Authenticate', 'headers') },
  ),
  MethodNotAllowed: jsonError(
    `A method other than GET, HEAD and OPTIONS (POST and OPTIONS on ${paths.mcp}).`,
    { statusCode: 405, statusMessage: 'method not allowed' },
    { Allow: ref('Allow', 'headers') },
  ),
  RequestTimeout: jsonError(
    "The request head (or a body) did not arrive within the server's timeout (`HEADERS_TIMEOUT_MS`, `REQUEST_TIMEOUT_MS`); the connection is closed.",
    { statusCode: 408, statusMessage: 'request timeout' },
  ),
  UriTooLong: jsonError('A path past 1,024 bytes, or a query string past 2,048 bytes (14,336 for a batch lookup), refused before it is read.', {
    statusCode: 414,
    statusMessage: 'query string too long: at most 2048 bytes',
  }),
  ExpectationFailed: jsonError('An `Expect` header other than `100-continue`; the connection is closed.', {
    statusCode: 417,
    statusMessage: 'expectation failed: the only Expect this server meets is 100-continue',
  }),
  HeaderFieldsTooLarge: jsonError('A request head past 16 KiB; the connection is closed.', {
    statusCode: 431,
    statusMessage: 'request header fields too large',
  }),
  ServerBusy: jsonError(
    'Too many answers wait for their clients to read them (past `MAX_UNSENT_MB`): new requests are shed until they drain.',
    { statusCode: 503, statusMessage: 'server busy: too many answers wait for their clients to read them; retry after 1 s' },
    { 'Retry-After': ref('Retry-After', 'headers') },
  ),
};

/**
 * The responses every GET operation carries besides its own: 304, and the refusals any request may
 * get. `429` on a route the rate limiter exempts comes only for a request refused before routing
 * (a bad key, an undecodable path) once the address budget is spent.
 */
export function sharedResponses(): Json {
  return {
    '304': ref('NotModified', 'responses'),
    '400': ref('BadRequest', 'responses'),
    '401': ref('Unauthorized', 'responses'),
    '405': ref('MethodNotAllowed', 'responses'),
    '408': ref('RequestTimeout', 'responses'),
    '414': ref('UriTooLong', 'responses'),
    '417': ref('ExpectationFailed', 'responses'),
    '429': ref('RateLimited', 'responses'),
    '431': ref('HeaderFieldsTooLarge', 'responses'),
    '503': ref('ServerBusy', 'responses'),
  };
}

/** The answer of a route keyed by a game's slug to a slug merged into another record (src/list/moved.ts). */
export const MOVED_RESPONSE: Json = { '301': ref('MergedSlug', 'responses') };

/** Headers of the shared responses (components.headers). */
export const SHARED_HEADERS: Record<string, Json> = {
  Location: { description: 'The same URL for the slug the game was merged into.', schema: { type: 'string' } },
  'WWW-Authenticate': { description: 'RFC 6750 challenge: `Bearer realm="rtp-registry", error="invalid_token"`.', schema: { type: 'string' } },
  Allow: { description: 'The methods the path answers.', schema: { type: 'string' } },
};

/** A GET operation: its own texts, query parameters and answers, after the answers every route can give. */
export function getOperation(op: { summary: string; description: string; tags: string[]; parameters?: Json[]; responses: Json }): Json {
  return {
    summary: op.summary,
    description: op.description,
    tags: op.tags,
    ...(op.parameters === undefined ? {} : { parameters: op.parameters }),
    responses: { ...sharedResponses(), ...op.responses },
  };
}
