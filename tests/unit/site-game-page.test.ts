// Per-game pages rendered by string functions: shell parsing, escaping of hostile data, ladder chart,
// history, the embed builder's default code, and the integration's file writing.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGamePages } from '../../src/emit/game-pages.ts';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { confidenceBasis } from '../../src/registry/derive.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { embedHtml, makeContext } from '../../src/registry/shape.ts';
import type { GameRecord } from '../../src/schemas/game-record.ts';
import { DEFAULT_WIDGET_OPTIONS, embedSnippet } from '../../src/site/embed.ts';
import { fillShell, gameMain, MARKERS, parseShell, renderGamePage } from '../../src/site/game-page.ts';
import { indexBundle } from '../../src/site/registry.ts';
import { shippedBundle } from '../helpers/shipped.ts';

const SITE = 'https://rtp.example.org';
const SHELL = `<!doctype html><html><head><title>${MARKERS.title}</title><meta name="description" content="${MARKERS.description}"><link rel="alternate" type="application/atom+xml" title="Feed" href="${MARKERS.feed}">${MARKERS.head}</head><body><main>${MARKERS.main}</main><script type="module" src="/_astro/x.js"></script></body></html>`;

let xss: RegistryBundle;
let real: RegistryBundle;
const tmp: string[] = [];

beforeAll(async () => {
  xss = makeBundle(await loadRegistryOrThrow('tests/fixtures/xss'));
  real = shippedBundle();
});
afterAll(async () => {
  for (const dir of tmp) await rm(dir, { recursive: true, force: true });
});

function page(bundle: RegistryBundle, slug: string): string {
  const data = indexBundle(bundle, SITE);
  const r = bundle.records.find((x) => x.canonical_slug === slug)!;
  return renderGamePage(parseShell(SHELL), r, { meta: bundle.meta, site: SITE, history: data.historyBySlug.get(slug) ?? [] });
}

/** Every tag name that opens an element in `html` (a tag injected by data would show up here). */
function openedTags(html: string): string[] {
  return [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase());
}

/** Event-handler attributes (on...) of the real tags in `html`; escaped text holds no raw `<`, so it is skipped. */
function eventAttributes(html: string): string[] {
  const out: string[] = [];
  for (const tag of html.match(/<[a-zA-Z][^>]*>/g) ?? []) {
    const withoutValues = tag.replace(/"[^"]*"/g, '""');
    for (const m of withoutValues.matchAll(/\s([a-zA-Z:-]+)/g)) if (/^on/i.test(m[1]!)) out.push(m[1]!);
  }
  return out;
}

describe('shell', () => {
  it('splits at the five markers and fills them in one pass', () => {
    const shell = parseShell(SHELL);
    expect(shell.order).toEqual(['title', 'description', 'feed', 'head', 'main']);
    // A value holding another marker is not filled again.
    const html = fillShell(shell, { title: MARKERS.main, description: 'd', feed: '/f.atom', head: '', main: 'M' });
    expect(html).toContain('href="/f.atom"');
    expect(html).toContain(`<title>${MARKERS.main}</title>`);
    expect(html).toContain('<main>M</main>');
  });

  it('refuses a shell with a missing or repeated marker, naming it', () => {
    expect(() => parseShell('<title></title>')).toThrow(
      `Game page shell is invalid: marker ${MARKERS.title} is missing; marker ${MARKERS.description} is missing; marker ${MARKERS.feed} is missing; marker ${MARKERS.head} is missing; marker ${MARKERS.main} is missing`,
    );
    expect(() => parseShell(SHELL + MARKERS.main)).toThrow(`marker ${MARKERS.main} occurs more than once`);
  });
});

