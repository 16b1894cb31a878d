import { describe, expect, it } from 'vitest';
import { prepareBuild } from '../../src/emit/emit.ts';
import type { Registry } from '../../src/registry/load.ts';
import { citation, compareVersion, embedHtml, historyBySlug, round2, shapeSlot } from '../../src/registry/shape.ts';
import { DEFAULT_SITE, siteUrl } from '../../src/routes/urls.ts';
import type { GameFile, HistoryEntry } from '../../src/schemas/authoring.ts';
import { GameRecordSchema } from '../../src/schemas/game-record.ts';
import { SlotRecordSchema } from '../../src/schemas/slot.ts';
import { FIXTURE_GAMES, FIXTURE_META, FIXTURE_PROVIDERS } from '../fixtures/registry.ts';

const SITE = 'https://rtp.example.org';

function registry(games: GameFile[] = FIXTURE_GAMES, history: HistoryEntry[] = []): Registry {
  const sorted = [...games].sort((a, b) => (a.canonical_slug < b.canonical_slug ? -1 : 1));
  return { dir: '/nowhere', meta: FIXTURE_META, providers: FIXTURE_PROVIDERS, games: sorted, history };
}

function slotOf(slug: string, reg = registry()) {
  const prep = prepareBuild(reg, SITE);
  const record = prep.bundle.records.find((r) => r.canonical_slug === slug)!;
  return { record, slot: shapeSlot(prep.ctx, record) };
}

const h = (data_version: string, slug: string, field: HistoryEntry['field'], from: HistoryEntry['from'], to: HistoryEntry['to']): HistoryEntry => ({
  data_version,
  frozen_at: `2026-${data_version.split('.')[1]!.padStart(2, '0')}-01T00:00:00Z`,
  slug,
  provider: 'aurora-games',
  field,
  from,
  to,
});

describe('round2', () => {
  it('rounds to 2 decimals without binary noise', () => {
    expect(100 - 96.21).not.toBe(3.79);
    expect(round2(100 - 96.21)).toBe(3.79);
    expect(round2(1.005)).toBe(1.01);
    expect(round2(96.71 - 90)).toBe(6.71);
    expect(round2(2 / 3)).toBe(0.67);
    expect(Object.is(round2(-0.001), 0)).toBe(true);
  });
});

describe('compareVersion', () => {
  it('orders numerically, not as text', () => {
    expect(compareVersion('1.10.0', '1.9.0')).toBeGreaterThan(0);
    expect(compareVersion('2.0.0', '10.0.0')).toBeLessThan(0);
    expect(compareVersion('1.2.3', '1.2.3')).toBe(0);
  });
});

describe('siteUrl', () => {
  it('defaults to the local server and drops a trailing slash', () => {
    expect(siteUrl({})).toBe(DEFAULT_SITE);
    expect(siteUrl({ RTP_SITE: '' })).toBe(DEFAULT_SITE);
    expect(siteUrl({ RTP_SITE: 'https://rtp.example.org/' })).toBe('https://rtp.example.org');
    expect(siteUrl({ RTP_SITE: 'https://example.org/registry/' })).toBe('https://example.org/registry');
  });
  it('rejects anything but an absolute http(s) URL', () => {
    for (const bad of ['rtp.example.org', 'ftp://example.org', 'https://example.org/?a=1', 'javascript:alert(1)']) {
      expect(() => siteUrl({ RTP_SITE: bad })).toThrow(/RTP_SITE must be an absolute http\(s\) URL/);
    }
  });
});

