// Citable data and corrections: CITATION.cff current and well-formed, the schema.org Dataset
// JSON-LD expanded by a JSON-LD processor (types and required properties as schema.org IRIs), the
// game page's cite block naming the data version, the CORRECTIONS_URL link, and the feeds' WebSub hub.
import { readFile } from 'node:fs/promises';
import jsonld from 'jsonld';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CITATION_FILE, expectedCitation } from '../../scripts/citation.ts';
import { feedIndex, gameFeed, registryFeed } from '../../src/emit/feeds.ts';
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { websubHub } from '../../src/routes/urls.ts';
import { correctionsTemplate, correctionText, correctionUrl } from '../../src/site/corrections.ts';
import { citationCff, datasetJsonLd, jsonLdScript } from '../../src/site/dataset.ts';
import { gameMain } from '../../src/site/game-page.ts';
import { indexBundle } from '../../src/site/registry.ts';
import { expandDataset, SCHEMA } from '../helpers/jsonld.ts';
import { shippedBundle } from '../helpers/shipped.ts';

const SITE = 'https://rtp.example.org';
/** What a browser reads from an attribute escaped by src/lib/html.ts. */
const unescapeAttr = (v: string) =>
  v.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
const TEMPLATE = 'https://forge.example.org/registry/issues/new?title={title}&body={body}&labels=correction';
let bundle: RegistryBundle;
beforeAll(async () => {
  bundle = shippedBundle();
});

describe('CITATION.cff', () => {
  it('is current with data/registry.json (npm run citation)', async () => {
    expect(await readFile(CITATION_FILE, 'utf8')).toBe(await expectedCitation());
  });

  it('is YAML with the keys CFF 1.2.0 requires, naming the data version and licence', async () => {
    const cff = parseYaml(await readFile(CITATION_FILE, 'utf8')) as Record<string, unknown>;
    expect(cff['cff-version']).toBe('1.2.0');
    expect(cff.type).toBe('dataset');
    for (const key of ['message', 'title']) expect(typeof cff[key]).toBe('string');
    expect(cff.authors).toEqual([{ name: 'RTP Registry' }]);
    expect(cff.version).toBe(bundle.meta.data_version);
    expect(cff.license).toBe('CC-BY-4.0');
    expect(cff['date-released']).toBe(bundle.meta.frozen_at.slice(0, 10));
  });

  it('quotes every value, so a hostile attribution cannot add keys', () => {
    const text = citationCff({ ...bundle.meta, data_version: '1.0.0' });
    expect(parseYaml(text)).toMatchObject({ version: '1.0.0' });
  });
});

describe('schema.org Dataset JSON-LD', () => {
  it('expands to a schema.org Dataset with version, licence, dates, creator and the three dumps', async () => {
    const doc = datasetJsonLd(bundle.meta, SITE, bundle.records.length);
    const ds = await expandDataset(doc);
    expect(ds[`${SCHEMA}version`]).toEqual([{ '@value': bundle.meta.data_version }]);
    expect(ds[`${SCHEMA}license`]).toEqual([{ '@id': bundle.meta.license_url }]);
    expect(ds[`${SCHEMA}dateModified`]).toEqual([{ '@value': bundle.meta.frozen_at }]);
    const creator = ds[`${SCHEMA}creator`] as Array<Record<string, unknown>>;
    expect(creator[0]!['@type']).toEqual([`${SCHEMA}Organization`]);
    const dist = ds[`${SCHEMA}distribution`] as Array<Record<string, unknown>>;
    expect(dist.map((d) => d['@type'])).toEqual([[`${SCHEMA}DataDownload`], [`${SCHEMA}DataDownload`], [`${SCHEMA}DataDownload`]]);
    expect(dist.map((d) => (d[`${SCHEMA}encodingFormat`] as Array<{ '@value': string }>)[0]!['@value'])).toEqual([
      'text/csv',
      'application/json',
      'application/x-ndjson',
    ]);
    expect(dist.map((d) => (d[`${SCHEMA}contentUrl`] as Array<{ '@id': string }>)[0]!['@id'])).toEqual([
      `${SITE}/api/rtp/dump/registry.csv`,
      `${SITE}/api/rtp/dump/registry.json`,
      `${SITE}/api/rtp/dump/registry.ndjson`,
    ]);
  });

  it('is embedded so no text can close the script element', async () => {
    const html = jsonLdScript({ '@context': 'https://schema.org', name: '</script><script>alert(1)</script>' });
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(html.slice(html.indexOf('>') + 1, -'</script>'.length))).toMatchObject({ name: '</script><script>alert(1)</script>' });
    // The processor reads it too.
    expect(
      await jsonld.expand(JSON.parse(html.slice(html.indexOf('>') + 1, -'</script>'.length)), {
        documentLoader: async () => ({ documentUrl: 'x', document: { '@context': { '@vocab': SCHEMA } } }),
      }),
    ).toHaveLength(1);
  });
});

