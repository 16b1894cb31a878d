// Pure helpers of the registry pages: formatting, search state <-> query string, embed options,
// the pre-rendered first page of the home page.
import { beforeAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { escapeHtml } from '../../src/lib/html.ts';
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { fold } from '../../src/schemas/text.ts';
import { DEFAULT_WIDGET_OPTIONS, embedSnippet, normaliseBorder, normaliseRadius, widgetQuery, widgetSrc } from '../../src/site/embed.ts';
import { formatHouseEdge, formatMaxWin, formatRange, formatRtp, formatVariantKind, formatVolatility, formatYear } from '../../src/site/format.ts';
import { firstPage } from '../../src/site/home.ts';
import { listItemText, statusText } from '../../src/site/list-item.ts';
import { indexBundle } from '../../src/site/registry.ts';
import { DEFAULT_STATE, isDefaultState, queryFromState, stateFromQuery } from '../../src/site/search-params.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';
import { shippedBundle } from '../helpers/shipped.ts';

let bundle: RegistryBundle;
beforeAll(async () => {
  bundle = shippedBundle();
});

describe('format', () => {
  it('shows figures as stated with at least two decimals, and words for nulls', () => {
    expect(formatRtp(96.21)).toBe('96.21%');
    expect(formatRtp(96)).toBe('96.00%');
    expect(formatRtp(96.3)).toBe('96.30%');
    expect(formatRtp(96.125)).toBe('96.125%'); // padded, never rounded
    expect(formatRtp(100)).toBe('100.00%');
    expect(formatHouseEdge(96.21)).toBe('3.79%');
    expect(formatHouseEdge(100)).toBe('0.00%');
    expect(formatRange(94, 96.5)).toBe('94.00% – 96.50%');
    expect(formatRange(96.5, 96.5)).toBe('96.50%');
    expect(formatMaxWin(5000)).toBe('5,000× stake');
    expect(formatMaxWin(null)).toBe('Not published');
    expect(formatVolatility('very-high')).toBe('Very high');
    expect(formatVolatility(null)).toBe('Not published');
    expect(formatYear(null)).toBe('Unknown');
    expect(formatVariantKind('jurisdiction', 'DE')).toBe('Jurisdiction (DE)');
    expect(formatVariantKind('bonus_buy', null)).toBe('Bonus buy');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('describes a search result and the status line', () => {
    const r = bundle.records.find((x) => x.canonical_slug === 'book-of-dead')!;
    expect(listItemText(r)).toEqual({
      href: '/rtp/book-of-dead',
      name: 'Book of Dead',
      meta: "Play'n GO · Slot · 5 variants 84.18% – 96.21% · Verified · Variants tracked",
      rtp: '96.21%',
    });
    expect(statusText(0, 50, 133, 133)).toBe('Showing 1–50 of 133 games (133 in the registry).');
    expect(statusText(50, 1, 51, 133)).toBe('Showing 51–51 of 51 games (133 in the registry).');
    expect(statusText(0, 0, 0, 133)).toBe('No games match (133 in the registry).');
  });
});

describe('search state', () => {
  it('round-trips through the page query string, leaving defaults out', () => {
    const s = {
      q: ' book ',
      provider: 'playngo',
      game_type: 'slot',
      operator: '711nl',
      operator_build: 'lower',
      has_variants: true,
      sort: 'rtp_desc',
      offset: 50,
    };
    expect(queryFromState(s, false)).toBe('q=book&provider=playngo&game_type=slot&operator=711nl&operator_build=lower&has_variants=1&sort=rtp_desc&offset=50');
    expect(queryFromState(s, true)).toBe(
      'q=book&provider=playngo&game_type=slot&operator=711nl&operator_build=lower&has_variants=1&sort=rtp_desc&limit=50&offset=50',
    );
    expect(stateFromQuery(`?${queryFromState(s, false)}`)).toEqual({ ...s, q: 'book' });
    expect(queryFromState(DEFAULT_STATE, false)).toBe('');
    expect(isDefaultState(stateFromQuery(''))).toBe(true);
  });

  it('asks for the best match whenever there is a search and the reader chose no other order', () => {
    expect(queryFromState({ ...DEFAULT_STATE, q: 'bok of ded' }, true)).toBe('q=bok+of+ded&sort=relevance&limit=50');
    expect(queryFromState({ ...DEFAULT_STATE, q: 'bok of ded' }, false)).toBe('q=bok+of+ded');
    expect(queryFromState({ ...DEFAULT_STATE, q: '  ' }, true)).toBe('limit=50');
    expect(queryFromState({ ...DEFAULT_STATE, q: 'book', sort: 'name' }, true)).toBe('q=book&sort=name&limit=50');
    // An older link's sort=relevance is the default.
    expect(stateFromQuery('?q=book&sort=relevance')).toEqual({ ...DEFAULT_STATE, q: 'book' });
  });

  it('falls back to defaults for malformed page URLs', () => {
    expect(stateFromQuery('?sort=best&offset=-5&has_variants=yes')).toEqual(DEFAULT_STATE);
    for (const bad of ['best', 'TOP', '__proto__', 'toString', '']) expect(stateFromQuery(`?operator_build=${bad}`).operator_build, bad).toBe('');
    expect(stateFromQuery('?offset=1.5').offset).toBe(0);
  });

  it('asks the list route only for queries it accepts', () => {
    const services = servicesFor(bundle);
    for (const search of ['', '?q=book', '?provider=playngo&sort=recent&offset=50', '?has_variants=1&game_type=slot&sort=relevance&q=dead']) {
      expect(services.list(queryFromState(stateFromQuery(search), true)).status, search).toBe(200);
    }
  });
});

describe('embed options', () => {
  it('accepts the widget option formats and rejects the rest', () => {
    expect(normaliseBorder('')).toBe('');
    expect(normaliseBorder(' NONE ')).toBe('none');
    expect(normaliseBorder('#ABC')).toBe('#abc');
    expect(normaliseBorder('ff6600')).toBe('#ff6600');
    expect(normaliseBorder('red')).toBeNull();
    expect(normaliseBorder('#12345')).toBeNull();
    expect(normaliseRadius('')).toBeNull();
    expect(normaliseRadius('0')).toBe(0);
    expect(normaliseRadius('32')).toBe(32);
    expect(normaliseRadius('33')).toBeUndefined();
    expect(normaliseRadius('-1')).toBeUndefined();
    expect(normaliseRadius('1.5')).toBeUndefined();
  });

  it('puts options in the widget URL as the widget reads them, v last', () => {
    expect(widgetQuery(DEFAULT_WIDGET_OPTIONS, '1.0.0')).toBe('v=1.0.0');
    expect(widgetQuery({ theme: 'dark', border: 'none', radius: 0, lang: 'en', operator: '' }, '1.0.0')).toBe('theme=dark&border=none&radius=0&v=1.0.0');
    expect(widgetQuery({ theme: 'light', border: '#ff6600', radius: 4, lang: 'de', operator: '711nl' }, '2.1.0')).toBe(
      'border=ff6600&radius=4&lang=de&operator=711nl&v=2.1.0',
    );
    expect(widgetQuery({ ...DEFAULT_WIDGET_OPTIONS, lang: 'pt' }, '1.0.0')).toBe('lang=pt&v=1.0.0');
    // An operator key is a URL component: whatever a hand-edited value holds stays one parameter.
    expect(widgetQuery({ ...DEFAULT_WIDGET_OPTIONS, operator: 'a&b=c' }, '1.0.0')).toBe('operator=a%26b%3Dc&v=1.0.0');
    // An unknown language (from a hand-edited value) is English, which the URL leaves out.
    expect(widgetQuery({ ...DEFAULT_WIDGET_OPTIONS, lang: 'xx' as 'en' }, '1.0.0')).toBe('v=1.0.0');
    expect(widgetSrc('https://r.example', 'a-b', { theme: 'dark', border: '', radius: null, lang: 'en', operator: '' }, '1.0.0')).toBe(
      'https://r.example/widget/rtp/a-b?theme=dark&v=1.0.0',
    );
  });

  it('escapes the name in the embed code and carries the same src', () => {
    const code = embedSnippet('https://r.example', 'x', '<b>"X"</b>', { theme: 'dark', border: 'none', radius: 0, lang: 'en', operator: '' }, '1.0.0');
    expect(code).toContain('src="https://r.example/widget/rtp/x?theme=dark&amp;border=none&amp;radius=0&amp;v=1.0.0"');
    expect(code).toContain('&lt;b&gt;&quot;X&quot;&lt;/b&gt; RTP');
    expect(code).not.toContain('<b>');
  });
});

describe('home page first page', () => {
  it('is the list route answer to the default query (sort name, limit 50)', () => {
    const page = firstPage(bundle, 50);
    const served = JSON.parse(servicesFor(bundle).list('').body.toString());
    expect(page).toEqual(served);
    expect(page.items).toHaveLength(50);
    expect(page.meta.total).toBe(bundle.records.length);
    expect(page.meta.has_more).toBe(true);
  });

  it('agrees with the list route on names differing only in case or accents, and on every page size', () => {
    const fixture = fixtureBundle(300);
    const services = servicesFor(fixture);
    for (const limit of [1, 50, 200]) {
      expect(JSON.stringify(firstPage(fixture, limit)), `limit=${limit}`).toBe(services.list(`limit=${limit}`).body.toString());
    }
  });
});

describe('provider summaries', () => {
  it('list every provider with its games in name order and the provider route figures', () => {
    const data = indexBundle(bundle, 'https://r.example');
    expect(data.providers.map((p) => p.record.meta.provider)).toEqual(bundle.providers.map((p) => p.provider));
    const total = data.providers.reduce((n, p) => n + p.games.length, 0);
    expect(total).toBe(bundle.records.length);
    for (const p of data.providers) {
      expect(p.record.games_count).toBe(p.games.length);
      const names = p.games.map((g) => fold(g.canonical_name));
      expect(names).toEqual([...names].sort());
    }
  });
});
