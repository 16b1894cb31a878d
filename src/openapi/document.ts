// The OpenAPI 3.1 document of the public API, generated from the public zod schemas (zod 4's
// JSON Schema output, draft 2020-12 as OpenAPI 3.1 uses). Pure: same code, same document.
//
// Describes: GET /api/rtp/list, /api/rtp/history, /api/rtp/identify, /api/oembed, /api/rtp/{slug}, /api/rtp/provider/{provider},
// /api/widget/rtp/{slug}, /widget/rtp/{slug}, /api/badge/rtp/{slug}.svg, /api/openapi.json (served as /api/openapi.json),
// /api/rtp/dump/{registry.json,registry.csv,registry.ndjson,datapackage.json}, /api/rtp/dump/changes/{data_version}.json,
// POST /mcp, /api/rtp/removed, /llms.txt, /api/feeds/rtp.atom, /api/feeds/provider/{provider}.atom, /api/feeds/game/{slug}.atom.
import { WIDGET_LANGS } from '../routes/widget-i18n.ts';
import { SLOT_NOT_FOUND } from '../schemas/errors.ts';
import { HistoryQuerySchema } from '../schemas/history.ts';
import { IDENTIFY_TOLERANCE } from '../schemas/identify.ts';
import { OEMBED_FORMAT, OEMBED_HEIGHT, OEMBED_MIN_WIDTH, OEMBED_NOT_FOUND, OEMBED_WIDTH } from '../schemas/oembed.ts';
import { RATE_LIMITED_MESSAGE } from '../schemas/rate-limit.ts';
import { componentSchemas, paramSchema, queryParam, type ComponentName, type Json } from './components.ts';
import { listParameters } from './list-params.ts';
import { MOVED_RESPONSE, SHARED_HEADERS, SHARED_RESPONSES, sharedResponses } from './responses.ts';

/** The server's 404 body for unknown paths under /api/ outside /api/rtp/ (src/server/app.ts). */
const ROUTE_NOT_FOUND = { statusCode: 404, statusMessage: 'route not found' };

/** Version of the API contract (V1, no key); bumped with docs/CHANGELOG-API.md. */
export const API_VERSION = '1.6.0';

const ref = (name: ComponentName | string, kind = 'schemas') => ({ $ref: `#/components/${kind}/${name}` });


const RATE_HEADERS = {
  'X-RateLimit-Limit': ref('X-RateLimit-Limit', 'headers'),
  'X-RateLimit-Remaining': ref('X-RateLimit-Remaining', 'headers'),
  'X-RateLimit-Reset': ref('X-RateLimit-Reset', 'headers'),
  RateLimit: ref('RateLimit', 'headers'),
  'RateLimit-Policy': ref('RateLimit-Policy', 'headers'),
};
const CACHE_HEADERS = {
  'Cache-Control': ref('Cache-Control', 'headers'),
  ETag: ref('ETag', 'headers'),
  'Access-Control-Allow-Origin': ref('Access-Control-Allow-Origin', 'headers'),
};

function jsonOk(description: string, schema: ComponentName | Json, limited: boolean): Json {
  return {
    description,
    headers: { ...CACHE_HEADERS, ...(limited ? RATE_HEADERS : {}) },
    content: { 'application/json': { schema: typeof schema === 'string' ? ref(schema) : schema } },
  };
}

/** A 200 response that may also be CSV (`format=csv`). */
function withCsv(response: Json): Json {
  return { ...response, content: { ...(response.content as Json), 'text/csv': { schema: { type: 'string' } } } };
}

function jsonError(description: string, example: unknown): Json {
  return { description, content: { 'application/json': { schema: ref('ErrorBody'), example } } };
}

function operation(op: { id: string; summary: string; description: string; tags: string[]; limited: boolean; parameters?: Json[]; responses: Json }): Json {
  const responses: Json = { ...sharedResponses(), ...op.responses };
  return {
    get: {
      operationId: op.id,
      summary: op.summary,
      description: op.description,
      tags: op.tags,
      ...(op.parameters ? { parameters: op.parameters } : {}),
      responses,
      'x-rate-limited': op.limited,
    },
  };
}