describe('game page: cite block and corrections', () => {
  const main = (corrections?: string | null) => {
    const data = indexBundle(bundle, SITE);
    const r = bundle.records.find((x) => x.canonical_slug === 'book-of-dead')!;
    return gameMain(r, { meta: bundle.meta, site: SITE, history: data.historyBySlug.get(r.canonical_slug) ?? [], corrections });
  };

  it('names the data version in the cite block', () => {
    const cite = /<section data-cite>.*?<\/section>/.exec(main())![0];
    expect(cite).toContain(`<data data-data-version value="${bundle.meta.data_version}">${bundle.meta.data_version}</data>`);
    expect(cite).toContain(`data version ${bundle.meta.data_version}`);
  });

  it('renders no correction link without CORRECTIONS_URL', () => {
    expect(main()).not.toContain('data-correction');
    expect(main(null)).not.toContain('Report a correction');
    expect(correctionsTemplate({})).toBeNull();
    expect(correctionsTemplate({ CORRECTIONS_URL: '  ' })).toBeNull();
  });

  it('links a prefilled form: the game, its figures and its sources, every value encoded', () => {
    const html = main(TEMPLATE);
    const href = /<a href="([^"]+)" rel="nofollow noopener" data-correction>Report a correction<\/a>/.exec(html)![1]!;
    const url = new URL(unescapeAttr(href));
    expect(url.origin + url.pathname).toBe('https://forge.example.org/registry/issues/new');
    expect(url.searchParams.get('labels')).toBe('correction');
    expect(url.searchParams.get('title')).toBe("Correction: Book of Dead (Play'n GO) RTP");
    const body = url.searchParams.get('body')!;
    const r = bundle.records.find((x) => x.canonical_slug === 'book-of-dead')!;
    expect(body).toContain(`Game: Book of Dead (Play'n GO), slug book-of-dead`);
    expect(body).toContain(`Page: ${SITE}/rtp/book-of-dead`);
    expect(body).toContain(`Data version: ${bundle.meta.data_version}`);
    expect(body).toContain('Stated RTP: 96.21%');
    for (const s of r.sources) expect(body).toContain(s.url);
    for (const v of r.rtp_variants) expect(body).toContain(`${v.toFixed(2)}%`);
  });

  it('cannot add parameters through the game data', () => {
    const r = { ...bundle.records[0]!, canonical_name: 'A&b=c#d' };
    const url = new URL(correctionUrl('https://forge.example.org/new?t={title}&n={name}', r, `${SITE}/rtp/x`, '1.0.0'));
    expect([...url.searchParams.keys()]).toEqual(['t', 'n']);
    expect(url.searchParams.get('n')).toBe('A&b=c#d');
    expect(url.hash).toBe('');
    expect(correctionText(r, `${SITE}/rtp/x`, '1.0.0').title).toContain('A&b=c#d');
  });

  it('rejects a bad template with one message naming the fix', () => {
    expect(() => correctionsTemplate({ CORRECTIONS_URL: 'javascript:alert(1)' })).toThrow(
      'CORRECTIONS_URL is invalid: it is not an absolute http(s) URL. Set it to a URL template such as https://github.com/OWNER/REPO/issues/new?title={title}&body={body}, or leave it unset to render no correction link.',
    );
    expect(() => correctionsTemplate({ CORRECTIONS_URL: 'ftp://x/{what}' })).toThrow(
      'CORRECTIONS_URL is invalid: it is not an absolute http(s) URL; it uses unknown placeholder(s) {what} (known: {title}, {body}, {slug}, {name}, {provider}, {page_url}, {data_version}).',
    );
  });
});

describe('WebSub hub in the feeds', () => {
  it('names the hub in every feed when WEBSUB_HUB is set, and none without', () => {
    const hub = websubHub({ WEBSUB_HUB: 'https://hub.example.org/' })!;
    const withHub = feedIndex(bundle, SITE, hub);
    const r = bundle.records[0]!;
    expect(registryFeed(withHub)).toContain('<link rel="hub" href="https://hub.example.org/"/>');
    expect(gameFeed(withHub, r)).toContain('<link rel="hub" href="https://hub.example.org/"/>');
    expect(registryFeed(feedIndex(bundle, SITE, null))).not.toContain('rel="hub"');
    expect(websubHub({})).toBeNull();
  });

  it('rejects a hub that is not an http(s) URL, naming the fix', () => {
    expect(() => websubHub({ WEBSUB_HUB: 'hub.example.org' })).toThrow('WEBSUB_HUB must be an absolute http(s) URL of a WebSub hub');
  });
});
