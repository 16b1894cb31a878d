// A game's link-preview card (src/site/og-card.ts): 1200 × 630, its name, provider and stated RTP as
// the pages show them, the page's own ladder when the game has variants, every text escaped.
import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/schemas/game-record.ts';
import { OG_HEIGHT, OG_WIDTH, ogCardSvg } from '../../src/site/og-card.ts';

type Card = Pick<GameRecord, 'canonical_name' | 'provider_display' | 'stated_rtp' | 'variants'>;
const game = (over: Partial<Card> = {}): Card => ({
  canonical_name: 'Book of Dead',
  provider_display: "Play'n GO",
  stated_rtp: 96.21,
  variants: [
    { rtp: 96.21, kind: 'standard', jurisdiction: null },
    { rtp: 94.25, kind: 'operator_ladder', jurisdiction: null },
  ] as Card['variants'],
  ...over,
});
const META = { data_version: '1.2.0', registry: 'RTP Registry' };

describe('ogCardSvg', () => {
  it('is a 1200 × 630 card naming the game, its provider, its stated RTP and the data version', () => {
    const svg = ogCardSvg(game(), META);
    expect(svg).toContain(`width="${OG_WIDTH}" height="${OG_HEIGHT}"`);
    expect(svg).toContain('>Book of Dead</text>');
    expect(svg).toContain('>Play&#39;n GO</text>');
    expect(svg).toContain('>96.21%</text>');
    expect(svg).toContain('data version 1.2.0');
  });

  it('draws the ladder of the game page for a game with variants, and none for one figure', () => {
    expect(ogCardSvg(game(), META)).toContain('94.25% · Operator ladder');
    expect(ogCardSvg(game({ variants: [{ rtp: 96.21, kind: 'standard', jurisdiction: null }] as Card['variants'] }), META)).not.toContain('class="chart"');
  });

  it('shows a figure given with three decimals as given', () => {
    expect(ogCardSvg(game({ stated_rtp: 95.299, variants: [{ rtp: 95.299, kind: 'standard', jurisdiction: null }] as Card['variants'] }), META)).toContain(
      '>95.299%</text>',
    );
  });

  it('escapes every text and cuts long names', () => {
    const svg = ogCardSvg(game({ canonical_name: '<script>alert(1)</script> and a very long name indeed', provider_display: 'A & B' }), META);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
    expect(svg).toContain('…</text>');
    expect(svg).toContain('>A &amp; B</text>');
  });
});