/** A static bulk download: not rate limited, cached 1 hour, with an ETag. */
function download(id: string, summary: string, description: string, type: string, schema: Json, parameters?: Json[], more: Json = {}): Json {
  return operation({
    id,
    summary,
    description: `${description} Written by the build for each data version; not rate limited; cached 1 hour.`,
    tags: ['bulk'],
    limited: false,
    ...(parameters === undefined ? {} : { parameters }),
    responses: {
      '200': { description: summary, headers: CACHE_HEADERS, content: { [type]: { schema } } },
      // A fixed path is always there; a path with a parameter may name nothing.
      ...(parameters === undefined ? {} : { '404': jsonError('No such file (the answer of every unknown path under /api/rtp/ and /api/).', SLOT_NOT_FOUND) }),
      ...more,
    },
  });
}

/** The bulk downloads, release diffs and tombstones (src/emit/dumps.ts). */
function dumpOperations(): Json {
  return {
    '/api/rtp/dump/registry.json': download('getRegistryDump', 'Every game record, as one JSON document', 'All public game records with their sources, by slug, and the meta with the licence.', 'application/json', ref('RegistryDump')),
    '/api/rtp/dump/registry.ndjson': download('getRegistryNdjson', 'Every game record, one JSON object per line', 'The records of registry.json as newline-delimited JSON (each line a GameRecord).', 'application/x-ndjson', { type: 'string' }),
    '/api/rtp/dump/registry.csv': download(
      'getRegistryCsv',
      'Every game, one CSV row each',
      'RFC 4180 with a header row, CRLF line ends and a UTF-8 byte order mark (so spreadsheets read it as UTF-8); lists (variants, badges, source URLs) are joined with `;`. The columns and their types are in datapackage.json.',
      'text/csv',
      { type: 'string' },
    ),
    '/api/rtp/dump/datapackage.json': download('getDataPackage', 'The Frictionless Data Package of the dumps', 'Describes registry.csv, registry.json and registry.ndjson: version (the data version), licence (CC-BY-4.0 with the attribution), and per resource its path, media type, size in bytes, `sha256:` hash and table schema.', 'application/json', ref('DataPackage')),
    '/api/rtp/dump/changes/{data_version}.json': download(
      'getReleaseChanges',
      'What one frozen data version changed',
      'Games added (with their figures), removed (with their last figures) and changed (old and new value per field) by this version, from the history log; `previous_version` names the version before it. A mirror applies these in order instead of downloading everything again.',
      'application/json',
      ref('ReleaseChanges'),
      [{ name: 'data_version', in: 'path', required: true, description: 'A frozen data version (as in meta.data_version).', schema: { type: 'string', pattern: '^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$' }, example: '1.1.0' }],
    ),
    '/api/feeds/rtp.atom': download('getRegistryFeed', 'Atom feed of RTP changes', 'RFC 4287: the newest 100 changes and additions of provider-stated RTP figures across the registry, newest first; each entry links the game\'s page and cites its source.', 'application/atom+xml', { type: 'string' }),
    '/api/feeds/provider/{provider}.atom': download(
      'getProviderFeed',
      "Atom feed of one provider's RTP changes",
      "The newest 100 changes and additions of the provider's games.",
      'application/atom+xml',
      { type: 'string' },
      [{ name: 'provider', in: 'path', required: true, description: 'Provider key.', schema: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }, example: 'playngo' }],
    ),
    '/api/feeds/game/{slug}.atom': download('getGameFeed', "Atom feed of one game's RTP changes", 'Every recorded change of the game, newest first.', 'application/atom+xml', { type: 'string' }, [ref('slug', 'parameters')], MOVED_RESPONSE),
    '/llms.txt': download('getLlmsTxt', "The registry's summary for assistants", 'Markdown after the llms.txt proposal (https://llmstxt.org): what the registry is, its routes and bulk files, the licence and how to cite.', 'text/plain', { type: 'string' }),
    '/api/rtp/removed': download('getRemoved', 'Games removed from the registry', 'Tombstones: each game removed by a freeze and not added back, with the version that removed it and its last stated RTP, so a mirror can delete exactly those.', 'application/json', ref('RemovedResponse')),
  };
}

