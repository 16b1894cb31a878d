// The route table: every public URL family (POLICIES: its methods, handler, log name, OpenAPI
// operations, headers, cache lifetime and budget) over its URLs (paths.ts: each family's URL
// pattern, where its file lives in dist/client, how a URL path resolves to it). Emits no files
// itself: the server, the build (_headers, the edge's nginx.conf, the OpenAPI document), dist-check
// and the docs (docs/server.md's route table, written by `npm run docs:routes`) all read it.

import { bodyTooLarge, MCP_MESSAGE_BYTES, type RpcErrorMessage } from '../schemas/rpc.ts';
import { ASSET_PREFIX, classify, DUMP_ROUTE, EXACT_DATA_PATHS, keyedTemplate, OG_TEMPLATE, paths, type RouteFamily } from './paths.ts';
import {
  ATOM_TYPE,
  CACHE_HOUR,
  CACHE_IMMUTABLE,
  CACHE_LIST,
  CACHE_NO_STORE,
  CACHE_PAGE,
  DUMP_TYPES,
  HTML_TYPE,
  JSON_TYPE,
  NOSNIFF,
  pageHeaders,
  TEXT_TYPE,
} from './response-headers.ts';
import { WIDGET_CSP } from './widget-assets.ts';

/** What answers a family: its file under dist/client, or one of the Node server's handlers. */
export type RouteHandler = 'static' | 'list' | 'history' | 'identify' | 'oembed' | 'og_image' | 'mcp';

/** The operations of the OpenAPI document (src/openapi/ describes each). */
export type OperationId =
  | 'listGames'
  | 'identifyBuild'
  | 'getOembed'
  | 'getOgImage'
  | 'mcp'
  | 'listHistory'
  | 'getGame'
  | 'getProvider'
  | 'getOperator'
  | 'getWidgetData'
  | 'getWidget'
  | 'getBadge'
  | 'getProviderFeed'
  | 'getOperatorFeed'
  | 'getGameFeed'
  | 'getOpenApi'
  | 'getRegistryDump'
  | 'getRegistryNdjson'
  | 'getRegistryCsv'
  | 'getDataPackage'
  | 'getReleaseChanges'
  | 'getRegistryFeed'
  | 'getLlmsTxt'
  | 'getRemoved';

/** A family's operation in the OpenAPI document: its id, and its path as an OpenAPI path template (keys in braces). */
export interface RouteOperation {
  id: OperationId;
  path: string;
}

export interface RoutePolicy {
  family: RouteFamily;
  /** The methods it answers (GET answers HEAD too); OPTIONS is every family's preflight. */
  methods: readonly ('GET' | 'HEAD' | 'POST')[];
  handler: RouteHandler;
  /** Its pattern in log lines: the route, never the request target (it can carry keys or payloads). */
  logName: string;
  /** Its operations in the OpenAPI document (for its first method), one per path; none for pages and build assets. */
  operations: readonly RouteOperation[];
  /** Full Content-Type header value. */
  contentType: string;
  cacheControl: string;
  /** Exempt routes are never counted or blocked by the rate limiter (public-api.md, Limits rule 2). */
  rateLimited: boolean;
  /** Further response headers of the family (the widget's Content-Security-Policy), sent by the server and in _headers. */
  headers?: Readonly<Record<string, string>>;
  /** A family that takes a request body: its bound in bytes, and the JSON answered (413) past it, by an instance or the edge. */
  body?: { maxBytes: number; tooLarge: RpcErrorMessage };
  /**
   * A family an instance answers in milliseconds: how long the edge waits on an instance (to
   * connect, and between two reads of its answer) before it passes the request to the next one and
   * leaves the slow one out for a while (src/emit/nginx.ts). Without it, the edge's default.
   */
  upstreamTimeoutMs?: number;
}

/** The edge's wait on an instance for the families answered in milliseconds (their mean is about 60 µs). */
export const FAST_UPSTREAM_TIMEOUT_MS = 1000;

const READ = ['GET', 'HEAD'] as const;
type Methods = RoutePolicy['methods'];

/** A family at one path (or path template) with one operation: its log name is that path, after its method when not GET. */
function at(family: RouteFamily, handler: RouteHandler, path: string, id: OperationId, methods: Methods = READ) {
  return { family, methods, handler, logName: methods[0] === 'GET' ? path : `${methods[0]} ${path}`, operations: [{ id, path }] };
}

