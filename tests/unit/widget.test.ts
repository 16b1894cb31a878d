import { createHash } from 'node:crypto';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { gzipSize, WIDGET_GZIP_BUDGET } from '../../dist-check/rules.ts';
import { prepareBuild } from '../../src/emit/emit.ts';
import { axisFloor, ladderSvg, renderWidget } from '../../src/emit/widget.ts';
import type { Registry } from '../../src/registry/load.ts';
import { shapeWidgetData } from '../../src/registry/shape.ts';
import { POLICIES } from '../../src/routes/routes.ts';
import { WIDGET_CSP, WIDGET_CSS, WIDGET_SCRIPT } from '../../src/routes/widget-assets.ts';
import { WIDGET_LABELS, WIDGET_LANGS } from '../../src/routes/widget-i18n.ts';
import type { GameFile } from '../../src/schemas/authoring.ts';
import { type WidgetData, WidgetDataSchema } from '../../src/schemas/widget.ts';
import { FIXTURE_GAMES, FIXTURE_META, FIXTURE_PROVIDERS } from '../fixtures/registry.ts';

const SITE = 'https://rtp.example.org';

function widgetOf(slug: string, games: GameFile[] = FIXTURE_GAMES): WidgetData {
  const sorted = [...games].sort((a, b) => (a.canonical_slug < b.canonical_slug ? -1 : 1));
  const registry: Registry = { dir: '/nowhere', meta: FIXTURE_META, providers: FIXTURE_PROVIDERS, games: sorted, history: [] };
  const prep = prepareBuild(registry, SITE);
  return shapeWidgetData(prep.ctx, prep.bundle.records.find((r) => r.canonical_slug === slug)!);
}

const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** Runs the widget's inline script against a query string; returns what it set on <html>. */
function applyOptions(search: string): { theme?: string; props: Record<string, string> } {
  const props: Record<string, string> = {};
  const attrs: Record<string, string> = {};
  const documentElement = { style: { setProperty: (k: string, v: string) => (props[k] = v) }, setAttribute: (k: string, v: string) => (attrs[k] = v) };
  // The texts are rewritten once the page is parsed (checked in Chromium: tests/browser/browser-widget.test.ts).
  vm.runInNewContext(WIDGET_SCRIPT, { URLSearchParams, location: { search }, document: { documentElement, addEventListener: () => {} } });
  return { theme: attrs['data-theme'], props };
}

describe('widget data', () => {
  it('holds exactly what the widget shows', () => {
    const d = widgetOf('deep-sea-bass');
    expect(WidgetDataSchema.parse(d)).toEqual(d);
    expect(d).toEqual({
      slug: 'deep-sea-bass',
      name: 'Deep Sea Bass',
      provider: 'bluefin-studio',
      provider_display: 'Bluefin Studio',
      stated_rtp: 96.71,
      rtp_min: 90,
      rtp_max: 96.9,
      rtp_variants: [90, 94.01, 96.71, 96.9],
      // One hand-checked row: one origin.
      confidence: 'single_source',
      // No operator catalogue in the fixture.
      operators: [],
      last_verified: '2026-11-21T00:00:00Z',
      source_url: 'https://bluefin.example/games/deep-sea-bass',
      page_url: 'https://rtp.example.org/rtp/deep-sea-bass',
      widget_url: 'https://rtp.example.org/widget/rtp/deep-sea-bass',
      attribution: {
        text: 'RTP Registry · CC BY 4.0',
        url: 'https://rtp.example.org/rtp/deep-sea-bass',
        license: 'CC-BY-4.0',
        license_url: 'https://creativecommons.org/licenses/by/4.0/',
      },
      data_version: '1.0.0',
    });
  });
});

/** The page's text without tags. */
const text = (html: string): string => html.replace(/<[^>]*>/g, '');