describe('game page content', () => {
  it('shows the real record: stated RTP, every variant with its kind, provenance and history', () => {
    const html = page(real, 'book-of-dead');
    expect(html).toContain('<h1>Book of Dead</h1>');
    expect(html).toContain('<link rel="alternate" type="application/atom+xml" title="Feed" href="/api/feeds/game/book-of-dead.atom">');
    expect(html).toContain('<span data-stated-rtp>96.21%</span>');
    for (const v of ['84.18%', '87.25%', '91.25%', '94.25%']) expect(html).toContain(`<tr><td>${v}</td><td>Operator ladder</td>`);
    expect(html).toContain('<tr><td>96.21%</td><td>Standard · <strong>stated RTP</strong></td><td>3.79%</td>');
    expect(html).toContain('href="https://www.playngo.com/games/book-of-dead"');
    expect(html).toContain('sha256:');
    expect(html).toContain('<dt>Max win</dt><dd>5,000× stake</dd>');
    expect(html).toContain('<dt>Release year</dt><dd>2016</dd>');
    expect(html).toContain('href="/providers/playngo"');
    expect(html).toMatch(/<section data-history><h2>RTP history<\/h2><div class="table-scroll"[^>]*><table>.*<td>Stated RTP<\/td><td>—<\/td><td>96\.21%<\/td>/);
    expect(html).toContain(
      `<cite>Book of Dead (Play&#39;n GO), RTP Registry, provider-stated RTP data, CC BY 4.0, data version ${real.meta.data_version}, https://rtp.example.org/rtp/book-of-dead</cite>`,
    );
  });

  it('names the studio of a game its publisher publishes (merged Reel Kingdom records), and no studio where none is known', () => {
    expect(page(real, 'big-bass-splash')).toContain('<dt>Studio</dt><dd data-studio>Reel Kingdom</dd>');
    expect(page(real, 'book-of-dead')).not.toContain('<dt>Studio</dt>');
  });

  it('labels jurisdiction variants with their country code', () => {
    expect(page(xss, 'plain-game')).toContain('<td>94.00%</td><td>Jurisdiction (DE)</td>');
  });

  it('escapes every text from the data: no element, attribute or script comes from a name, provider, URL or note', () => {
    const shellTags = openedTags(page(real, 'book-of-dead'));
    for (const slug of ['book-of-xss', 'quote-breaker']) {
      const html = page(xss, slug);
      const tags = new Set(openedTags(html));
      for (const bad of ['img', 'script', 'svg']) {
        // The shell's own module script only; one <svg> per chart the page draws itself.
        const expected = bad === 'script' ? 1 : bad === 'svg' ? html.split('<figure class="chart-box ').length - 1 : 0;
        expect(openedTags(html).filter((t) => t === bad).length, `${slug} <${bad}>`).toBe(expected);
      }
      for (const t of tags) expect(shellTags, `${slug}: unexpected <${t}>`).toContain(t);
      expect(eventAttributes(html), slug).toEqual([]);
      expect(eventAttributes('<img src=x onerror="a"><p title="x onclick=y">')).toEqual(['onerror']); // the check itself works
      expect(html).not.toContain('</textarea><script');
    }
    expect(page(xss, 'book-of-xss')).toContain('Book of &lt;img src=x onerror=&quot;window.__xss=&#39;name&#39;;alert(1)&quot;&gt; XSS');
  });

  it('draws the RTP ladder as an SVG chart above the variants table, one labelled rung per variant', () => {
    const html = page(real, 'book-of-dead');
    const section = html.slice(html.indexOf('<section data-variants>'), html.indexOf('<section data-history>'));
    expect(section.indexOf('<figure class="chart-box ladder-chart">')).toBeLessThan(section.indexOf('<table class="ladder">'));
    expect(section.match(/<rect [^>]*class="bar( s)?"/g)).toHaveLength(5);
    // The casino whose pinned catalogue showed the stated build is named at that rung.
    expect(section).toContain('>96.21% · Standard · stated RTP · 711.nl</text>');
    expect(section).toContain('>84.18% · Operator ladder</text>');
  });

  it('draws the RTP history only for a game whose figures changed after it first appeared', () => {
    expect(page(real, 'book-of-dead')).not.toContain('history-chart');
    const changed = real.history.filter((h) => h.from !== null).map((h) => h.slug);
    expect(changed.length).toBeGreaterThan(0);
    const html = page(real, changed[0]!);
    expect(html).toContain('<figure class="chart-box history-chart">');
    expect(html).toMatch(/<desc id="history-d">Stated RTP and RTP variants per data version, oldest first: 1\.0\.0 \(2026-11-21\): stated \d+\.\d\d%/);
  });
});

describe('embed builder', () => {
  it('with default options, the code is exactly the embed_html of GET /api/rtp/{slug}', () => {
    const ctx = makeContext(real, SITE);
    for (const r of real.records.slice(0, 20).concat(xss.records)) {
      expect(embedSnippet(SITE, r.canonical_slug, r.canonical_name, DEFAULT_WIDGET_OPTIONS, real.meta.data_version)).toBe(
        embedHtml(r, ctx.site, real.meta.data_version),
      );
    }
  });

  it('renders the preview and the default code without the option controls (the page script adds them)', () => {
    const html = page(real, 'book-of-dead');
    expect(html).toContain(
      `<div class="embed-builder" data-embed-builder data-slug="book-of-dead" data-name="Book of Dead" data-version="${real.meta.data_version}" data-operators="[[&quot;711nl&quot;,&quot;711.nl&quot;]]">`,
    );
    expect(html).not.toContain('<select');
    expect(html).not.toContain('<button');
  });

  it('offers the operator line only for the casinos that observed the game, each once', () => {
    const offered = (r: GameRecord) => {
      const attr = /data-embed-builder [^>]*?(?: data-operators="([^"]*)")?>/.exec(gameMain(r, { meta: real.meta, site: SITE, history: [] }))![1];
      return attr === undefined ? [] : JSON.parse(attr.replaceAll('&quot;', '"'));
    };
    const records = real.records as GameRecord[];
    const unseen = records.find((r) => r.operators.length === 0)!;
    expect(offered(unseen)).toEqual([]);
    for (const r of records.filter((x) => x.operators.length > 0).slice(0, 50)) {
      const keys = (offered(r) as [string, string][]).map(([k]) => k);
      expect(keys.length, r.canonical_slug).toBe(new Set(keys).size);
      expect(new Set(keys), r.canonical_slug).toEqual(new Set(r.operators.map((o) => o.operator)));
    }
  });

  it('renders the default preview and its code with the same src', () => {
    const html = gameMain(real.records.find((r) => r.canonical_slug === 'book-of-dead') as GameRecord, { meta: real.meta, site: SITE, history: [] });
    const preview = /<iframe data-embed-preview src="([^"]+)"/.exec(html)![1];
    const snippetSrc = /&lt;iframe src=&quot;(.+?)&quot;/.exec(html)![1];
    expect(preview).toBe(`${SITE}/widget/rtp/book-of-dead?v=${real.meta.data_version}`);
    expect(snippetSrc).toBe(preview);
  });
});

