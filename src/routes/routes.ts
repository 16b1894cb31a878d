// The route table: every public URL family (POLICIES: its methods, handler, log name, headers,
// cache lifetime and budget), where its file lives in dist/client, and how a URL path resolves to
// it. Emits no files itself: the server, the build (_headers, the edge's nginx.conf), dist-check
// and the docs (docs/routes.md, written by `npm run docs:routes`) all read it.
import { WIDGET_CSP } from './widget-assets.ts';

export type RouteFamily = 'list' | 'history' | 'identify' | 'oembed' | 'og_image' | 'mcp' | 'slot' | 'provider' | 'widget_data' | 'widget' | 'badge' | 'provider_feed' | 'game_feed' | 'openapi' | 'dump' | 'page' | 'asset';

/** What answers a family: its file under dist/client, or one of the Node server's handlers. */
export type RouteHandler = 'static' | 'list' | 'history' | 'identify' | 'oembed' | 'og_image' | 'mcp';

export interface RoutePolicy {
  family: RouteFamily;
  /** The methods it answers (GET answers HEAD too); OPTIONS is every family's preflight. */
  methods: readonly ('GET' | 'HEAD' | 'POST')[];
  handler: RouteHandler;
  /** Its pattern in log lines: the route, never the request target (it can carry keys or payloads). */
  logName: string;
  /** Full Content-Type header value. */
  contentType: string;
  cacheControl: string;
  /** Exempt routes are never counted or blocked by the rate limiter (public-api.md, Limits rule 2). */
  rateLimited: boolean;
  /** Further response headers of the family (the widget's Content-Security-Policy), sent by the server and in _headers. */
  headers?: Readonly<Record<string, string>>;
}

const NOSNIFF = { 'X-Content-Type-Options': 'nosniff' } as const;

/**
 * The registry pages' security headers. Scripts and styles come from the site's own files only
 * (Astro bundles them under /_astro/); inline style attributes are allowed for the bar widths; the
 * only frame is the embed builder's widget preview, served from the site's origin (`siteOrigin`,
 * the build's `site`, when it differs from the serving origin). Pages are never framed themselves
 * (CSP frame-ancestors, and X-Frame-Options for older browsers); the widget family keeps allowing it.
 */
