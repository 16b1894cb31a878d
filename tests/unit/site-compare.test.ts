// The compare page's state: which games a /compare URL names, and the URL for a list of games.
import { describe, expect, it } from 'vitest';
import { COMPARE_MAX, COMPARE_ROWS, type CompareRecord, compareState, compareUrl } from '../../src/site/compare.ts';

describe('compare state', () => {
  it('keeps valid slugs in the order given, without repeats, at most COMPARE_MAX', () => {
    expect(compareState('?slugs=b,a,b')).toEqual({ slugs: ['b', 'a'], dropped: 0, invalid: 0 });
    const many = Array.from({ length: COMPARE_MAX + 2 }, (_, k) => `g${k}`);
    expect(compareState(`?slugs=${many.join(',')}`)).toEqual({ slugs: many.slice(0, COMPARE_MAX), dropped: 2, invalid: 0 });
    expect(compareState(`?slugs=${many.slice(0, COMPARE_MAX).join(',')}`)).toEqual({ slugs: many.slice(0, COMPARE_MAX), dropped: 0, invalid: 0 });
    expect(compareState('?slugs=a&slugs=b')).toEqual({ slugs: ['a', 'b'], dropped: 0, invalid: 0 });
  });

  it('leaves out what is not a slug, and reads nothing else', () => {
    expect(compareState(`?slugs=Book-Of-Dead, ,<script>,a--b,${'x'.repeat(201)}`)).toEqual({ slugs: ['book-of-dead'], dropped: 0, invalid: 3 });
    expect(compareState('')).toEqual({ slugs: [], dropped: 0, invalid: 0 });
    expect(compareState('?q=book')).toEqual({ slugs: [], dropped: 0, invalid: 0 });
  });

  it('writes the URL back', () => {
    expect(compareUrl([])).toBe('/compare');
    expect(compareUrl(['a', 'b'])).toBe('/compare?slugs=a,b');
  });

  it('shows every figure with two decimals and words for what is not published', () => {
    const r = {
      stated_rtp: 96,
      rtp_min: 94.5,
      rtp_max: 96,
      variants_count: 2,
      volatility: null,
      max_win: null,
      release_year: null,
      game_type: 'slot',
      last_verified: '2026-11-21T00:00:00Z',
    } as unknown as CompareRecord;
    expect(COMPARE_ROWS.map((d) => [d.label, d.text(r)])).toEqual([
      ['Stated RTP', '96.00%'],
      ['House edge', '4.00%'],
      ['RTP range', '94.50% – 96.00% (2 variants)'],
      ['Volatility', 'Not published'],
      ['Max win', 'Not published'],
      ['Game type', 'Slot'],
      ['Release year', 'Unknown'],
      ['Last verified', '2026-11-21'],
    ]);
  });
});
