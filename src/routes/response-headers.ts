// The headers route families answer with: content types, cache lifetimes, the pages' security
// headers and the JSON error headers. The route table (routes.ts) assigns them to families; the
// server, the build's _headers and the edge's nginx.conf read them from there.

export const NOSNIFF = { 'X-Content-Type-Options': 'nosniff' } as const;

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

/** The headers of every JSON error answer, the server's and the edge's own: never stored (who asks and when decides them), open to any origin, not sniffed. */
export const JSON_ERROR: Readonly<Record<string, string>> = {
  'Content-Type': JSON_TYPE,
  'Cache-Control': CACHE_NO_STORE,
  'Access-Control-Allow-Origin': '*',
  ...NOSNIFF,
};

/** The JSON 417 for an `Expect` other than 100-continue (Node's own answer is a bare status line), from an instance or the edge. */
export const EXPECTATION_FAILED = { statusCode: 417, statusMessage: 'expectation failed: the only Expect this server meets is 100-continue' } as const;

/** Content types of the dump files, by extension (RFC 4180 §3 for CSV: `header=present`). */
export const DUMP_TYPES = {
  '.json': JSON_TYPE,
  '.csv': 'text/csv; charset=utf-8; header=present',
  '.ndjson': 'application/x-ndjson',
} as const;

/** The plain-text type of /llms.txt. */
export const TEXT_TYPE = 'text/plain; charset=utf-8';