export function pageHeaders(siteOrigin: string | null = null): Readonly<Record<string, string>> {
  const frames = siteOrigin === null ? "'self'" : `'self' ${siteOrigin}`;
  return {
    'Content-Security-Policy':
      "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; " +
      `connect-src 'self'; frame-src ${frames}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    ...NOSNIFF,
  };
}

export const JSON_TYPE = 'application/json; charset=utf-8';
/** Atom feeds (RFC 4287 §7). */
export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

/** 5 minutes at the edge, revalidate in browsers (public-api.md: list route cached 5 minutes at the edge). */
export const CACHE_LIST = 'public, max-age=0, s-maxage=300';
/** 1 hour (public-api.md: single-slot and widget routes cached 1 hour). */
export const CACHE_HOUR = 'public, max-age=3600, s-maxage=3600';
/** Registry pages: short browser cache, 1 hour at the edge. */
export const CACHE_PAGE = 'public, max-age=300, s-maxage=3600';
/** Fingerprinted build assets never change. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** Never stored: errors and the MCP route. */
export const CACHE_NO_STORE = 'no-store';

const READ = ['GET', 'HEAD'] as const;
const staticFamily = (family: RouteFamily, logName: string) => ({ family, methods: READ, handler: 'static' as const, logName });

export const POLICIES: Record<RouteFamily, RoutePolicy> = {
  list: { family: 'list', methods: READ, handler: 'list', logName: '/api/rtp/list', contentType: JSON_TYPE, cacheControl: CACHE_LIST, rateLimited: true, headers: NOSNIFF },
  // Which build an observed figure is: answered like the list route (same headers, same budget).
  identify: { family: 'identify', methods: READ, handler: 'identify', logName: '/api/rtp/identify', contentType: JSON_TYPE, cacheControl: CACHE_LIST, rateLimited: true, headers: NOSNIFF },
  // oEmbed (link previews in editors and chat apps): a lookup per pasted link, exempt like the widget's data.
  oembed: { family: 'oembed', methods: READ, handler: 'oembed', logName: '/api/oembed', contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: false, headers: NOSNIFF },
  // A game's link-preview card (og:image), drawn by the server on first request: exempt like the badge.
  og_image: { family: 'og_image', methods: READ, handler: 'og_image', logName: '/api/og/rtp/{slug}.png', contentType: 'image/png', cacheControl: CACHE_HOUR, rateLimited: false, headers: NOSNIFF },
  // The MCP server: every tool call answers like the list route, so each counts like it.
  mcp: { family: 'mcp', methods: ['POST'], handler: 'mcp', logName: 'POST /mcp', contentType: JSON_TYPE, cacheControl: CACHE_NO_STORE, rateLimited: true, headers: NOSNIFF },
  history: { family: 'history', methods: READ, handler: 'history', logName: '/api/rtp/history', contentType: JSON_TYPE, cacheControl: 'public, max-age=0, s-maxage=3600', rateLimited: false, headers: NOSNIFF },
  slot: { ...staticFamily('slot', '/api/rtp/{slug}'), contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: true, headers: NOSNIFF },
  provider: { ...staticFamily('provider', '/api/rtp/provider/{provider}'), contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: false, headers: NOSNIFF },
  widget_data: { ...staticFamily('widget_data', '/api/widget/rtp/{slug}'), contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: false, headers: NOSNIFF },
  // No frame-ancestors in the CSP and no X-Frame-Options: the widget is meant to be embedded anywhere.
  widget: { ...staticFamily('widget', '/widget/rtp/{slug}'), contentType: HTML_TYPE, cacheControl: CACHE_HOUR, rateLimited: true, headers: { 'Content-Security-Policy': WIDGET_CSP, ...NOSNIFF } },
  // A small image for forum posts and READMEs: exempt like the widget's data. Its CSP lets the SVG,
  // opened on its own, run nothing and load nothing.
  badge: { ...staticFamily('badge', '/api/badge/rtp/{slug}.svg'), contentType: 'image/svg+xml', cacheControl: CACHE_HOUR, rateLimited: false, headers: { 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'", ...NOSNIFF } },
  provider_feed: { ...staticFamily('provider_feed', '/api/feeds/provider/{provider}.atom'), contentType: ATOM_TYPE, cacheControl: CACHE_HOUR, rateLimited: false, headers: NOSNIFF },
  game_feed: { ...staticFamily('game_feed', '/api/feeds/game/{slug}.atom'), contentType: ATOM_TYPE, cacheControl: CACHE_HOUR, rateLimited: false, headers: NOSNIFF },
  openapi: { ...staticFamily('openapi', '/api/openapi.json'), contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: true, headers: NOSNIFF },
  // Bulk downloads for data users and mirrors: exempt, like the other static data routes. The
  // Content-Type follows the file (DUMP_TYPES); this one is the JSON files'.
  dump: { ...staticFamily('dump', '(static data: /api/rtp/dump/*, /api/rtp/removed, /api/feeds/rtp.atom, /llms.txt)'), contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: false, headers: NOSNIFF },
  page: { ...staticFamily('page', '(page)'), contentType: HTML_TYPE, cacheControl: CACHE_PAGE, rateLimited: true, headers: pageHeaders() },
  // Fingerprinted build assets are exempt: a page view loads several, and they are the same for everyone.
  asset: { ...staticFamily('asset', '/_astro/*'), contentType: 'application/octet-stream', cacheControl: CACHE_IMMUTABLE, rateLimited: false, headers: NOSNIFF },
};

/** The families answered by the Node server alone: no file under dist/client holds them. */
export const DYNAMIC_FAMILIES: ReadonlySet<RouteFamily> = new Set(Object.values(POLICIES).filter((p) => p.handler !== 'static').map((p) => p.family));

/** The Allow header of a family: its methods and the preflight. */
export function allowOf(policy: RoutePolicy): string {
  return [...policy.methods, 'OPTIONS'].join(', ');
}

/** A URL family whose paths carry a key (a game's slug or a provider's key) and map to one file each. */
export interface KeyedRoute {
  family: RouteFamily;
  /** URL path = prefix + key + suffix. */
  prefix: string;
  suffix: '' | '.svg' | '.atom';
  /** File under dist/client = dir + '/' + key + ext. */
  dir: string;
  ext: '' | '.html' | '.svg' | '.atom';
}

const SEGMENT = '([a-z0-9]+(?:-[a-z0-9]+)*)';

/** The keyed families, most specific prefix first. */
const KEYED: readonly KeyedRoute[] = [
  { family: 'provider', prefix: '/api/rtp/provider/', suffix: '', dir: 'api/rtp/provider', ext: '' },
  { family: 'widget_data', prefix: '/api/widget/rtp/', suffix: '', dir: 'api/widget/rtp', ext: '' },
  { family: 'badge', prefix: '/api/badge/rtp/', suffix: '.svg', dir: 'api/badge/rtp', ext: '.svg' },
  { family: 'provider_feed', prefix: '/api/feeds/provider/', suffix: '.atom', dir: 'api/feeds/provider', ext: '.atom' },
  { family: 'game_feed', prefix: '/api/feeds/game/', suffix: '.atom', dir: 'api/feeds/game', ext: '.atom' },
  { family: 'slot', prefix: '/api/rtp/', suffix: '', dir: 'api/rtp', ext: '' },
  { family: 'widget', prefix: '/widget/rtp/', suffix: '', dir: 'widget/rtp', ext: '.html' },
  // The registry's page of each game (src/emit/game-pages.ts).
  { family: 'page', prefix: '/rtp/', suffix: '', dir: 'rtp', ext: '.html' },
];
/** The keyed families (most specific prefix first) and the pattern of their key: what the edge's nginx locations are made from. */
export const KEYED_ROUTES: readonly KeyedRoute[] = KEYED;
export const KEY_SEGMENT = SEGMENT;
const KEYED_URL = KEYED.map((r) => ({ route: r, re: new RegExp(`^${r.prefix}${SEGMENT}${r.suffix.replace('.', '\\.')}$`) }));
const KEYED_FILE = KEYED.map((r) => ({ route: r, re: new RegExp(`^${r.dir}/${SEGMENT}${r.ext.replace('.', '\\.')}$`) }));
/** Content types of the dump files, by extension (RFC 4180 §3 for CSV: `header=present`). */
export const DUMP_TYPES = {
  '.json': JSON_TYPE,
  '.csv': 'text/csv; charset=utf-8; header=present',
  '.ndjson': 'application/x-ndjson',
} as const;

/** The plain-text type of /llms.txt. */
export const TEXT_TYPE = 'text/plain; charset=utf-8';

const DUMP_DIR = 'api/rtp/dump';
/** A data version as frozen (VersionSchema): three dot-separated numbers. */
const VERSION = '(?:0|[1-9][0-9]*)\\.(?:0|[1-9][0-9]*)\\.(?:0|[1-9][0-9]*)';
const DUMP_URL = new RegExp(`^/${DUMP_DIR}/(registry\\.(?:json|csv|ndjson)|datapackage\\.json|changes/${VERSION}\\.json)$`);

/** Files of the dump family under dist/client (each answers the URL path `/` + file, but `removed`). */
export const dumpFiles = {
  json: `${DUMP_DIR}/registry.json`,
  csv: `${DUMP_DIR}/registry.csv`,
  ndjson: `${DUMP_DIR}/registry.ndjson`,
  dataPackage: `${DUMP_DIR}/datapackage.json`,
  changes: (dataVersion: string) => `${DUMP_DIR}/changes/${dataVersion}.json`,
  /** GET /api/rtp/removed: a file in the slots' folder, so a CDN serves it at its path too (the slug is reserved). */
  removed: 'api/rtp/removed',
  /** GET /llms.txt: the registry's summary for assistants (src/emit/llms.ts). */
  llms: 'llms.txt',
  /** GET /api/feeds/rtp.atom: the registry-wide feed (src/emit/feeds.ts; the per-provider and per-game feeds are keyed families). */
  feed: 'api/feeds/rtp.atom',
} as const;

/** The static data files at exact paths: one table for classify (family `dump`) and dumpFile. */
const EXACT_DATA: ReadonlyMap<string, { file: string; contentType: string }> = new Map([
  ['/api/rtp/removed', { file: dumpFiles.removed, contentType: JSON_TYPE }],
  ['/llms.txt', { file: dumpFiles.llms, contentType: TEXT_TYPE }],
  ['/api/feeds/rtp.atom', { file: dumpFiles.feed, contentType: ATOM_TYPE }],
]);

/** The dump files' folder under dist/client and the URL pattern of its files (group 1: the file under the folder). */
export const DUMP_ROUTE = { dir: DUMP_DIR, url: DUMP_URL } as const;
/** The static data files at exact URL paths (their file and Content-Type). */
export const EXACT_DATA_ROUTES = EXACT_DATA;
/** Prefix of the link-preview cards, a family the server answers by pattern (no file). */
export const OG_PREFIX = '/api/og/rtp/';
/** Prefix of the fingerprinted build assets. */
export const ASSET_PREFIX = '/_astro/';

/** The exact paths of the other families. */
export const EXACT_ROUTES: ReadonlyMap<string, RouteFamily> = new Map([
  ['/api/rtp/list', 'list'],
  ['/api/rtp/history', 'history'],
  ['/api/rtp/identify', 'identify'],
  ['/api/oembed', 'oembed'],
  ['/mcp', 'mcp'],
  ['/api/openapi.json', 'openapi'],
  ...[...EXACT_DATA.keys()].map((p): [string, RouteFamily] => [p, 'dump']),
]);

/** The dump file (and its Content-Type) a URL path answers, or null: checked before the keyed families. */
export function dumpFile(pathname: string): { file: string; contentType: string } | null {
  const exact = EXACT_DATA.get(pathname);
  if (exact !== undefined) return exact;
  const m = DUMP_URL.exec(pathname);
  if (m === null) return null;
  const ext = m[1]!.slice(m[1]!.lastIndexOf('.')) as keyof typeof DUMP_TYPES;
  return { file: `${DUMP_DIR}/${m[1]!}`, contentType: DUMP_TYPES[ext] };
}

const keyed = (family: RouteFamily) => KEYED.find((r) => r.family === family)!;
const pathOf = (family: RouteFamily) => {
  const { prefix, suffix } = keyed(family);
  return (key: string) => `${prefix}${key}${suffix}`;
};
const fileOf = (family: RouteFamily) => {
  const { dir, ext } = keyed(family);
  return (key: string) => `${dir}/${key}${ext}`;
};

/** URL path of each family. */
export const paths = {
  slot: pathOf('slot'),
  provider: pathOf('provider'),
  widgetData: pathOf('widget_data'),
  widget: pathOf('widget'),
  badge: pathOf('badge'),
  providerFeed: pathOf('provider_feed'),
  gameFeed: pathOf('game_feed'),
  feed: '/api/feeds/rtp.atom',
  gamePage: pathOf('page'),
  /** A provider's registry page (an Astro page, src/pages/providers/[provider].astro). */
  providerPage: (key: string) => `/providers/${key}`,
  list: '/api/rtp/list',
  history: '/api/rtp/history',
  identify: '/api/rtp/identify',
  oembed: '/api/oembed',
  /** A game's link-preview card (GET /api/og/rtp/{slug}.png, drawn by the server). */
  ogImage: (slug: string) => `${OG_PREFIX}${slug}.png`,
  mcp: '/mcp',
  openapi: '/api/openapi.json',
  removed: '/api/rtp/removed',
  llms: '/llms.txt',
  dump: {
    json: `/${dumpFiles.json}`,
    csv: `/${dumpFiles.csv}`,
    ndjson: `/${dumpFiles.ndjson}`,
    dataPackage: `/${dumpFiles.dataPackage}`,
    changes: (dataVersion: string) => `/${dumpFiles.changes(dataVersion)}`,
  },
} as const;

/** The file under dist/client that holds each keyed family's path. */
export const files = {
  slot: fileOf('slot'),
  provider: fileOf('provider'),
  widgetData: fileOf('widget_data'),
  widget: fileOf('widget'),
  badge: fileOf('badge'),
  providerFeed: fileOf('provider_feed'),
  gameFeed: fileOf('game_feed'),
  gamePage: fileOf('page'),
} as const;

/** Folders under dist/client that hold only keyed files (one per game or provider; found from the URL, never listed). */
export const KEYED_DIRS: ReadonlySet<string> = new Set(KEYED.map((r) => r.dir));

/** A keyed URL path's family and file under dist/client, or null when the path is not keyed. */
export function keyedFile(pathname: string): { family: RouteFamily; file: string } | null {
  for (const { route, re } of KEYED_URL) {
    const m = re.exec(pathname);
    if (m !== null) return { family: route.family, file: `${route.dir}/${m[1]!}${route.ext}` };
  }
  return null;
}

/** The keyed families whose key is a game's slug, and the link-preview cards: what a merged slug redirects within. */
const GAME_URLS = [...KEYED.filter((r) => r.family !== 'provider' && r.family !== 'provider_feed'), { prefix: OG_PREFIX, suffix: '.png' }].map((r) => ({
  prefix: r.prefix,
  suffix: r.suffix,
  re: new RegExp(`^${r.prefix}${SEGMENT}${r.suffix.replace('.', '\\.')}$`),
}));

/** The game slug a URL path names (its single-slot record, widget, badge, feed, page or card), and the same path for another slug; null for other paths. */
export function gameUrl(pathname: string): { slug: string; withSlug: (slug: string) => string } | null {
  for (const { prefix, suffix, re } of GAME_URLS) {
    const m = re.exec(pathname);
    if (m !== null) return { slug: m[1]!, withSlug: (slug) => `${prefix}${slug}${suffix}` };
  }
  return null;
}

/** Files in dist/client that are configuration for a CDN, not content. */
export const NOT_SERVED: ReadonlySet<string> = new Set(['_headers', '_redirects', '_routes.json']);

/**
 * The URL path a file under dist/client answers (posix, relative), and whether it is a keyed file;
 * null for files that answer no URL: CDN configuration, dot files, and the error pages (sent with
 * their status only). Build format 'file': `about.html` is /about, `index.html` is /.
 */
export function urlOfFile(rel: string): { path: string; keyed: boolean } | null {
  for (const { route, re } of KEYED_FILE) {
    const m = re.exec(rel);
    if (m !== null) return { path: `${route.prefix}${m[1]!}${route.suffix}`, keyed: true };
  }
  if (NOT_SERVED.has(rel) || rel.split('/').some((s) => s.startsWith('.'))) return null;
  if (!rel.endsWith('.html')) return { path: `/${rel}`, keyed: false };
  const base = rel.slice(0, -'.html'.length);
  if (base === '404' || base === '500') return null;
  if (base === 'index') return { path: '/', keyed: false };
  return { path: `/${base.endsWith('/index') ? base.slice(0, -'/index'.length) : base}`, keyed: false };
}

/** Classifies a decoded URL path (no query string) into its route family; unmatched paths are pages or assets. */
export function classify(pathname: string): RouteFamily {
  const exact = EXACT_ROUTES.get(pathname);
  if (exact !== undefined) return exact;
  if (pathname.startsWith(`/${DUMP_DIR}/`)) return 'dump';
  for (const { route, re } of KEYED_URL) if (re.test(pathname)) return route.family;
  if (pathname.startsWith(ASSET_PREFIX)) return 'asset';
  if (pathname.startsWith(OG_PREFIX) && pathname.endsWith('.png')) return 'og_image';
  if (pathname.startsWith('/api/')) return 'slot'; // unknown API paths answer like a missing slot (JSON 404)
  if (pathname.startsWith('/widget/')) return 'widget';
  return 'page';
}

/** The policy for a URL path. */
export function policyFor(pathname: string): RoutePolicy {
  return POLICIES[classify(pathname)];
}
