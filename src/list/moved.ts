// The Node server's answer to a URL of a merged slug (src/routes/moved.ts: which slugs, and what the
// redirect says): its record, widget, badge, feed, page or card answers a permanent redirect to the
// same URL of the surviving slug, query string kept (an embed's widget options), so old links and
// embeds keep working; any other unknown slug stays a 404.

import { MOVED_HEADERS, movedBody } from '../routes/moved.ts';
import { gameUrl } from '../routes/paths.ts';

/** A redirect ready to send: its headers (Location included) and JSON body. */
export interface MovedAnswer {
  location: string;
  headers: readonly string[];
  body: Buffer;
}

/** The redirect a URL path (and its query string, without `?`) answers when it names a merged slug, else null. */
export type MovedLookup = (pathname: string, search?: string) => MovedAnswer | null;

const FIXED_HEADERS = Object.entries(MOVED_HEADERS).flat();

/** The lookup over `mergedSlugs` (src/routes/moved.ts): only a path that no file answers asks it (a pattern and a map lookup). */
export function createMovedLookup(merged: ReadonlyMap<string, string>): MovedLookup {
  if (merged.size === 0) return () => null;
  return (pathname, search = '') => {
    const url = gameUrl(pathname);
    const into = url === null ? undefined : merged.get(url.slug);
    if (url === null || into === undefined) return null;
    const location = search === '' ? url.withSlug(into) : `${url.withSlug(into)}?${search}`;
    const body = Buffer.from(JSON.stringify(movedBody(url.slug, into)));
    return { location, body, headers: [...FIXED_HEADERS, 'Location', location] };
  };
}
