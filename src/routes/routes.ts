// The route table: every public URL family, where its file lives in dist/client, and its headers.
// Emits no files itself; the build (_headers), dist-check and the server all read it.
//
//   GET /api/rtp/list                  dynamic (Node), JSON, edge 5 min, rate limited
//   GET /api/rtp/history               dynamic (Node), JSON, edge 1 h, exempt
//   GET /api/rtp/{slug}                static api/rtp/{slug}, JSON, 1 h, rate limited
//   GET /api/rtp/provider/{provider}   static api/rtp/provider/{provider}, JSON, 1 h, exempt
//   GET /api/widget/rtp/{slug}         static api/widget/rtp/{slug}, JSON, 1 h, exempt
//   GET /widget/rtp/{slug}             static widget/rtp/{slug}.html, HTML, 1 h, rate limited
//   GET /api/openapi.json              static api/openapi.json, JSON, 1 h, rate limited
//   GET /_astro/*                      static build assets, immutable, exempt
//   anything else under dist/client    static pages, rate limited
import { WIDGET_CSP } from './widget-assets.ts';

export type RouteFamily = 'list' | 'history' | 'slot' | 'provider' | 'widget_data' | 'widget' | 'openapi' | 'page' | 'asset';

export interface RoutePolicy {
  family: RouteFamily;
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
export const HTML_TYPE = 'text/html; charset=utf-8';

/** 5 minutes at the edge, revalidate in browsers (public-api.md: list route cached 5 minutes at the edge). */
export const CACHE_LIST = 'public, max-age=0, s-maxage=300';
/** 1 hour (public-api.md: single-slot and widget routes cached 1 hour). */
export const CACHE_HOUR = 'public, max-age=3600, s-maxage=3600';
/** Registry pages: short browser cache, 1 hour at the edge. */
export const CACHE_PAGE = 'public, max-age=300, s-maxage=3600';
/** Fingerprinted build assets never change. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';

export const POLICIES: Record<RouteFamily, RoutePolicy> = {
  list: { family: 'list', contentType: JSON_TYPE, cacheControl: CACHE_LIST, rateLimited: true, headers: NOSNIFF },
  history: { family: 'history', contentType: JSON_TYPE, cacheControl: 'public, max-age=0, s-maxage=3600', rateLimited: false, headers: NOSNIFF },
  slot: { family: 'slot', contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: true, headers: NOSNIFF },
  provider: { family: 'provider', contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: false, headers: NOSNIFF },
  widget_data: { family: 'widget_data', contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: false, headers: NOSNIFF },
  // No frame-ancestors in the CSP and no X-Frame-Options: the widget is meant to be embedded anywhere.
  widget: { family: 'widget', contentType: HTML_TYPE, cacheControl: CACHE_HOUR, rateLimited: true, headers: { 'Content-Security-Policy': WIDGET_CSP, ...NOSNIFF } },
  openapi: { family: 'openapi', contentType: JSON_TYPE, cacheControl: CACHE_HOUR, rateLimited: true, headers: NOSNIFF },
  page: { family: 'page', contentType: HTML_TYPE, cacheControl: CACHE_PAGE, rateLimited: true, headers: pageHeaders() },
  // Fingerprinted build assets are exempt: a page view loads several, and they are the same for everyone.
  asset: { family: 'asset', contentType: 'application/octet-stream', cacheControl: CACHE_IMMUTABLE, rateLimited: false, headers: NOSNIFF },
};

/** URL path of each static family, and the file under dist/client that holds it. */
export const paths = {
  slot: (slug: string) => `/api/rtp/${slug}`,
  provider: (key: string) => `/api/rtp/provider/${key}`,
  widgetData: (slug: string) => `/api/widget/rtp/${slug}`,
  widget: (slug: string) => `/widget/rtp/${slug}`,
  list: '/api/rtp/list',
  history: '/api/rtp/history',
  openapi: '/api/openapi.json',
} as const;

export const files = {
  slot: (slug: string) => `api/rtp/${slug}`,
  provider: (key: string) => `api/rtp/provider/${key}`,
  widgetData: (slug: string) => `api/widget/rtp/${slug}`,
  widget: (slug: string) => `widget/rtp/${slug}.html`,
} as const;

const SEGMENT = '([a-z0-9]+(?:-[a-z0-9]+)*)';
const MATCHERS: Array<[RegExp, RouteFamily]> = [
  [/^\/api\/rtp\/list$/, 'list'],
  [/^\/api\/rtp\/history$/, 'history'],
  [new RegExp(`^/api/rtp/provider/${SEGMENT}$`), 'provider'],
  [new RegExp(`^/api/widget/rtp/${SEGMENT}$`), 'widget_data'],
  [new RegExp(`^/api/rtp/${SEGMENT}$`), 'slot'],
  [new RegExp(`^/widget/rtp/${SEGMENT}$`), 'widget'],
  [/^\/api\/openapi\.json$/, 'openapi'],
];

/** Classifies a decoded URL path (no query string) into its route family; unmatched paths are pages or assets. */
export function classify(pathname: string): RouteFamily {
  for (const [re, family] of MATCHERS) if (re.test(pathname)) return family;
  if (pathname.startsWith('/_astro/')) return 'asset';
  if (pathname.startsWith('/api/')) return 'slot'; // unknown API paths answer like a missing slot (JSON 404)
  if (pathname.startsWith('/widget/')) return 'widget';
  return 'page';
}

/** The policy for a URL path. */
export function policyFor(pathname: string): RoutePolicy {
  return POLICIES[classify(pathname)];
}