export const POLICIES: Record<RouteFamily, RoutePolicy> = {
  list: {
    ...at('list', 'list', paths.list, 'listGames'),
    contentType: JSON_TYPE,
    cacheControl: CACHE_LIST,
    rateLimited: true,
    headers: NOSNIFF,
    upstreamTimeoutMs: FAST_UPSTREAM_TIMEOUT_MS,
  },
  // Which build an observed figure is: answered like the list route (same headers, same budget).
  identify: {
    ...at('identify', 'identify', paths.identify, 'identifyBuild'),
    contentType: JSON_TYPE,
    cacheControl: CACHE_LIST,
    rateLimited: true,
    headers: NOSNIFF,
    upstreamTimeoutMs: FAST_UPSTREAM_TIMEOUT_MS,
  },
  // oEmbed (link previews in editors and chat apps): a lookup per pasted link, exempt like the widget's data.
  oembed: { ...at('oembed', 'oembed', paths.oembed, 'getOembed'), contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: false, headers: NOSNIFF },
  // A game's link-preview card (og:image): exempt like the badge, because no request can make the
  // server draw more than each game's card once per data version (kept on disk after, read like a
  // static file) and at most two at once (src/server/og-image.ts); counting it would refuse
  // link-preview crawlers, which fetch a card per link shared, for no saving.
  og_image: {
    ...at('og_image', 'og_image', OG_TEMPLATE, 'getOgImage'),
    contentType: 'image/png',
    cacheControl: CACHE_HOUR,
    rateLimited: false,
    headers: NOSNIFF,
  },
  // The MCP server: every tool call answers like the list route, so each counts like it.
  mcp: {
    ...at('mcp', 'mcp', paths.mcp, 'mcp', ['POST']),
    contentType: JSON_TYPE,
    cacheControl: CACHE_NO_STORE,
    rateLimited: true,
    headers: NOSNIFF,
    body: { maxBytes: MCP_MESSAGE_BYTES, tooLarge: bodyTooLarge() },
  },
  history: {
    ...at('history', 'history', paths.history, 'listHistory'),
    contentType: JSON_TYPE,
    cacheControl: 'public, max-age=0, s-maxage=3600',
    rateLimited: false,
    headers: NOSNIFF,
    upstreamTimeoutMs: FAST_UPSTREAM_TIMEOUT_MS,
  },
  slot: { ...at('slot', 'static', keyedTemplate('slot'), 'getGame'), contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: true, headers: NOSNIFF },
  provider: {
    ...at('provider', 'static', keyedTemplate('provider'), 'getProvider'),
    contentType: JSON_TYPE,
    cacheControl: CACHE_HOUR,
    rateLimited: false,
    headers: NOSNIFF,
  },
  // One licensed casino's builds: static like the provider route, and exempt like it.
  operator: {
    ...at('operator', 'static', keyedTemplate('operator'), 'getOperator'),
    contentType: JSON_TYPE,
    cacheControl: CACHE_HOUR,
    rateLimited: false,
    headers: NOSNIFF,
  },
  widget_data: {
    ...at('widget_data', 'static', keyedTemplate('widget_data'), 'getWidgetData'),
    contentType: JSON_TYPE,
    cacheControl: CACHE_HOUR,
    rateLimited: false,
    headers: NOSNIFF,
  },
  // No frame-ancestors in the CSP and no X-Frame-Options: the widget is meant to be embedded anywhere.
  widget: {
    ...at('widget', 'static', keyedTemplate('widget'), 'getWidget'),
    contentType: HTML_TYPE,
    cacheControl: CACHE_HOUR,
    rateLimited: true,
    headers: { 'Content-Security-Policy': WIDGET_CSP, ...NOSNIFF },
  },
  // A small image for forum posts and READMEs: exempt like the widget's data. Its CSP lets the SVG,
  // opened on its own, run nothing and load nothing.
  badge: {
    ...at('badge', 'static', keyedTemplate('badge'), 'getBadge'),
    contentType: 'image/svg+xml',
    cacheControl: CACHE_HOUR,
    rateLimited: false,
    headers: { 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'", ...NOSNIFF },
  },
  provider_feed: {
    ...at('provider_feed', 'static', keyedTemplate('provider_feed'), 'getProviderFeed'),
    contentType: ATOM_TYPE,
    cacheControl: CACHE_HOUR,
    rateLimited: false,
    headers: NOSNIFF,
  },
  // What one operator's pinned catalogues showed, one entry per date a source was pinned.
  operator_feed: {
    ...at('operator_feed', 'static', keyedTemplate('operator_feed'), 'getOperatorFeed'),
    contentType: ATOM_TYPE,
    cacheControl: CACHE_HOUR,
    rateLimited: false,
    headers: NOSNIFF,
  },
  game_feed: {
    ...at('game_feed', 'static', keyedTemplate('game_feed'), 'getGameFeed'),
    contentType: ATOM_TYPE,
    cacheControl: CACHE_HOUR,
    rateLimited: false,
    headers: NOSNIFF,
  },
  openapi: { ...at('openapi', 'static', paths.openapi, 'getOpenApi'), contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: true, headers: NOSNIFF },
  // Bulk downloads for data users and mirrors: exempt, like the other static data routes. The
  // Content-Type follows the file (DUMP_TYPES); this one is the JSON files'.
  dump: {
    family: 'dump',
    methods: READ,
    handler: 'static',
    logName: `(static data: /${DUMP_ROUTE.dir}/*, ${[...EXACT_DATA_PATHS.keys()].join(', ')})`,
    operations: [
      { id: 'getRegistryDump', path: paths.dump.json },
      { id: 'getRegistryNdjson', path: paths.dump.ndjson },
      { id: 'getRegistryCsv', path: paths.dump.csv },
      { id: 'getDataPackage', path: paths.dump.dataPackage },
      { id: 'getReleaseChanges', path: paths.dump.changes('{data_version}') },
      { id: 'getRegistryFeed', path: paths.feed },
      { id: 'getLlmsTxt', path: paths.llms },
      { id: 'getRemoved', path: paths.removed },
    ],
    contentType: JSON_TYPE,
    cacheControl: CACHE_HOUR,
    rateLimited: false,
    headers: NOSNIFF,
  },
  page: {
    family: 'page',
    methods: READ,
    handler: 'static',
    logName: '(page)',
    operations: [],
    contentType: HTML_TYPE,
    cacheControl: CACHE_PAGE,
    rateLimited: true,
    headers: pageHeaders(),
  },
  // Fingerprinted build assets are exempt: a page view loads several, and they are the same for everyone.
  asset: {
    family: 'asset',
    methods: READ,
    handler: 'static',
    logName: `${ASSET_PREFIX}*`,
    operations: [],
    contentType: 'application/octet-stream',
    cacheControl: CACHE_IMMUTABLE,
    rateLimited: false,
    headers: NOSNIFF,
  },
};

/** The families answered by the Node server alone: no file under dist/client holds them. */
export const DYNAMIC_FAMILIES: ReadonlySet<RouteFamily> = new Set(
  Object.values(POLICIES)
    .filter((p) => p.handler !== 'static')
    .map((p) => p.family),
);

/** The Allow header of a family: its methods and the preflight. */
export function allowOf(policy: RoutePolicy): string {
  return [...policy.methods, 'OPTIONS'].join(', ');
}

const DATA_TYPES: ReadonlyMap<string, string> = new Map([
  [paths.removed, JSON_TYPE],
  [paths.llms, TEXT_TYPE],
  [paths.feed, ATOM_TYPE],
]);

/** The static data files at exact URL paths (family `dump`): their file and Content-Type. */
export const EXACT_DATA_ROUTES: ReadonlyMap<string, { file: string; contentType: string }> = new Map(
  [...EXACT_DATA_PATHS].map(([urlPath, file]) => [urlPath, { file, contentType: DATA_TYPES.get(urlPath)! }]),
);

/** The dump file (and its Content-Type) a URL path answers, or null: checked before the keyed families. */
export function dumpFile(pathname: string): { file: string; contentType: string } | null {
  const exact = EXACT_DATA_ROUTES.get(pathname);
  if (exact !== undefined) return exact;
  const m = DUMP_ROUTE.url.exec(pathname);
  if (m === null) return null;
  const ext = m[1]!.slice(m[1]!.lastIndexOf('.')) as keyof typeof DUMP_TYPES;
  return { file: `${DUMP_ROUTE.dir}/${m[1]!}`, contentType: DUMP_TYPES[ext] };
}

/** The policy for a URL path. */
export function policyFor(pathname: string): RoutePolicy {
  return POLICIES[classify(pathname)];
}