/** POST /mcp: the MCP server over streamable HTTP (src/server/mcp-http.ts). */
function mcpOperation(): Json {
  const rpcSchema = {
    type: 'object',
    required: ['jsonrpc', 'error', 'id'],
    properties: { jsonrpc: { const: '2.0' }, error: { type: 'object', required: ['code', 'message'] }, id: { type: ['string', 'number', 'null'] } },
  };
  const { '304': _notModified, ...neverCached } = sharedResponses();
  // Refused before the MCP handler (a missing Host, a request Node cannot parse or a slow head,
  // load shed): the server's JSON error body instead of a JSON-RPC one.
  const rpcError = (description: string, server = false, headers?: Json) => ({
    description,
    ...(headers === undefined ? {} : { headers }),
    content: { 'application/json': { schema: server ? { oneOf: [rpcSchema, ref('ErrorBody')] } : rpcSchema } },
  });
  return {
    post: {
      operationId: 'mcp',
      summary: 'The registry as an MCP server, for AI assistants',
      description:
        'Model Context Protocol over streamable HTTP, stateless and read-only: JSON-RPC 2.0 requests (`initialize`, `tools/list`, `tools/call`) answered as JSON. Tools: `search_games` (the list semantics), `get_game`, `identify_build`, `list_providers`, `registry_info`; every result carries `data_version`, the licence and, per game, `source_url`. ' +
        'Bodies up to 64 KiB. Rate limited like the list route; never cached. The same server runs over stdio with `npm run mcp`.',
      tags: ['mcp'],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 request or notification (MCP).' } } } },
      responses: {
        ...neverCached,
        '200': { description: 'The JSON-RPC response (an array for a batch).', headers: RATE_HEADERS, content: { 'application/json': { schema: { type: ['object', 'array'] } } } },
        '202': { description: 'A notification was accepted (no body).' },
        '400': rpcError('The body is not JSON (code -32700), not a valid MCP request or batch, or names an unsupported `MCP-Protocol-Version`; or the request has no `Host` header.', true),
        '405': jsonError('Only POST (and OPTIONS) are answered on /mcp.', { statusCode: 405, statusMessage: 'method not allowed' }),
        '406': rpcError('The `Accept` header does not allow `application/json` (code -32600).'),
        '408': rpcError('The body did not arrive within `BODY_TIMEOUT_MS` (code -32600), or the head within the server\'s timeout.', true),
        '413': rpcError('The body is larger than 64 KiB (code -32600).'),
        '415': rpcError('The `Content-Type` is not `application/json` (code -32600).'),
        '503': rpcError('Server busy (code -32002, `ERR_MCP_BUSY`): one MCP request at a time per connection, a bound on MCP requests in flight; or answers wait unread past `MAX_UNSENT_MB`.', true, { 'Retry-After': ref('Retry-After', 'headers') }),
      },
      'x-rate-limited': true,
    },
  };
}