describe('shapeSlot', () => {
  it('keeps the public record fields first, in order, then the documented extras', () => {
    const { record, slot } = slotOf('book-of-aurora');
    const keys = Object.keys(slot);
    const recordKeys = Object.keys(GameRecordSchema.shape);
    expect(keys.slice(0, recordKeys.length)).toEqual(recordKeys);
    expect(keys.slice(recordKeys.length)).toEqual([
      'provider_meta',
      'house_edge',
      'rtp_spread',
      'history',
      'widget_url',
      'embed_html',
      'page_url',
      'citation',
      'license',
      'data_version',
      'frozen_at',
    ]);
    expect(slot).toMatchObject(record);
    expect(SlotRecordSchema.parse(slot)).toEqual(slot);
  });

  it('derives house edge, spread and provider meta', () => {
    const { slot } = slotOf('deep-sea-bass');
    expect(slot.house_edge).toBe(3.29); // 100 - 96.71
    expect(slot.rtp_spread).toBe(6.9); // 96.9 - 90
    expect(slot.provider_meta).toEqual({
      provider: 'bluefin-studio',
      display: 'Bluefin Studio',
      website: 'https://bluefin.example',
      games_count: 2,
      rtp_min: 96.71,
      rtp_max: 99.5,
    });
    const single = slotOf('gem-mines').slot;
    expect(single.rtp_spread).toBe(0);
    expect(single.house_edge).toBe(3);
  });

  it('builds absolute links, licence and version from the site and registry meta', () => {
    const { slot } = slotOf('fire-keno');
    expect(slot.widget_url).toBe('https://rtp.example.org/widget/rtp/fire-keno');
    expect(slot.page_url).toBe('https://rtp.example.org/rtp/fire-keno');
    expect(slot.license).toEqual({ id: 'CC-BY-4.0', url: 'https://creativecommons.org/licenses/by/4.0/', attribution: 'RTP Registry test fixture, CC BY 4.0' });
    expect(slot.data_version).toBe('1.0.0');
    expect(slot.frozen_at).toBe('2026-11-21T00:00:00Z');
    expect(slot.citation).toBe(
      'Fire Keno (Copper Reel): stated RTP 94.5%. Source: https://games.copperreel.example/fire-keno. RTP Registry, data version 1.0.0, https://rtp.example.org/rtp/fire-keno, CC BY 4.0.',
    );
  });

  it('gives the embed snippet of the spec: iframe 100% x 220, frameborder 0, lazy, titled, with the attribution link', () => {
    const { slot } = slotOf('fire-keno');
    expect(slot.embed_html).toBe(
      '<iframe src="https://rtp.example.org/widget/rtp/fire-keno?v=1.0.0" width="100%" height="220" frameborder="0" loading="lazy" title="Fire Keno RTP · RTP Registry"></iframe>' +
        '<p><a href="https://rtp.example.org/rtp/fire-keno">Fire Keno RTP · RTP Registry · CC BY 4.0</a></p>',
    );
  });

  it('lists the game history newest version first, keeping log order within a version', () => {
    const history = [
      h('1.0.0', 'book-of-aurora', 'stated_rtp', null, 96),
      h('1.0.0', 'book-of-aurora', 'rtp_variants', null, [94, 96]),
      h('1.0.0', 'lucky-scratch', 'stated_rtp', null, 95),
      h('1.10.0', 'book-of-aurora', 'stated_rtp', 96.1, 96.2),
      h('1.2.0', 'book-of-aurora', 'stated_rtp', 96, 96.1),
      h('1.2.0', 'book-of-aurora', 'rtp_variants', [94, 96], [94, 96.1]),
    ];
    const { slot } = slotOf('book-of-aurora', registry(FIXTURE_GAMES, history));
    expect(slot.history.map((e) => `${e.data_version} ${e.field}`)).toEqual([
      '1.10.0 stated_rtp',
      '1.2.0 stated_rtp',
      '1.2.0 rtp_variants',
      '1.0.0 stated_rtp',
      '1.0.0 rtp_variants',
    ]);
    expect(slot.history[0]).toEqual({ data_version: '1.10.0', frozen_at: '2026-10-01T00:00:00Z', field: 'stated_rtp', from: 96.1, to: 96.2 });
    expect(slotOf('gem-mines', registry(FIXTURE_GAMES, history)).slot.history).toEqual([]);
    expect(historyBySlug(history).get('lucky-scratch')).toHaveLength(1);
  });
});

describe('embed snippet and citation escaping', () => {
  const hostile = { canonical_slug: 'x', canonical_name: `Evil "Quote" 'Single' </iframe><script>alert(1)</script> & Co` };

  it('escapes the name in the title attribute and link text', () => {
    const html = embedHtml(hostile, SITE, '1.0.0');
    expect(html).not.toContain('<script>');
    expect(html.match(/<\/iframe>/g)).toHaveLength(1);
    expect(html).toContain('title="Evil &quot;Quote&quot; &#39;Single&#39; &lt;/iframe&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co RTP · RTP Registry"');
    expect(html).toContain(
      '>Evil &quot;Quote&quot; &#39;Single&#39; &lt;/iframe&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co RTP · RTP Registry · CC BY 4.0</a>',
    );
  });

  it('keeps the citation as plain text (it is JSON, not HTML)', () => {
    const { record } = slotOf('gem-mines');
    expect(citation({ ...record, canonical_name: 'A & B <c>' }, SITE, '2.0.0')).toMatch(/^A & B <c> \(Copper Reel\): stated RTP 97%\./);
  });
});
