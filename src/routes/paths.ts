// The route table's URL side: every family's URL pattern, the file under dist/client that holds a
// keyed or data path, how a URL path resolves to its family, and the builders of every route's path
// (`paths`): the one place a route's path is written. No Node imports: the site's browser scripts
// build their URLs here too. The policies (methods, headers, cache, budget) are in routes.ts.

export type RouteFamily =
  | 'list'
  | 'history'
  | 'identify'
  | 'oembed'
  | 'og_image'
  | 'mcp'
  | 'slot'
  | 'provider'
  | 'operator'
  | 'widget_data'
  | 'widget'
  | 'badge'
  | 'provider_feed'
  | 'operator_feed'
  | 'game_feed'
  | 'openapi'
  | 'dump'
  | 'page'
  | 'asset';

/** The key a keyed family's paths carry: a game's slug, a provider's or an operator's key (its name in OpenAPI path templates). */
export type RouteKey = 'slug' | 'provider' | 'operator';

/** A URL family whose paths carry a key (a game's slug or a provider's key) and map to one file each. */
export interface KeyedRoute {
  family: RouteFamily;
  key: RouteKey;
  /** URL path = prefix + key + suffix. */
  prefix: string;
  suffix: '' | '.svg' | '.atom';
  /** File under dist/client = dir + '/' + key + ext: the prefix without its slashes. */
  dir: string;
  ext: '' | '.html' | '.svg' | '.atom';
}

/** Where every API path starts: an unknown one answers a JSON 404. */
export const API_PREFIX = '/api/';
/** Where the widget pages are: an unknown path under it answers like a missing widget. */
export const WIDGET_PREFIX = '/widget/';
/** Prefix of the fingerprinted build assets. */
export const ASSET_PREFIX = '/_astro/';
/** The link-preview cards, a family the server answers by pattern (no file): prefix + slug + suffix. */
export const OG_PREFIX = '/api/og/rtp/';
const OG_SUFFIX = '.png';
/**
 * The site's pages at exact paths (Astro pages under src/pages/, family `page`): the search page
 * (the home page), the provider and operator indexes, the compare page and the page about the data.
 */
const PAGES = {
  search: '/',
  providers: '/providers',
  operators: '/operators',
  compare: '/compare',
  about: '/about',
} as const;
/** Where the about page describes the API (an anchor of it). */
const ABOUT_API_ANCHOR = 'api';
/** A provider's registry page (an Astro page, src/pages/providers/[provider].astro): prefix + key. */
const PROVIDER_PAGE_PREFIX = `${PAGES.providers}/`;
/** An operator's registry page (src/pages/operators/[operator].astro): prefix + key. */
const OPERATOR_PAGE_PREFIX = `${PAGES.operators}/`;

/** The pattern of a key (a slug or a provider key): lowercase words joined by single hyphens. */
export const KEY_SEGMENT = '([a-z0-9]+(?:-[a-z0-9]+)*)';

function keyed(family: RouteFamily, key: RouteKey, prefix: string, suffix: KeyedRoute['suffix'], ext: KeyedRoute['ext'] = suffix): KeyedRoute {
  return { family, key, prefix, suffix, dir: prefix.slice(1, -1), ext };
}

/** The keyed families, most specific prefix first: what classify tries in order and the edge's nginx locations are made from. */
export const KEYED_ROUTES: readonly KeyedRoute[] = [
  keyed('provider', 'provider', '/api/rtp/provider/', ''),
  keyed('operator', 'operator', '/api/rtp/operator/', ''),
  keyed('widget_data', 'slug', '/api/widget/rtp/', ''),
  keyed('badge', 'slug', '/api/badge/rtp/', '.svg'),
  keyed('provider_feed', 'provider', '/api/feeds/provider/', '.atom'),
  keyed('operator_feed', 'operator', '/api/feeds/operator/', '.atom'),
  keyed('game_feed', 'slug', '/api/feeds/game/', '.atom'),
  keyed('slot', 'slug', '/api/rtp/', ''),
  keyed('widget', 'slug', '/widget/rtp/', '', '.html'),
  // The registry's page of each game (src/emit/game-pages.ts).
  keyed('page', 'slug', '/rtp/', '', '.html'),
];

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const KEYED_URL = KEYED_ROUTES.map((r) => ({ route: r, re: new RegExp(`^${escapeRegex(r.prefix)}${KEY_SEGMENT}${escapeRegex(r.suffix)}$`) }));
const KEYED_FILE = KEYED_ROUTES.map((r) => ({ route: r, re: new RegExp(`^${escapeRegex(r.dir)}/${KEY_SEGMENT}${escapeRegex(r.ext)}$`) }));

