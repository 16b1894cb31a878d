// The registry pages and the OpenAPI document as built from data/ and served by the real server:
// one page per game, provider pages, about, the pre-rendered home page, no leftover shell.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELL_FILE } from '../../src/emit/game-pages.ts';
import { escapeHtml } from '../../src/lib/html.ts';
import { openApiJson } from '../../src/openapi/document.ts';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { MARKERS } from '../../src/site/game-page.ts';
import { listItemText } from '../../src/site/list-item.ts';
import { type Server, startServer, testDataDir, testOutDir } from '../helpers/server.ts';

/** What the "Which build do casinos run?" section and the Operators link add to the largest page, measured (gzip bytes). */
const OPERATORS_SECTION_GZIP = 161;
/** Largest compressed game page allowed: the pages stay small at 50k games. */
const GAME_PAGE_GZIP_BUDGET = 4 * 1024 + OPERATORS_SECTION_GZIP;

let out: string;
let server: Server;
let bundle: RegistryBundle;

beforeAll(async () => {
  bundle = makeBundle(await loadRegistryOrThrow(testDataDir()));
  out = testOutDir(); // the build under test (tests/helpers/global-setup.ts)
  // Every game page is fetched: more than the public per-client budget.
  server = await startServer({ env: { RATE_LIMIT: '1000000' } });
});

afterAll(async () => {
  await server?.stop();
});

async function get(p: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${server.url}${p}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('game pages', () => {
  it('one file per game and nothing else under rtp/; the shell is gone', async () => {
    const files = (await readdir(path.join(out, 'client/rtp'))).sort();
    expect(files).toEqual(bundle.records.map((r) => `${r.canonical_slug}.html`).sort());
    await expect(readFile(path.join(out, 'client', SHELL_FILE))).rejects.toThrow();
    expect((await get(`/${SHELL_FILE.replace(/\.html$/, '')}`)).status).toBe(404);
  });

  it('every page is served as HTML, filled (no marker left), titled with the game, and small', async () => {
    let largest = 0;
    for (const r of bundle.records) {
      const res = await get(`/rtp/${r.canonical_slug}`);
      expect(res.status, r.canonical_slug).toBe(200);
      expect(res.type).toBe('text/html; charset=utf-8');
      for (const marker of Object.values(MARKERS)) expect(res.text).not.toContain(marker);
      expect(res.text).toContain(`data-slug="${r.canonical_slug}"`);
      expect(res.text).toContain(`<title>${escapeHtml(r.canonical_name)} RTP `);
      largest = Math.max(largest, gzipSync(res.text).length);
    }
    expect(largest).toBeLessThanOrEqual(GAME_PAGE_GZIP_BUDGET);
  });

  it('links a stylesheet and a module script that the server serves', async () => {
    const page = (await get('/rtp/book-of-dead')).text;
    const css = /<link rel="stylesheet" href="([^"]+)"/.exec(page)![1]!;
    const js = /<script type="module" src="([^"]+)"/.exec(page)![1]!;
    for (const asset of [css, js]) {
      expect(asset.startsWith('/_astro/'), asset).toBe(true);
      expect((await fetch(`${server.url}${asset}`)).status, asset).toBe(200);
    }
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script copied into every page
  });

  it('an unknown game is a 404', async () => {
    expect((await get('/rtp/no-such-game')).status).toBe(404);
  });
});

describe('other pages', () => {
  it('home page pre-renders what GET /api/rtp/list answers by default', async () => {
    const home = (await get('/')).text;
    const api = JSON.parse((await get('/api/rtp/list')).text) as { items: Parameters<typeof listItemText>[0][] };
    const hrefs = [...home.matchAll(/<a class="name" href="([^"]+)">/g)].map((m) => m[1]);
    expect(hrefs).toEqual(api.items.map((r) => listItemText(r).href));
    expect(home).toContain(`Data version <strong>${bundle.meta.data_version}</strong>`);
  });

  it('home page shows what the registry holds, counted from the records', async () => {
    const home = (await get('/')).text;
    const n = (x: number) => x.toLocaleString('en-US');
    const count = (badge: string) => bundle.records.filter((r) => r.badges.includes(badge as never)).length;
    const level = (c: string) => bundle.records.filter((r) => r.confidence === c).length;
    expect(home).toContain(
      `<p data-counts><small>${n(bundle.records.length)} games · ${n(bundle.providers.length)} providers · ${n(level('verified'))} verified · ` +
        `${n(level('corroborated'))} corroborated by two or more sources · ${n(level('single_source'))} from a single source · ${n(count('sources_disagree'))} where sources disagree`,
    );
    expect(bundle.records.length).toBeGreaterThanOrEqual(5500);
  });

  it('every provider has a page listing all of its games', async () => {
    for (const p of bundle.providers) {
      const res = await get(`/providers/${p.provider}`);
      expect(res.status, p.provider).toBe(200);
      const games = bundle.records.filter((r) => r.provider === p.provider);
      for (const g of games) expect(res.text, `${p.provider}: ${g.canonical_slug}`).toContain(`href="/rtp/${g.canonical_slug}"`);
    }
    const index = (await get('/providers')).text;
    for (const p of bundle.providers) expect(index).toContain(`href="/providers/${p.provider}"`);
  });

  it('the about page explains stated RTP, verification, the licence and the API', async () => {
    const about = (await get('/about')).text;
    for (const text of ['not live or measured', 'verified_rtp', 'variants_tracked', 'CC BY 4.0', 'Cite the dataset as', 'href="/api/openapi.json"']) {
      expect(about).toContain(text);
    }
  });
});

describe('GET /api/openapi.json', () => {
  it('the documented 404 bodies are the ones the server sends', async () => {
    const doc = JSON.parse(openApiJson()) as {
      paths: Record<string, { get: { responses: Record<string, { content?: Record<string, { example?: unknown }> }> } }>;
    };
    const cases: Array<[string, string]> = [
      ['/api/rtp/{slug}', '/api/rtp/no-such-game'],
      ['/api/rtp/provider/{provider}', '/api/rtp/provider/no-such-provider'],
      ['/api/widget/rtp/{slug}', '/api/widget/rtp/no-such-game'],
    ];
    for (const [template, url] of cases) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(JSON.parse(res.text), url).toEqual(doc.paths[template]!.get.responses['404']!.content!['application/json']!.example);
    }
  });

  it('serves the generated document as JSON, valid OpenAPI 3.1', async () => {
    const res = await get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(openApiJson());
    expect(await new Validator().validate(JSON.parse(res.text))).toEqual({ valid: true });
  });
});
