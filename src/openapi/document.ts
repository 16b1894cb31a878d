// The OpenAPI 3.1 document of the public API. Its paths are the route table's (src/routes/routes.ts:
// each family's operations, their path templates, the family's method and budget); what each
// operation says is in operations.ts, downloads.ts and mcp.ts; the schemas are the public zod
// schemas (zod 4's JSON Schema output, draft 2020-12 as OpenAPI 3.1 uses). Pure: same code, same document.
import { KEY_SEGMENT, type RouteFamily } from '../routes/paths.ts';
import { type OperationId, POLICIES, type RouteOperation, type RoutePolicy } from '../routes/routes.ts';
import { RATE_LIMITED_MESSAGE } from '../schemas/rate-limit.ts';
import { componentSchemas, type Json } from './components.ts';
import { DOWNLOAD_OPERATIONS } from './downloads.ts';
import { mcpOperation } from './mcp.ts';
import { REGISTRY_OPERATIONS } from './operations.ts';
import { SHARED_HEADERS, SHARED_RESPONSES } from './responses.ts';
import { type OperationSpec, RATE_HEADERS, ref } from './shapes.ts';

/** Version of the API contract (V1, no key); bumped with docs/CHANGELOG-API.md. */
export const API_VERSION = '2.1.0';

/** What the document says of each operation the route table names. */
export const OPERATION_SPECS: Record<OperationId, OperationSpec> = { ...REGISTRY_OPERATIONS, ...DOWNLOAD_OPERATIONS, mcp: mcpOperation };

const KEY = { type: 'string', pattern: `^${KEY_SEGMENT.slice(1, -1)}$` };

/** The path parameters (components.parameters), by the name the route table's path templates give them. */
export const PATH_PARAMETERS: Record<string, Json> = {
  slug: { name: 'slug', in: 'path', required: true, description: 'Canonical slug of a game.', schema: KEY, example: 'book-of-dead' },
  provider: { name: 'provider', in: 'path', required: true, description: 'Provider key.', schema: KEY, example: 'playngo' },
  operator: { name: 'operator', in: 'path', required: true, description: 'Operator key (a licensed casino).', schema: KEY, example: '711nl' },
  data_version: {
    name: 'data_version',
    in: 'path',
    required: true,
    description: 'A frozen data version (as in meta.data_version).',
    schema: { type: 'string', pattern: '^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$' },
    example: '1.1.0',
  },
};

/** The parameters a path template names (`{slug}`), as references, in their order. */
function pathParameters(template: string): Json[] {
  return [...template.matchAll(/\{([^}]*)\}/g)].map(([, name]) => {
    if (PATH_PARAMETERS[name!] === undefined)
      throw new Error(`OpenAPI: ${template} names the parameter {${name}}, which src/openapi/document.ts does not describe`);
    return ref(name!, 'parameters');
  });
}

/** The path item of one operation of the table: its family's first method, its spec, the family's budget. */
function pathItem(policy: RoutePolicy, op: RouteOperation): Json {
  const { summary, description, tags, parameters = [], ...rest } = OPERATION_SPECS[op.id](policy, op);
  const all = [...pathParameters(op.path), ...(parameters as Json[])];
  return {
    [policy.methods[0]!.toLowerCase()]: {
      operationId: op.id,
      summary,
      description,
      tags,
      ...(all.length === 0 ? {} : { parameters: all }),
      ...rest,
      'x-rate-limited': policy.rateLimited,
    },
  };
}

/** The document's paths: every operation of the route table `policies`, in its order. Throws on a path named twice. */
export function documentPaths(policies: Readonly<Record<RouteFamily, RoutePolicy>> = POLICIES): Json {
  const out: Json = {};
  for (const policy of Object.values(policies)) {
    for (const op of policy.operations) {
      if (op.path in out) throw new Error(`OpenAPI: the route table names ${op.path} twice`);
      out[op.path] = pathItem(policy, op);
    }
  }
  return out;
}

/** The OpenAPI 3.1 document of the whole public API, from the route table `policies`. */
export function openApiDocument(policies: Readonly<Record<RouteFamily, RoutePolicy>> = POLICIES): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'RTP Registry API',
      version: API_VERSION,
      summary: 'Read-only JSON API and embeddable widget over provider-stated RTP of casino games.',
      description:
        'A public, read-only registry of casino games with their provider-stated RTP, known RTP variants, provider and a source URL to cite. ' +
        'Stated RTP is the theoretical figure the provider declares for its highest default build, not a live or measured return. ' +
        'No authentication. CORS is open (`Access-Control-Allow-Origin: *`). Rate-limited routes (`x-rate-limited: true`) allow 1,000 requests per 24 hours per IP address; ' +
        'the others (`x-rate-limited: false`: the provider, history, widget data, badge, feed and bulk routes among them) are exempt. ' +
        'Every response carries an `ETag`; send it back in `If-None-Match` to get `304 Not Modified`. ' +
        'Paths carry no version; the dataset version is `data_version` (dotted three-part). Data licence: CC BY 4.0, attribution required.',
      license: { name: 'CC BY 4.0 (data)', url: 'https://creativecommons.org/licenses/by/4.0/' },
    },
    servers: [{ url: '/', description: 'The registry serving this document' }],
    tags: [
      { name: 'registry', description: 'Search and single-game records.' },
      { name: 'widget', description: 'Embeddable widget and its data.' },
      { name: 'meta', description: 'This document.' },
    ],
    paths: documentPaths(policies),
    components: {
      schemas: componentSchemas(),
      parameters: PATH_PARAMETERS,
      headers: {
        'X-RateLimit-Limit': { description: 'Requests allowed per 24-hour window (1000).', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'Unix time in seconds at which the window resets.', schema: { type: 'integer' } },
        RateLimit: { description: 'The same, in the IETF RateLimit header fields draft form.', schema: { type: 'string' } },
        'RateLimit-Policy': { description: 'The quota policy, in the IETF RateLimit header fields draft form.', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
        'Cache-Control': {
          description: 'List: `public, max-age=0, s-maxage=300` (5 minutes at the edge). Single slot, widget, widget data, provider: 1 hour.',
          schema: { type: 'string' },
        },
        ETag: { description: 'Strong validator of the body; send it in `If-None-Match` to get 304.', schema: { type: 'string' } },
        'Access-Control-Allow-Origin': { description: 'Always `*`.', schema: { type: 'string', const: '*' } },
        'Content-Security-Policy': { description: "The widget's policy: only its own inline style and script.", schema: { type: 'string' } },
        ...SHARED_HEADERS,
      },
      responses: {
        ...SHARED_RESPONSES,
        RateLimited: {
          description: 'Over the budget of 1,000 requests per 24 hours for this IP address.',
          headers: { 'Retry-After': ref('Retry-After', 'headers'), ...RATE_HEADERS },
          content: {
            'application/json': {
              schema: ref('RateLimitedBody'),
              example: { statusCode: 429, statusMessage: RATE_LIMITED_MESSAGE, limit: 1000, remaining: 0, reset: 1795305600 },
            },
          },
        },
      },
    },
  };
}

/** The document as served: JSON with two-space indentation and a final newline. */
export function openApiJson(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