const DUMP_DIR = 'api/rtp/dump';
/** A data version as frozen (VersionSchema): three dot-separated numbers. */
const VERSION = '(?:0|[1-9][0-9]*)\\.(?:0|[1-9][0-9]*)\\.(?:0|[1-9][0-9]*)';
const DUMP_URL = new RegExp(`^/${DUMP_DIR}/(registry\\.(?:json|csv|ndjson)|datapackage\\.json|changes/${VERSION}\\.json)$`);
/** The dump files' folder under dist/client and the URL pattern of its files (group 1: the file under the folder). */
export const DUMP_ROUTE = { dir: DUMP_DIR, url: DUMP_URL } as const;

/** Files of the static data (family `dump`) under dist/client: each answers the URL path `/` + file. */
export const dumpFiles = {
  json: `${DUMP_DIR}/registry.json`,
  csv: `${DUMP_DIR}/registry.csv`,
  ndjson: `${DUMP_DIR}/registry.ndjson`,
  dataPackage: `${DUMP_DIR}/datapackage.json`,
  changes: (dataVersion: string) => `${DUMP_DIR}/changes/${dataVersion}.json`,
  /** The tombstones: a file in the slots' folder, so a CDN serves it at its path too (the slug is reserved). */
  removed: 'api/rtp/removed',
  /** The registry's summary for assistants (src/emit/llms.ts). */
  llms: 'llms.txt',
  /** The registry-wide feed (src/emit/feeds.ts; the per-provider and per-game feeds are keyed families). */
  feed: 'api/feeds/rtp.atom',
} as const;

/** The families answered at one exact path (the static data at exact paths are in EXACT_DATA_PATHS). */
const EXACT = {
  list: '/api/rtp/list',
  history: '/api/rtp/history',
  identify: '/api/rtp/identify',
  oembed: '/api/oembed',
  mcp: '/mcp',
  openapi: '/api/openapi.json',
} as const satisfies Partial<Record<RouteFamily, string>>;

const keyedRoute = (family: RouteFamily) => KEYED_ROUTES.find((r) => r.family === family)!;
const pathOf = (family: RouteFamily) => {
  const { prefix, suffix } = keyedRoute(family);
  return (key: string) => `${prefix}${key}${suffix}`;
};
const fileOf = (family: RouteFamily) => {
  const { dir, ext } = keyedRoute(family);
  return (key: string) => `${dir}/${key}${ext}`;
};

/** URL path of each route: a string for a path of its own, a function of the key for a keyed one. */
export const paths = {
  ...EXACT,
  slot: pathOf('slot'),
  provider: pathOf('provider'),
  operator: pathOf('operator'),
  widgetData: pathOf('widget_data'),
  widget: pathOf('widget'),
  badge: pathOf('badge'),
  providerFeed: pathOf('provider_feed'),
  operatorFeed: pathOf('operator_feed'),
  gameFeed: pathOf('game_feed'),
  gamePage: pathOf('page'),
  providerPage: (key: string) => `${PROVIDER_PAGE_PREFIX}${key}`,
  operatorPage: (key: string) => `${OPERATOR_PAGE_PREFIX}${key}`,
  /** The site's pages at exact paths; `compare` names the games compared (slugs, already valid). */
  pages: {
    search: PAGES.search,
    providers: PAGES.providers,
    operators: PAGES.operators,
    about: PAGES.about,
    aboutApi: `${PAGES.about}#${ABOUT_API_ANCHOR}`,
    compare: (slugs: readonly string[] = []) => (slugs.length === 0 ? PAGES.compare : `${PAGES.compare}?slugs=${slugs.join(',')}`),
  },
  /** A game's link-preview card, drawn by the server. */
  ogImage: (slug: string) => `${OG_PREFIX}${slug}${OG_SUFFIX}`,
  feed: `/${dumpFiles.feed}`,
  removed: `/${dumpFiles.removed}`,
  llms: `/${dumpFiles.llms}`,
  dump: {
    json: `/${dumpFiles.json}`,
    csv: `/${dumpFiles.csv}`,
    ndjson: `/${dumpFiles.ndjson}`,
    dataPackage: `/${dumpFiles.dataPackage}`,
    changes: (dataVersion: string) => `/${dumpFiles.changes(dataVersion)}`,
  },
} as const;

