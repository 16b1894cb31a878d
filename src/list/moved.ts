// Slugs merged into another record (the same game under a studio's and its distributor's key): the
// history log's removal entries that name `merged_into` (src/registry/freeze.ts). A URL of such a
// slug (its record, widget, badge, feed, page or card) answers a permanent redirect to the same URL
// of the surviving slug, query string kept (an embed's widget options), so old links and embeds keep
// working; any other unknown slug stays a 404.
import { CACHE_HOUR, JSON_TYPE } from '../routes/routes.ts';
import { gameUrl, paths } from '../routes/paths.ts';
import type { HistoryEntry } from '../schemas/authoring.ts';
import type { ErrorBody } from '../schemas/errors.ts';

/** The status of a merged slug's URLs: Moved Permanently (RFC 9110 §15.4.2), followed by every client for GET and HEAD. */
export const MOVED_STATUS = 301;

/** A redirect ready to send: its headers (Location included) and JSON body. */
export interface MovedAnswer {
  location: string;
  headers: readonly string[];
  body: Buffer;
}

/** The body of a merged slug's redirect, naming the slug it went into. */
export function movedBody(slug: string, into: string): ErrorBody {
  return { statusCode: MOVED_STATUS, statusMessage: `moved permanently: ${slug} was merged into ${into}, the record of the same game (GET ${paths.removed} says why)` };
}

/**
 * The surviving slug of each merged slug: the log's last entry for a slug removes it naming
 * `merged_into`, followed along a chain (a survivor merged later) to a slug `exists` knows. A chain
 * that ends at a slug no longer published gives nothing (a 404).
 */
export function mergedSlugs(history: readonly HistoryEntry[], exists: (slug: string) => boolean): Map<string, string> {
  const last = new Map<string, HistoryEntry>();
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

/** The redirect a URL path (and its query string, without `?`) answers when it names a merged slug, else null. */
export type MovedLookup = (pathname: string, search?: string) => MovedAnswer | null;

/** The lookup over `mergedSlugs`: only a path that no file answers asks it (a pattern and a map lookup). */
export function createMovedLookup(merged: ReadonlyMap<string, string>): MovedLookup {
  if (merged.size === 0) return () => null;
  return (pathname, search = '') => {
    const url = gameUrl(pathname);
    const into = url === null ? undefined : merged.get(url.slug);
    if (url === null || into === undefined) return null;
    const location = search === '' ? url.withSlug(into) : `${url.withSlug(into)}?${search}`;
    const body = Buffer.from(JSON.stringify(movedBody(url.slug, into)));
    return { location, body, headers: ['Content-Type', JSON_TYPE, 'Cache-Control', CACHE_HOUR, 'Location', location, 'Access-Control-Allow-Origin', '*', 'X-Content-Type-Options', 'nosniff'] };
  };
}