/** The OpenAPI 3.1 document of the whole public API. */
export function openApiDocument(): Json {
  const hist = HistoryQuerySchema.shape;
  const slugParam = ref('slug', 'parameters');
  const invalidExample = { statusCode: 400, statusMessage: 'invalid query parameters', errors: [{ param: 'limit', message: 'must be an integer from 1 to 200' }] };

  return {
    openapi: '3.1.0',
    info: {
      title: 'RTP Registry API',
      version: API_VERSION,
      summary: 'Read-only JSON API and embeddable widget over provider-stated RTP of casino games.',
      description:
        'A public, read-only registry of casino games with their provider-stated RTP, known RTP variants, provider and a source URL to cite. ' +
        'Stated RTP is the theoretical figure the provider declares for its highest default build, not a live or measured return. ' +
        'No authentication. CORS is open (`Access-Control-Allow-Origin: *`). Rate-limited routes allow 1,000 requests per 24 hours per IP address; ' +
        '`/api/rtp/provider/{provider}`, `/api/rtp/history` and `/api/widget/rtp/{slug}` are exempt (`x-rate-limited: false`). ' +
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
    paths: {
      '/api/rtp/list': operation({
        id: 'listGames',
        summary: 'Search, filter, sort and page through the registry',
        description:
          'All parameters are optional and combinable. Unknown parameters are ignored; an empty value counts as absent. ' +
          'Each bad parameter (including a repeated one) is listed in a 400 answer; nothing is clamped. ' +
          'An unknown provider or a query without matches is a 200 with `filtered: 0`. Ordering is total (ties by slug), so paging never repeats or skips a record. Cached 5 minutes at the edge.',
        tags: ['registry'],
        limited: true,
        parameters: [
          ...listParameters(),
        ],
        responses: {
          '200': withCsv(jsonOk('A page of results with totals and facets; with `slugs`, the named records; with `updated_since`, the changed records; with `format=csv`, those records as CSV.', { oneOf: [ref('ListResponse'), ref('BatchResponse'), ref('SyncResponse')] }, true)),
          '400': jsonError('One or more query parameters are invalid.', invalidExample),
        },
      }),
      '/api/rtp/history': operation({
        id: 'listHistory',
        summary: 'Time series of RTP changes, newest first',
        description: 'Changes of stated RTP and variants between frozen data versions, from the history log. Not rate limited.',
        tags: ['registry'],
        limited: false,
        parameters: [
          queryParam('slug', 'Only this game.', paramSchema(hist.slug), 'book-of-dead'),
          queryParam('provider', 'Only games of this provider.', paramSchema(hist.provider)),
          queryParam('since', 'Only changes frozen at or after this time: an ISO 8601 date (midnight UTC) or timestamp with a time zone.', { type: 'string' }, '2026-01-01'),
          queryParam('limit', 'Page size.', { ...paramSchema(hist.limit), default: 50 }),
          queryParam('offset', 'Entries to skip.', { ...paramSchema(hist.offset), default: 0 }),
        ],
        responses: {
          '200': jsonOk('A page of history entries.', 'HistoryResponse', false),
          '400': jsonError('One or more query parameters are invalid.', { statusCode: 400, statusMessage: 'invalid query parameters', errors: [{ param: 'since', message: 'must be an ISO 8601 date (2026-01-31) or timestamp with a time zone (2026-01-31T12:00:00Z)' }] }),
        },
      }),
      '/api/rtp/{slug}': operation({
        id: 'getGame',
        summary: 'One game: the single-slot record',
        description: 'The public game record plus provider figures, derived fields, its RTP history, widget URL, embed code and citation. Cached 1 hour.',
        tags: ['registry'],
        limited: true,
        parameters: [slugParam],
        responses: {
          '200': jsonOk('The single-slot record.', 'SlotRecord', true),
          ...MOVED_RESPONSE,
          '404': jsonError('The slug is not in the registry (also with a trailing slash).', SLOT_NOT_FOUND),
        },
      }),
      '/api/rtp/provider/{provider}': operation({
        id: 'getProvider',
        summary: "A provider's figures and games",
        description: 'Provider meta, counts per game type, stated-RTP statistics and its games. Not rate limited. Cached 1 hour.',
        tags: ['registry'],
        limited: false,
        parameters: [{ name: 'provider', in: 'path', required: true, description: 'Provider key.', schema: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }, example: 'playngo' }],
        responses: {
          '200': jsonOk('The provider record.', 'ProviderRecord', false),
          '404': jsonError('The provider is not in the registry (the answer of every unknown path under /api/rtp/).', SLOT_NOT_FOUND),
        },
      }),
      '/api/widget/rtp/{slug}': operation({
        id: 'getWidgetData',
        summary: 'What the widget shows, as JSON',
        description: 'For sites that render their own widget. Not rate limited. Cached 1 hour.',
        tags: ['widget'],
        limited: false,
        parameters: [slugParam],
        responses: {
          '200': jsonOk('The widget data.', 'WidgetData', false),
          ...MOVED_RESPONSE,
          '404': jsonError('The slug is not in the registry (the answer of every unknown path under /api/ outside /api/rtp/).', ROUTE_NOT_FOUND),
        },
      }),
      '/widget/rtp/{slug}': operation({
        id: 'getWidget',
        summary: 'The embeddable HTML widget',
        description:
          'A self-contained HTML page for an iframe (width 100%, height 220, frameborder 0, loading lazy), with a short attribution link to the game\'s registry page. ' +
          'Options are applied in the browser; invalid values fall back to the defaults. No external requests; a Content-Security-Policy allows only its own inline style and script. Cached 1 hour.',
        tags: ['widget'],
        limited: true,
        parameters: [
          slugParam,
          queryParam('theme', '`dark` for the dark theme; anything else is light.', { type: 'string', enum: ['light', 'dark'], default: 'light' }, 'dark'),
          queryParam('border', 'Border colour: 3 or 6 hex digits with or without `#` (URL-encode `#` as `%23`), or `none` for no border.', { type: 'string', pattern: '^(none|#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6}))$' }, 'none'),
          queryParam('radius', 'Corner radius in CSS pixels.', { type: 'integer', minimum: 0, maximum: 32, default: 12 }, 0),
          queryParam(
            'lang',
            'Language of the labels, and number format of the figures (`96,21 %` in German). Applied in the browser from labels inside the page: no further request. Anything else is English.',
            { type: 'string', enum: [...WIDGET_LANGS], default: 'en' },
            'de',
          ),
          queryParam('v', 'Data version as a cache-busting hint; ignored by the widget, so older embeds keep working.', { type: 'string' }, '1.0.0'),
        ],
        responses: {
          '200': {
            description: 'The widget page.',
            headers: { ...CACHE_HEADERS, 'Content-Security-Policy': ref('Content-Security-Policy', 'headers'), ...RATE_HEADERS },
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          ...MOVED_RESPONSE,
          '404': { description: 'The slug is not in the registry (an HTML page).', content: { 'text/html': { schema: { type: 'string' } } } },
        },
      }),
      '/api/rtp/identify': operation({
        id: 'identifyBuild',
        summary: 'Which build of a game is an observed RTP figure?',
        description:
          `For a figure seen at a casino: is it the provider's stated default, a known variant (with its kind: operator rung, bonus buy, ante bet…) or unknown? A figure within ${IDENTIFY_TOLERANCE} percentage points of a known one is that one. ` +
          'The nearest known figures come with their difference and the sources that state them. Give `slug`, or `name` to pick the game by search (the answer says which it chose, and the next candidates). Rate limited like the list route; cached 5 minutes at the edge.',
        tags: ['registry'],
        limited: true,
        parameters: [
          queryParam('slug', 'Canonical slug of the game.', { type: 'string', maxLength: 200 }, 'book-of-dead'),
          queryParam('name', 'The game\'s name, instead of `slug`: the best search match is used.', { type: 'string', maxLength: 200 }, 'Book of Dead'),
          { ...queryParam('rtp', 'The observed RTP in percent: `96.21`, `96,21` or `96.21%`, above 0 and at most 100, up to 4 decimals.', { type: 'string', pattern: '^[0-9]{1,3}([.,][0-9]{1,4})?%?$' }, '94.25'), required: true },
        ],
        responses: {
          '200': jsonOk('The game, the verdict, the matching figure and the nearest ones.', 'IdentifyResponse', true),
          '400': jsonError('A parameter is missing or invalid.', { statusCode: 400, statusMessage: 'invalid query parameters', errors: [{ param: 'rtp', message: 'must be a percentage above 0 and at most 100, such as 96.21' }] }),
          '404': jsonError('No such slug, or no game matches the name.', SLOT_NOT_FOUND),
        },
      }),
      '/api/oembed': operation({
        id: 'getOembed',
        summary: 'oEmbed: the widget for a game page or widget URL',
        description:
          'An oEmbed 1.0 provider (https://oembed.com/) for link previews in editors and chat apps: for the URL of a game page (`{site}/rtp/{slug}`) or widget (`{site}/widget/rtp/{slug}`, whose `theme`, `border`, `radius` and `lang` carry over) of this registry, a `rich` answer whose `html` is the widget iframe, ' +
          `${OEMBED_WIDTH} px wide (or \`maxwidth\`, at least ${OEMBED_MIN_WIDTH}) and ${OEMBED_HEIGHT} px high. As the spec has it: 404 for any other URL or a size the widget cannot fit, 501 for a format other than json. Game pages and widgets name it in a \`<link rel="alternate" type="application/json+oembed">\`. Not rate limited; cached 1 hour.`,
        tags: ['widget'],
        limited: false,
        parameters: [
          { ...queryParam('url', 'The URL of a game page or widget of this registry.', { type: 'string', maxLength: 1024 }, 'http://127.0.0.1:4321/rtp/book-of-dead'), required: true },
          queryParam('format', 'Only `json` (the default) is implemented; anything else is a 501.', { type: 'string', default: 'json' }, 'json'),
          queryParam('maxwidth', 'Widest the consumer can show, in pixels.', { type: 'integer', minimum: 1, maximum: 100000 }, 400),
          queryParam('maxheight', 'Highest the consumer can show, in pixels.', { type: 'integer', minimum: 1, maximum: 100000 }, 300),
        ],
        responses: {
          '200': jsonOk('The oEmbed answer.', 'OembedResponse', false),
          '400': jsonError('`url` is missing, or a size is not a whole number of pixels.', { statusCode: 400, statusMessage: 'invalid query parameters', errors: [{ param: 'url', message: 'is required: the URL of a game page or widget of this registry' }] }),
          '404': jsonError('The URL is no game page or widget of this registry, or the widget cannot fit the size asked for.', OEMBED_NOT_FOUND),
          '501': jsonError('A format other than json.', OEMBED_FORMAT),
        },
      }),
      ...dumpOperations(),
      '/mcp': mcpOperation(),
      '/api/badge/rtp/{slug}.svg': operation({
        id: 'getBadge',
        summary: "A game's RTP badge",
        description: 'A small SVG ("RTP | 96.21%", the provider-stated figure with two decimals) for forum posts and READMEs, with a `<title>` naming the game. Static; not rate limited; cached 1 hour.',
        tags: ['widget'],
        limited: false,
        parameters: [slugParam],
        responses: {
          '200': { description: 'The badge.', headers: CACHE_HEADERS, content: { 'image/svg+xml': { schema: { type: 'string' } } } },
          ...MOVED_RESPONSE,
          '404': jsonError('The slug is not in the registry (the answer of every unknown path under /api/ outside /api/rtp/).', ROUTE_NOT_FOUND),
        },
      }),
      '/api/og/rtp/{slug}.png': operation({
        id: 'getOgImage',
        summary: "A game's link-preview card",
        description: "The game's card for link previews (its page's `og:image` and `twitter:image`): a 1200 × 630 PNG with the game's name, its provider, the stated RTP, the data version and the RTP ladder. Drawn by the server on first request, then kept; not rate limited; cached 1 hour.",
        tags: ['widget'],
        limited: false,
        parameters: [slugParam],
        responses: {
          '200': { description: 'The card.', headers: CACHE_HEADERS, content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } } },
          ...MOVED_RESPONSE,
          '404': jsonError('The slug is not in the registry.', SLOT_NOT_FOUND),
        },
      }),
      '/api/openapi.json': operation({
        id: 'getOpenApi',
        summary: 'This document',
        description: 'The OpenAPI 3.1 document of the API. Cached 1 hour.',
        tags: ['meta'],
        limited: true,
        responses: { '200': jsonOk('The OpenAPI document.', { type: 'object' }, true) },
      }),
    },
    components: {
      schemas: componentSchemas(),
      parameters: {
        slug: { name: 'slug', in: 'path', required: true, description: 'Canonical slug of a game.', schema: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }, example: 'book-of-dead' },
      },
      headers: {
        'X-RateLimit-Limit': { description: 'Requests allowed per 24-hour window (1000).', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'Unix time in seconds at which the window resets.', schema: { type: 'integer' } },
        RateLimit: { description: 'The same, in the IETF RateLimit header fields draft form.', schema: { type: 'string' } },
        'RateLimit-Policy': { description: 'The quota policy, in the IETF RateLimit header fields draft form.', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
        'Cache-Control': { description: 'List: `public, max-age=0, s-maxage=300` (5 minutes at the edge). Single slot, widget, widget data, provider: 1 hour.', schema: { type: 'string' } },
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
          content: { 'application/json': { schema: ref('RateLimitedBody'), example: { statusCode: 429, statusMessage: RATE_LIMITED_MESSAGE, limit: 1000, remaining: 0, reset: 1795305600 } } },
        },
      },
    },
  };
}

/** The document as served: JSON with two-space indentation and a final newline. */
export function openApiJson(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
