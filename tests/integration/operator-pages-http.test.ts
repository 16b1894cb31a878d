// The operators on the site, as built from data/ and served by the real server: a game page's
// "Which build do casinos run?" section (only where the record has operators), each operator's page
// (its summary the operator route's own figures), the operator index, and each operator's Atom feed.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/lib/html.ts';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { paths } from '../../src/routes/paths.ts';
import { ATOM_TYPE, HTML_TYPE } from '../../src/routes/response-headers.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { type OperatorRecord, OperatorRecordSchema } from '../../src/schemas/operator.ts';
import { type Server, startServer, testDataDir } from '../helpers/server.ts';

let server: Server;
let bundle: RegistryBundle;
let operator: OperatorRecord;

beforeAll(async () => {
  bundle = makeBundle(await loadRegistryOrThrow(testDataDir()));
  server = await startServer();
  const key = bundle.operators[0]!.operator;
  operator = OperatorRecordSchema.parse(await (await fetch(`${server.url}${paths.operator(key)}`)).json());
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
});

async function get(p: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${server.url}${p}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The text of the element carrying `attr` (a `<dd data-…>` of the summary). */
function dataText(html: string, attr: string): string {
  const m = new RegExp(`<[a-z]+ ${attr}>([^<]*)<`).exec(html);
  expect(m, attr).not.toBeNull();
  return m![1]!;
}

const n = (x: number) => x.toLocaleString('en-US');

describe('game page: which build do casinos run?', () => {
  it('a game with an operator shows each one: its figure, its rung on the ladder, its source line and pinned date, a link to its page', async () => {
    for (const slug of ['book-of-dead', 'mystery-joker', 'sweet-bonanza']) {
      const r = bundle.records.find((x) => x.canonical_slug === slug)!;
      expect(r.operators.length, slug).toBeGreaterThan(0);
      const page = (await get(paths.gamePage(slug))).text;
      const section = /<section data-operators>[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
      expect(section, slug).toContain('<h2>Which build do casinos run?</h2>');
      expect(section).toContain('showed on the date its source was pinned, not a live reading');
      expect(section.match(/<li>/g)).toHaveLength(r.operators.length);
      for (const o of r.operators) {
        expect(section).toContain(`<a href="${paths.operatorPage(o.operator)}">${escapeHtml(o.display)}</a>`);
        expect(section).toContain(`<strong>${o.rtp.toFixed(2)}%</strong>`);
        expect(section).toContain(
          `${o.source.catalogue_file} #${o.source.index}</a>, pinned <time datetime="${o.source.pinned_at}">${o.source.pinned_at.slice(0, 10)}</time>`,
        );
        expect(section).toContain(o.build === 'top' ? 'the top build' : o.build === 'lower' ? 'points under the stated RTP' : 'over the stated RTP');
        // The ladder names the casino at the rung its catalogue showed.
        expect(page).toMatch(new RegExp(`<text [^>]*>${o.rtp.toFixed(2)}% · [^<]* · ${escapeHtml(o.display).replace('.', '\\.')}</text>`));
      }
    }
  });

  it('a game no casino is known to list has no such section and no casino on its ladder', async () => {
    const r = bundle.records.find((x) => x.operators.length === 0)!;
    const page = (await get(paths.gamePage(r.canonical_slug))).text;
    expect(page).toContain('data-variants');
    expect(page).not.toContain('data-operators');
    expect(page).not.toContain('Which build do casinos run?');
  });
});

describe('operator pages', () => {
  it("an operator's page shows its meta and the operator route's summary figures, as pinned on its date", async () => {
    const m = operator.meta;
    const res = await get(paths.operatorPage(m.operator));
    expect(res.status).toBe(200);
    expect(res.type).toBe(HTML_TYPE);
    const html = res.text;
    const s = operator.summary;
    expect(dataText(html, 'data-games-observed')).toBe(n(s.games_observed));
    expect(dataText(html, 'data-at-top')).toBe(n(s.at_top));
    expect(dataText(html, 'data-at-lower')).toBe(n(s.at_lower));
    expect(dataText(html, 'data-at-higher')).toBe(n(s.at_higher));
    expect(dataText(html, 'data-gap-mean')).toBe(s.gap_mean === null ? '—' : `${s.gap_mean.toFixed(2)} points`);
    expect(dataText(html, 'data-gap-max')).toBe(s.gap_max === null ? '—' : `${s.gap_max.toFixed(2)} points`);
    // The chart's bands count every lower build the gaps are taken over.
    const bands = [...html.matchAll(/<td class="num" data-gap-count>([\d,]+)<\/td>/g)].map((x) => Number(x[1]!.replace(/,/g, '')));
    expect(bands.reduce((a, b) => a + b, 0)).toBe(operator.games.reduce((k, g) => k + g.builds.filter((b) => b.build === 'lower').length, 0));
    expect(html).toMatch(/<svg class="chart"[^>]* role="img" aria-labelledby="gaps-t gaps-d">/);
    for (const p of s.by_provider) {
      const row = new RegExp(`<tr data-provider="${p.provider}">.*?</tr>`).exec(html)?.[0] ?? '';
      expect(row, p.provider).toContain(`href="${paths.providerPage(p.provider)}"`);
      const cells = [...row.matchAll(/<td class="num">([\d,]+)<\/td>/g)].map((x) => x[1]);
      expect(cells, p.provider).toEqual([p.games_observed, p.at_top, p.at_lower, p.at_higher].map(n));
    }
    expect(html).toContain(`<dt>Market</dt><dd>${m.market}</dd>`);
    expect(html).toContain(`<dt>Licensing authority</dt><dd>${m.licensing_authority ?? 'not stated by its source'}</dd>`);
    expect(html).toContain(`href="${m.website}"`);
    expect(html).toContain(`${escapeHtml(operator.note)} As pinned on ${m.sources[0]!.pinned_at.slice(0, 10)}.`);
    expect(html).toContain(
      `<link rel="alternate" type="application/atom+xml" title="Builds observed at ${escapeHtml(m.display)} (Atom)" href="${paths.operatorFeed(m.operator)}">`,
    );
    expect(html).toContain(`<a href="${paths.operatorFeed(m.operator)}" data-feed>`);
  });

  it('the operator index links every operator, and the navigation links the index', async () => {
    const index = await get(paths.pages.operators);
    expect(index.status).toBe(200);
    for (const o of bundle.operators) expect(index.text).toContain(`href="${paths.operatorPage(o.operator)}"`);
    expect((await get(paths.gamePage('book-of-dead'))).text).toContain(`<a href="${paths.pages.operators}">Operators</a>`);
  });

  it('an unknown operator is the not-found page', async () => {
    for (const p of [paths.operatorPage('no-such-casino'), paths.operatorPage('NL')]) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(res.type).toBe(HTML_TYPE);
    }
  });
});

describe('operator feeds', () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#text',
    isArray: (name) => ['entry', 'link'].includes(name),
  });
  const textOf = (v: unknown) => String(typeof v === 'object' && v !== null ? (v as Record<string, unknown>)['#text'] : v);

  it('each operator has an Atom feed: well-formed, one entry per date its source was pinned, dated with it', async () => {
    const m = operator.meta;
    const res = await get(paths.operatorFeed(m.operator));
    expect(res.status).toBe(200);
    expect(res.type).toBe(ATOM_TYPE);
    expect(XMLValidator.validate(res.text)).toBe(true);
    const feed = (parser.parse(res.text) as { feed: Record<string, unknown> }).feed;
    const entries = feed.entry as Array<Record<string, unknown>>;
    const dates = [...new Set(m.sources.map((x) => x.pinned_at))].sort().reverse();
    expect(entries.map((e) => e.updated)).toEqual(dates);
    expect(feed.updated).toBe(dates[0]);
    const links = (e: Record<string, unknown>) => e.link as Array<Record<string, string>>;
    expect(links(feed).find((l) => l['@rel'] === 'self')!['@href']).toMatch(new RegExp(`${paths.operatorFeed(m.operator).replace(/\./g, '\\.')}$`));
    const only = entries[0]!;
    expect(links(only).find((l) => l['@rel'] === 'alternate')!['@href']).toMatch(new RegExp(`${paths.operatorPage(m.operator)}$`));
    const summary = textOf(only.summary);
    expect(summary).toContain('not a live reading');
    if (dates.length === 1) {
      // One pinned date: its entry summarises the whole record, with the route's figures.
      expect(textOf(only.title)).toContain(`${n(operator.summary.games_observed)} games observed`);
      expect(summary).toContain(`${n(operator.summary.at_top)} at the top build`);
      expect(summary).toContain(`${n(operator.summary.at_lower)} at a lower build`);
      expect(summary).toContain(`${n(operator.summary.at_higher)} above the stated RTP`);
    }
  });

  it('an unknown operator feed is a JSON 404', async () => {
    const res = await get(paths.operatorFeed('no-such-casino'));
    expect(res.status).toBe(404);
    ErrorBodySchema.parse(JSON.parse(res.text));
  });
});
