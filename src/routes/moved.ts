// Slugs merged into another record (the same game under a studio's and its distributor's key): which
// slugs the history log sends on (its removal entries that name `merged_into`, src/registry/freeze.ts),
// and what each URL of one answers: a permanent redirect to the same URL of the surviving slug. One
// definition for the Node server (src/list/moved.ts), the CDN's `_redirects` and the edge's nginx.conf
// (src/emit/redirects.ts, src/emit/nginx.ts), so the three cannot disagree.

import type { HistoryEntry } from '../schemas/authoring.ts';
import type { ErrorBody } from '../schemas/errors.ts';
import { KEYED_ROUTES, paths, type RouteFamily } from './paths.ts';
import { CACHE_HOUR, JSON_TYPE } from './response-headers.ts';
import { POLICIES } from './routes.ts';

/** The status of a merged slug's URLs: Moved Permanently (RFC 9110 §15.4.2), followed by every client for GET and HEAD. */
export const MOVED_STATUS = 301;

/**
 * The headers of every redirect of a merged slug, `Location` apart (it names the survivor's URL, with
 * the request's query string): cached an hour like the records, open to any origin, not sniffed.
 */
export const MOVED_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': JSON_TYPE,
  'Cache-Control': CACHE_HOUR,
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
};

/** The body of a merged slug's redirect, naming the slug it went into. */
export function movedBody(slug: string, into: string): ErrorBody {
  return {
    statusCode: MOVED_STATUS,
    statusMessage: `moved permanently: ${slug} was merged into ${into}, the record of the same game (GET ${paths.removed} says why)`,
  };
}

/**
 * The surviving slug of each merged slug: the log's last entry for a slug removes it naming
 * `merged_into`, followed along a chain (a survivor merged later) to a slug `exists` knows. A chain
 * that ends at a slug no longer published gives nothing (a 404). In slug order.
 */
export function mergedSlugs(
  history: readonly Pick<HistoryEntry, 'slug' | 'field' | 'to' | 'merged_into'>[],
  exists: (slug: string) => boolean,
): Map<string, string> {
  const last = new Map<string, (typeof history)[number]>();
  for (const e of history) if (e.field === 'stated_rtp') last.set(e.slug, e);
  const next = new Map<string, string>();
  for (const [slug, e] of last) if (e.to === null && e.merged_into !== undefined) next.set(slug, e.merged_into);
  const out = new Map<string, string>();
  for (const slug of [...next.keys()].sort()) {
    let at = next.get(slug)!;
    // Bounded by the number of merges: a cycle cannot come from the log, and would end here anyway.
    for (let k = 0; k < next.size && !exists(at) && next.has(at); k++) at = next.get(at)!;
    if (exists(at)) out.set(slug, at);
  }
  return out;
}

/** One URL of a merged slug that a file would answer, and the same URL of its survivor. */
export interface MovedUrl {
  family: RouteFamily;
  slug: string;
  into: string;
  /** The merged slug's URL path. */
  from: string;
  /** The survivor's URL path (the request's query string goes after it). */
  to: string;
}

/**
 * Every URL of the merged slugs served from files (the static keyed families whose key is a game's
 * slug, from the route table: record, widget data, widget, badge, feed, page), slug by slug in the
 * table's order: what a CDN (`_redirects`) and nginx answer without the Node server. The link-preview
 * card is drawn by the server, which answers its redirect itself.
 */
export function movedStaticUrls(merged: ReadonlyMap<string, string>): MovedUrl[] {
  const routes = KEYED_ROUTES.filter((r) => r.key === 'slug' && POLICIES[r.family].handler === 'static');
  const out: MovedUrl[] = [];
  for (const [slug, into] of merged) {
    for (const r of routes) out.push({ family: r.family, slug, into, from: `${r.prefix}${slug}${r.suffix}`, to: `${r.prefix}${into}${r.suffix}` });
  }
  return out;
}
