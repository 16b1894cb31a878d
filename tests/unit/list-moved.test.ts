// Merged slugs (src/routes/moved.ts, src/list/moved.ts): which slugs the history log sends on, and the redirect each
// URL of one answers (the record, widget data, widget, badge, feed, page and card of the survivor).
import { describe, expect, it } from 'vitest';
import { createMovedLookup } from '../../src/list/moved.ts';
import { mergedSlugs, movedBody } from '../../src/routes/moved.ts';
import type { HistoryEntry } from '../../src/schemas/authoring.ts';

const removal = (version: string, slug: string, into?: string): HistoryEntry[] =>
  (['stated_rtp', 'rtp_variants'] as const).map((field) => ({
    data_version: version,
    frozen_at: '2026-11-26T00:00:00Z',
    slug,
    provider: 'reel-kingdom',
    field,
    from: field === 'stated_rtp' ? 96.71 : [96.71],
    to: null,
    ...(into === undefined ? {} : { reason: `merged into ${into}: the same game`, merged_into: into }),
  }));
const added = (version: string, slug: string): HistoryEntry => ({
  data_version: version,
  frozen_at: '2026-11-27T00:00:00Z',
  slug,
  provider: 'pragmatic-play',
  field: 'stated_rtp',
  from: null,
  to: 96.71,
});

describe('merged slugs', () => {
  const live = new Set(['big-bass-splash', 'club-tropicana']);
  const exists = (slug: string) => live.has(slug);

  it('sends a merged slug to its survivor, along a chain, and nothing else', () => {
    const history = [
      ...removal('1.3.0', 'big-bass-splash-reel-kingdom', 'big-bass-splash'),
      ...removal('1.3.0', 'held-back-game'),
      ...removal('1.3.0', 'old-club', 'club-tropicana-reel-kingdom'),
      ...removal('1.4.0', 'club-tropicana-reel-kingdom', 'club-tropicana'),
      // Merged into a game that was later removed itself: no redirect to a 404.
      ...removal('1.3.0', 'gone-twice', 'held-back-game'),
    ];
    expect([...mergedSlugs(history, exists)]).toEqual([
      ['big-bass-splash-reel-kingdom', 'big-bass-splash'],
      ['club-tropicana-reel-kingdom', 'club-tropicana'],
      ['old-club', 'club-tropicana'],
    ]);
    // A slug published again after its merge is its own game.
    expect(mergedSlugs([...history, added('1.5.0', 'old-club')], exists).has('old-club')).toBe(false);
  });

  it('answers each URL of a merged slug with a 301 to the same URL of the survivor, cacheable, naming both', () => {
    const moved = createMovedLookup(new Map([['big-bass-splash-reel-kingdom', 'big-bass-splash']]));
    const cases: Array<[string, string]> = [
      ['/api/rtp/big-bass-splash-reel-kingdom', '/api/rtp/big-bass-splash'],
      ['/api/widget/rtp/big-bass-splash-reel-kingdom', '/api/widget/rtp/big-bass-splash'],
      ['/widget/rtp/big-bass-splash-reel-kingdom', '/widget/rtp/big-bass-splash'],
      ['/api/badge/rtp/big-bass-splash-reel-kingdom.svg', '/api/badge/rtp/big-bass-splash.svg'],
      ['/api/feeds/game/big-bass-splash-reel-kingdom.atom', '/api/feeds/game/big-bass-splash.atom'],
      ['/rtp/big-bass-splash-reel-kingdom', '/rtp/big-bass-splash'],
      ['/api/og/rtp/big-bass-splash-reel-kingdom.png', '/api/og/rtp/big-bass-splash.png'],
    ];
    for (const [from, to] of cases) {
      const answer = moved(from);
      expect(answer?.location, from).toBe(to);
      expect(answer!.headers).toEqual([
        'Content-Type',
        'application/json; charset=utf-8',
        'Cache-Control',
        'public, max-age=3600, s-maxage=3600',
        'Access-Control-Allow-Origin',
        '*',
        'X-Content-Type-Options',
        'nosniff',
        'Location',
        to,
      ]);
      expect(JSON.parse(answer!.body.toString('utf8'))).toEqual(movedBody('big-bass-splash-reel-kingdom', 'big-bass-splash'));
    }
    // The query string goes along: an embed keeps its widget options.
    expect(moved('/widget/rtp/big-bass-splash-reel-kingdom', 'theme=dark&lang=de')?.location).toBe('/widget/rtp/big-bass-splash?theme=dark&lang=de');
    expect(movedBody('a', 'b')).toEqual({
      statusCode: 301,
      statusMessage: 'moved permanently: a was merged into b, the record of the same game (GET /api/rtp/removed says why)',
    });
    // Other slugs, provider keys and paths are none of its business.
    for (const path of [
      '/api/rtp/big-bass-splash',
      '/api/rtp/provider/big-bass-splash-reel-kingdom',
      '/api/feeds/provider/big-bass-splash-reel-kingdom.atom',
      '/api/rtp/big-bass-splash-reel-kingdom/',
      '/widget/rtp/x/big-bass-splash-reel-kingdom',
    ])
      expect(moved(path), path).toBeNull();
  });
});