describe('widget page', () => {
  const d = widgetOf('deep-sea-bass');
  const html = renderWidget(d);

  it('shows name, provider, stated RTP, range, ladder, verified date, source and attribution links', () => {
    expect(html).toContain('<main class="c" aria-labelledby="g">');
    expect(html).toContain('<h1 id="g" title="Deep Sea Bass">Deep Sea Bass</h1>');
    expect(html).toContain('<p class="p">Bluefin Studio</p>');
    expect(html).toContain('<b data-p="96.71">96.71%</b><span class="l" data-t="S">Stated RTP</span>');
    expect(text(html)).toContain('90.00% – 96.90% · 4 variants');
    expect(text(html)).toContain('90.00% · 94.01% · 96.71% · 96.90%');
    expect(html).toContain('<b><span data-p="96.71">96.71%</span></b>');
    expect(text(html)).toContain('Verified 2026-11-21');
    expect(html).toContain(
      '<a href="https://bluefin.example/games/deep-sea-bass" target="_blank" rel="noopener noreferrer"><span data-t="u">Source</span> ↗</a>',
    );
    expect(html).toContain('<a href="https://rtp.example.org/rtp/deep-sea-bass" target="_blank" rel="noopener">RTP Registry · CC BY 4.0</a>');
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
  });

  it('says how much evidence stands behind the figure, in a short phrase of each of its six languages', () => {
    expect(renderWidget({ ...d, confidence: 'verified' })).toContain('<span data-t="e">Casino + 2nd source</span> · <span data-t="c">Verified</span>');
    for (const level of ['corroborated', 'single_source'] as const) {
      const other = renderWidget({ ...d, confidence: level });
      expect(other).toContain(`<span data-t="${level === 'corroborated' ? 'g' : 'h'}">${WIDGET_LABELS.en.confidence[level]}</span>`);
    }
    // The script's table carries the phrase of every other language under the same keys.
    for (const lang of WIDGET_LANGS) {
      const phrases = Object.values(WIDGET_LABELS[lang].confidence);
      expect(new Set(phrases).size, lang).toBe(3);
      for (const p of phrases) {
        expect(p.length, `${lang}: ${p}`).toBeLessThanOrEqual(30);
        if (lang !== 'en') expect(WIDGET_SCRIPT, `${lang}: ${p}`).toContain(JSON.stringify(p).slice(1, -1));
      }
    }
  });

  it('draws one tick per variant on an axis from a multiple of 5 to 100%', () => {
    expect(axisFloor(90)).toBe(85);
    expect(axisFloor(96.2)).toBe(90);
    expect(axisFloor(84.18)).toBe(80);
    expect(axisFloor(3)).toBe(0);
    const svg = ladderSvg(d);
    expect(svg.match(/<line class="k/g)).toHaveLength(4);
    expect(svg.match(/<line class="k s"/g)).toHaveLength(1);
    expect(svg).toContain('aria-label="RTP variants: 90.00%, 94.01%, 96.71%, 96.90%; Stated RTP 96.71%"');
    expect(svg).toContain('data-a="96.71 90 94.01 96.71 96.9"'); // stated first, then the variants: the label in another language
    const single = ladderSvg(widgetOf('gem-mines'));
    expect(single).not.toContain('class="g"');
    expect(single.match(/<line class="k/g)).toHaveLength(1);
    expect(text(renderWidget(widgetOf('gem-mines')))).toContain('97.00% · 1 variant');
  });

  it('loads nothing from outside and carries a CSP that allows exactly its inline style and script', () => {
    // The one link is the oEmbed discovery link, which loads nothing.
    expect(html).not.toMatch(/<(img|iframe|object|embed|form)\b/);
    expect(html.match(/<link\b[^>]*>/g)).toEqual([
      expect.stringMatching(/^<link rel="alternate" type="application\/json\+oembed" href="[^"]+\/api\/oembed\?url=[^"]+&amp;format=json" title="[^"]*">$/),
    ]);
    expect(html).not.toMatch(/\ssrc=|\sstyle=|url\(|@import/);
    expect(html.match(/<script>/g)).toHaveLength(1);
    const style = html.match(/<style>([\s\S]*?)<\/style>/)![1]!;
    const script = html.match(/<script>([\s\S]*?)<\/script>/)![1]!;
    expect(style).toBe(WIDGET_CSS);
    expect(script).toBe(WIDGET_SCRIPT);
    expect(WIDGET_CSP).toBe(`default-src 'none'; style-src ${hash(style)}; script-src ${hash(script)}; base-uri 'none'; form-action 'none'`);
    expect(WIDGET_CSP).not.toContain('frame-ancestors');
    expect(WIDGET_CSP).not.toContain('unsafe');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${WIDGET_CSP}">`);
    expect(POLICIES.widget.headers?.['Content-Security-Policy']).toBe(WIDGET_CSP);
  });

  it('stays far under its gzip budget (the one dist:check enforces)', () => {
    // About 3.2 KB: most of it the inline script's labels of five languages (the operator line's included).
    expect(gzipSize(html)).toBeLessThan(WIDGET_GZIP_BUDGET * 0.6);
  });
});

describe('widget operator line', () => {
  const d: WidgetData = {
    ...widgetOf('deep-sea-bass'),
    operators: [
      { operator: '711nl', display: '711.nl', rtp: 96.71, build: 'top', pinned_at: '2026-11-28T00:00:00Z' },
      { operator: 'other', display: 'Other', rtp: 94.01, build: 'lower', pinned_at: '2026-10-01T00:00:00Z' },
    ],
  };
  const html = renderWidget(d);

  it('pre-renders one hidden line per operator, marked for the script, saying when the catalogue was pinned', () => {
    expect(html).toContain(
      '<p class="o" data-k="711nl" hidden>711.nl<span data-t="k">: </span><span data-p="96.71">96.71%</span> (<span data-t="B">top build</span>) · ' +
        '<span data-t="C">catalogue as pinned</span> <span data-d="2026-11-28">2026-11-28</span></p>',
    );
    expect(text(html)).toContain('Other: 94.01% (lower build) · catalogue as pinned 2026-10-01');
    expect(renderWidget(widgetOf('deep-sea-bass'))).not.toContain('class="o"');
  });

  it('escapes the operator key and name', () => {
    const evil = renderWidget({ ...d, operators: [{ ...d.operators[0]!, operator: '"><script>x</script>', display: '<b>&</b>' }] });
    expect(evil.match(/<script>/g)).toHaveLength(1);
    expect(evil).toContain('data-k="&quot;&gt;&lt;script&gt;x&lt;/script&gt;" hidden>&lt;b&gt;&amp;&lt;/b&gt;');
  });

  it('has the line in every language, short, and in the script for all but English', () => {
    for (const lang of WIDGET_LANGS) {
      const o = WIDGET_LABELS[lang].operator;
      expect(new Set([o.top, o.lower, o.higher]).size, lang).toBe(3);
      for (const p of [o.top, o.lower, o.higher, o.pinned]) {
        expect(p.length, `${lang}: ${p}`).toBeLessThanOrEqual(24);
        if (lang !== 'en') expect(WIDGET_SCRIPT, `${lang}: ${p}`).toContain(JSON.stringify(p).slice(1, -1));
      }
    }
  });

  it('stays within budget with ten operators', () => {
    const many = Array.from({ length: 10 }, (_, k) => ({ ...d.operators[1]!, operator: `operator-${k}`, display: `Operator number ${k}` }));
    expect(gzipSize(renderWidget({ ...d, operators: many }))).toBeLessThan(WIDGET_GZIP_BUDGET * 0.6);
  });
});

describe('widget escaping', () => {
  const evil = `<script>alert(1)</script> "Q" 'S' </iframe> & <img src=x onerror=alert(2)>`;
  const d: WidgetData = {
    ...widgetOf('book-of-aurora'),
    name: evil,
    provider_display: `</title><script>alert(3)</script>`,
    source_url: 'https://evil.example/a"onmouseover="alert(4)&x=<b>',
    attribution: { ...widgetOf('book-of-aurora').attribution, url: 'https://rtp.example.org/rtp/x"y' },
  };
  const html = renderWidget(d);

  it('escapes every text from the data', () => {
    expect(html.match(/<script>/g)).toHaveLength(1); // only the widget's own
    expect(html).not.toContain('<img');
    expect(html).not.toContain('</iframe>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &quot;Q&quot; &#39;S&#39; &lt;/iframe&gt; &amp; &lt;img src=x onerror=alert(2)&gt;');
    expect(html).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;/title&gt;&lt;script&gt;alert(3)&lt;/script&gt;');
  });

  it('escapes URLs in attributes and refuses non-http URLs', () => {
    expect(html).toContain('href="https://evil.example/a&quot;onmouseover=&quot;alert(4)&amp;x=&lt;b&gt;"');
    expect(html).toContain('href="https://rtp.example.org/rtp/x&quot;y"');
    expect(html).not.toContain('onmouseover="');
    expect(renderWidget({ ...d, source_url: 'javascript:alert(5)' })).toContain('<a href="#" target="_blank"');
  });

  it('stays within budget with a 200-character name of characters that all need escaping', () => {
    const worst = renderWidget({
      ...d,
      name: '<>&"\''.repeat(40),
      rtp_variants: [80, 82, 84, 86, 88, 90, 92, 94, 96, 98],
      rtp_min: 80,
      rtp_max: 98,
      stated_rtp: 96,
    });
    expect(gzipSize(worst)).toBeLessThan(WIDGET_GZIP_BUDGET);
  });
});

describe('widget options (inline script)', () => {
  it('theme=dark switches the theme; anything else stays light', () => {
    expect(applyOptions('?theme=dark').theme).toBe('dark');
    expect(applyOptions('?theme=Dark').theme).toBeUndefined();
    expect(applyOptions('?theme=light').theme).toBeUndefined();
    expect(applyOptions('').theme).toBeUndefined();
  });

  it('border takes 3 or 6 hex digits with or without #, none removes it, anything else keeps the default', () => {
    expect(applyOptions('?border=ff0000').props).toEqual({ '--bc': '#ff0000' });
    expect(applyOptions('?border=%23ABC').props).toEqual({ '--bc': '#ABC' });
    expect(applyOptions('?border=none').props).toEqual({ '--bw': '0px' });
    for (const bad of ['red', 'ff00', '#ff00000', 'ff0000;x', '', '%23', 'url(x)']) expect(applyOptions(`?border=${bad}`).props).toEqual({});
  });

  it('radius takes an integer 0..32, anything else keeps the default; v is ignored', () => {
    expect(applyOptions('?radius=0').props).toEqual({ '--r': '0px' });
    expect(applyOptions('?radius=32').props).toEqual({ '--r': '32px' });
    expect(applyOptions('?radius=07').props).toEqual({ '--r': '7px' });
    for (const bad of ['33', '-1', '4.5', '8px', 'abc', '100']) expect(applyOptions(`?radius=${bad}`).props).toEqual({});
    expect(applyOptions('?v=1.0.0')).toEqual({ theme: undefined, props: {} });
    expect(applyOptions('?theme=dark&border=none&radius=0&v=2.0.0')).toEqual({ theme: 'dark', props: { '--bw': '0px', '--r': '0px' } });
  });
});