/** The site's pages at exact paths (family `page`), by URL path: what the server answers from their `.html` file. */
export const PAGE_PATHS: ReadonlySet<string> = new Set(Object.values(PAGES));

/** The static data files at exact paths (family `dump`), by URL path. */
export const EXACT_DATA_PATHS: ReadonlyMap<string, string> = new Map([paths.removed, paths.feed, paths.llms].map((p) => [p, p.slice(1)]));

/** The families at exact paths, by path. */
export const EXACT_ROUTES: ReadonlyMap<string, RouteFamily> = new Map([
  ...Object.entries(EXACT).map(([family, p]): [string, RouteFamily] => [p, family as RouteFamily]),
  ...[...EXACT_DATA_PATHS.keys()].map((p): [string, RouteFamily] => [p, 'dump']),
]);

/** A keyed family's paths as an OpenAPI path template, its key in braces (`/api/rtp/{slug}`). */
export function keyedTemplate(family: RouteFamily): string {
  const r = keyedRoute(family);
  return `${r.prefix}{${r.key}}${r.suffix}`;
}

/** The link-preview cards' OpenAPI path template. */
export const OG_TEMPLATE = paths.ogImage('{slug}');

/** The file under dist/client that holds each keyed family's path. */
export const files = {
  slot: fileOf('slot'),
  provider: fileOf('provider'),
  operator: fileOf('operator'),
  widgetData: fileOf('widget_data'),
  widget: fileOf('widget'),
  badge: fileOf('badge'),
  providerFeed: fileOf('provider_feed'),
  operatorFeed: fileOf('operator_feed'),
  gameFeed: fileOf('game_feed'),
  gamePage: fileOf('page'),
} as const;

/** Folders under dist/client that hold only keyed files (one per game or provider; found from the URL, never listed). */
export const KEYED_DIRS: ReadonlySet<string> = new Set(KEYED_ROUTES.map((r) => r.dir));

/** A keyed URL path's family, key and file under dist/client, or null when the path is not keyed. */
export function keyedFile(pathname: string): { family: RouteFamily; key: string; file: string } | null {
  for (const { route, re } of KEYED_URL) {
    const m = re.exec(pathname);
    if (m !== null) return { family: route.family, key: m[1]!, file: `${route.dir}/${m[1]!}${route.ext}` };
  }
  return null;
}

/** A link-preview card's URL path, its slug captured. */
const OG_URL = new RegExp(`^${escapeRegex(OG_PREFIX)}${KEY_SEGMENT}${escapeRegex(OG_SUFFIX)}$`);

/**
 * The game slug a URL path names (a keyed family whose key is a slug: its record, widget, badge,
 * feed or page; or its card), and the same path for another slug; null for other paths.
 */
export function gameUrl(pathname: string): { slug: string; withSlug: (slug: string) => string } | null {
  const keyed = keyedFile(pathname);
  if (keyed !== null) {
    const { key, prefix, suffix } = keyedRoute(keyed.family);
    return key === 'slug' ? { slug: keyed.key, withSlug: (slug) => `${prefix}${slug}${suffix}` } : null;
  }
  const og = OG_URL.exec(pathname);
  return og === null ? null : { slug: og[1]!, withSlug: paths.ogImage };
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
  if (pathname.startsWith(OG_PREFIX) && pathname.endsWith(OG_SUFFIX)) return 'og_image';
  if (pathname.startsWith(API_PREFIX)) return 'slot'; // unknown API paths answer like a missing slot (JSON 404)
  if (pathname.startsWith(WIDGET_PREFIX)) return 'widget';
  return 'page';
}

/**
 * Which 404 a path that nothing answers gets: `slot` under the slots' prefix (every unknown path
 * there reads as a missing game), `api` elsewhere under the API (`/api` itself included), `page` otherwise.
 */
export function missingKind(pathname: string): 'slot' | 'api' | 'page' {
  if (pathname.startsWith(keyedRoute('slot').prefix)) return 'slot';
  if (pathname.startsWith(API_PREFIX) || pathname === API_PREFIX.slice(0, -1)) return 'api';
  return 'page';
}
