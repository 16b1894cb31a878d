// Reads over a list bundle's columns that need no engine state: the range filters' test and the
// binary search for a slug in the slug-ordered records.
import type { ListQuery } from '../schemas/list.ts';
import type { ListBundle } from '../schemas/list-bundle.ts';

/**
 * The test of a query's range filters over the bundle's columns (stated RTP within rtp_min..rtp_max,
 * max win at least max_win_min, release year within released_after..released_before, all
 * inclusive; an unknown max win or year never matches its filter), or null when it has none.
 */
export function rangeTester(columns: Pick<ListBundle, 'rtp' | 'maxWin' | 'year'>): (query: ListQuery) => ((i: number) => boolean) | null {
  const { rtp, maxWin, year } = columns;
  return (query) => {
    const { rtp_min: rtpMin, rtp_max: rtpMax, max_win_min: winMin, released_after: after, released_before: before } = query;
    if (rtpMin === null && rtpMax === null && winMin === null && after === null && before === null) return null;
    const lo = rtpMin ?? Number.NEGATIVE_INFINITY;
    const hi = rtpMax ?? Number.POSITIVE_INFINITY;
    const byYear = after !== null || before !== null;
    const yFrom = after ?? 0;
    const yTo = before ?? Number.POSITIVE_INFINITY;
    return (i) => {
      const r = rtp[i]!;
      if (r < lo || r > hi) return false;
      if (winMin !== null && !(maxWin[i]! >= winMin)) return false; // NaN (unknown) fails
      if (byYear) {
        const y = year[i]!;
        if (y === 0 || y < yFrom || y > yTo) return false;
      }
      return true;
    };
  };
}

/** Every record's JSON starts with its slug (GameRecordSchema's first field). */
const SLUG_PREFIX = Buffer.from('{"canonical_slug":"');
const QUOTE = 0x22;

/**
 * Binary search for `slug` over the records, which the bundle holds in slug order: each record's
 * slug is read from its own bytes (slugs are ASCII letters, digits and hyphens, so byte order is
 * string order), with no index kept beside them.
 */
export function slugIndex(bytes: Uint8Array, offsets: ArrayLike<number>, n: number, slug: string): number {
  const want = Buffer.from(slug, 'latin1');
  if (want.length === 0 || want.length > 512) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const start = offsets[mid]! + SLUG_PREFIX.length;
    let end = start;
    while (bytes[end] !== QUOTE) end++;
    const cmp = Buffer.compare(bytes.subarray(start, end), want);
    if (cmp === 0) return mid;
    if (cmp < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