describe('writeGamePages', () => {
  it('writes one file per game, byte-identical on a second run', async () => {
    const data = indexBundle(xss, SITE);
    const a = await mkdtemp(path.join(os.tmpdir(), 'rtp-pages-'));
    const b = await mkdtemp(path.join(os.tmpdir(), 'rtp-pages-'));
    tmp.push(a, b);
    expect(await writeGamePages(a, SHELL, data)).toBe(3);
    expect(await writeGamePages(b, SHELL, data)).toBe(3);
    const files = (await readdir(path.join(a, 'rtp'))).sort();
    expect(files).toEqual(['book-of-xss.html', 'plain-game.html', 'quote-breaker.html']);
    for (const f of files) expect(await readFile(path.join(a, 'rtp', f), 'utf8')).toBe(await readFile(path.join(b, 'rtp', f), 'utf8'));
    expect(await readFile(path.join(a, 'rtp', 'plain-game.html'), 'utf8')).toBe(page(xss, 'plain-game'));
  });

  it('fails before writing when the shell lost a marker', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-pages-'));
    tmp.push(dir);
    await expect(writeGamePages(dir, '<html></html>', indexBundle(xss, SITE))).rejects.toThrow('Game page shell is invalid');
    await expect(readdir(path.join(dir, 'rtp'))).rejects.toThrow();
  });
});

describe('sources on the game page', () => {
  it('lists every source side by side, the stating one first, a catalogue citing the provider page as that citation, and marks figures that differ', () => {
    const html = page(real, 'sweet-bonanza');
    const section = html.slice(html.indexOf('<section data-sources>'), html.indexOf('<section data-variants>'));
    const rows = [...section.matchAll(/<tr( data-stating)?><td>([^<]+)/g)].map((m) => [Boolean(m[1]), m[2]]);
    expect(rows).toEqual([
      [true, 'Hand-checked '],
      [false, 'Licensed casino&#39;s catalogue '],
      [false, 'Catalogue '],
      [false, 'Catalogue '],
      [false, 'Aggregator '],
      [false, 'Aggregator '],
    ]);
    // Each source names its origin.
    for (const origin of [
      'a Dutch-licensed casino (711.nl)',
      'the Slotfolio catalogue',
      'the calcasi affiliate site',
      'the iGaming Tools slot API (i-gaming.tools)',
      'scrapes of slot review sites',
    ])
      expect(section).toContain(`<small data-origin>from ${origin}</small>`);
    expect(section).toContain('Catalogue <small data-via>(provider page as cited by the Slotfolio catalogue, not checked here)</small>');
    expect(section).toContain('96.60% <small>(differs)</small>');
    expect(section).toContain('the sources disagree, and every figure is shown');
    expect(html).toContain('<li>Sources disagree</li>');
  });

  it("puts the source that sets the stated RTP first and says what a casino's figure is and is not", () => {
    const html = page(real, 'book-of-dead');
    expect(html).toContain(
      "the one that sets the stated RTP first, then by kind. A licensed casino's catalogue shows the build that casino runs: a second origin when it agrees, a variant when it differs, the stated RTP only where the other sources leave it open.",
    );
    expect(html).not.toContain('in order of trust');
  });

  it('says in words which branch of the evidence rule the figure meets, naming its origins', () => {
    const line = (slug: string) => /<p class="confidence"[^>]*>[^<]*<\/p>/.exec(page(real, slug))![0];
    expect(line('book-of-dead')).toBe(
      '<p class="confidence" data-confidence="verified">Verified: the catalogue of a Dutch-licensed casino (711.nl) and sources of other origins (the review site slotsscience.com, the Slotfolio catalogue, the calcasi affiliate site and scrapes of slot review sites) state this figure, and no source states a higher one.</p>',
    );
    expect(line('sweet-bonanza')).toMatch(
      /^<p class="confidence" data-confidence="corroborated">Corroborated by 2\+ sources: sources of [2-9] independent origins state this figure: [^<]+ and [^<]+\.<\/p>$/,
    );
    const single = real.records.find((r) => r.confidence === 'single_source' && r.sources.length === 1)!;
    expect(line(single.canonical_slug)).toBe(
      `<p class="confidence" data-confidence="single_source">Single source: only ${single.sources[0]!.origin} states this figure; no source of another origin confirms it.</p>`,
    );
    // Every record's line names the label it carries: the public sources give the same branch as the build's.
    const wrong = real.records.filter((r) => confidenceBasis(r.stated_rtp, r.sources).level !== r.confidence);
    expect(wrong.map((r) => r.canonical_slug)).toEqual([]);
  });
});
