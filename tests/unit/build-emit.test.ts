import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderDumps } from '../../src/emit/dumps.ts';
import { assertValidBuild, prepareBuild, renderAll, serialise, validateBuild, writeBuild } from '../../src/emit/emit.ts';
import { HEADER_RULES, HEADERS_FILE, pageRules, parseHeadersFile, renderHeadersFile, staticHeaders } from '../../src/emit/headers.ts';
import { renderNginxConf } from '../../src/emit/nginx.ts';
import { REDIRECTS_FILE, renderRedirectsFile } from '../../src/emit/redirects.ts';
import { stagingDirFor, startStagedWrite, topFamilyDirs } from '../../src/emit/staging.ts';
import { RegistryBundleSchema } from '../../src/registry/bundle.ts';
import type { Registry } from '../../src/registry/load.ts';
import { classify, dumpFiles } from '../../src/routes/paths.ts';
import { CACHE_HOUR, HTML_TYPE, JSON_TYPE } from '../../src/routes/response-headers.ts';
import { POLICIES } from '../../src/routes/routes.ts';
import { servedFiles } from '../../src/routes/served-files.ts';
import type { HistoryEntry } from '../../src/schemas/authoring.ts';
import { BUILD_INFO_FILE, BUNDLE_FILE } from '../../src/schemas/dist.ts';
import { SlotRecordSchema } from '../../src/schemas/slot.ts';
import { FIXTURE_GAMES, FIXTURE_META, FIXTURE_PROVIDERS } from '../fixtures/registry.ts';
import { SERVED_FIXTURE } from '../fixtures/served-files.ts';

const SITE = 'https://rtp.example.org';
const registry = (history: HistoryEntry[] = []): Registry => ({
  dir: '/nowhere',
  meta: FIXTURE_META,
  providers: FIXTURE_PROVIDERS,
  games: [...FIXTURE_GAMES].sort((a, b) => (a.canonical_slug < b.canonical_slug ? -1 : 1)),
  history,
});
/** The log of a studio's record of a fixture game, published then merged into it (src/registry/freeze.ts writes such entries). */
const MERGED_SLUG = `${FIXTURE_GAMES[0]!.canonical_slug}-studio`;
const mergedHistory = (): HistoryEntry[] => {
  const g = FIXTURE_GAMES[0]!;
  const at = (data_version: string, frozen_at: string, from: number | null, to: number | null): HistoryEntry => ({
    data_version,
    frozen_at,
    slug: MERGED_SLUG,
    provider: g.provider,
    field: 'stated_rtp',
    from,
    to,
  });
  return [
    at('0.9.0', '2026-11-01T00:00:00Z', null, g.stated_rtp),
    {
      ...at(FIXTURE_META.data_version, FIXTURE_META.frozen_at, g.stated_rtp, null),
      reason: `merged into ${g.canonical_slug}: the same game`,
      merged_into: g.canonical_slug,
    },
  ];
};

const temps: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'rtp-emit-'));
  temps.push(d);
  return d;
}
afterAll(async () => {
  for (const d of temps) await rm(d, { recursive: true, force: true });
});

/** Every file under `dir`, relative, sorted, with its bytes. */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out.set(r, readFileSync(path.join(dir, r), 'utf8'));
    }
  };
  walk('');
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

describe('validateBuild', () => {
  it('passes valid data', () => {
    expect(validateBuild(prepareBuild(registry(), SITE))).toEqual([]);
  });

  it('names the file (slug) and field of every failing response and throws once with all of them', () => {
    const prep = prepareBuild(registry(), SITE);
    prep.bundle.records[0]!.snapshot_id = 'sha256:nope';
    prep.bundle.records[1]!.rtp_variants = [];
    const problems = validateBuild(prep);
    expect(problems).toEqual([
      { file: 'api/rtp/blackjack-classic', field: 'snapshot_id', reason: expect.stringMatching(/Invalid string/) },
      { file: 'api/widget/rtp/book-of-aurora', field: 'rtp_variants', reason: expect.stringMatching(/>=1 items/) },
    ]);
    expect(() => assertValidBuild(prep)).toThrow(
      /^Invalid build output \(2 problems\):\napi\/rtp\/blackjack-classic: snapshot_id: .*\napi\/widget\/rtp\/book-of-aurora: rtp_variants: /,
    );
    try {
      assertValidBuild(prep);
    } catch (err) {
      expect((err as Error).name).toBe('BuildOutputError');
    }
  });
});

describe('renderAll', () => {
  it('emits five files per game and two per provider, compact JSON in record key order without trailing newline', () => {
    const prep = prepareBuild(registry(), SITE);
    const out = [...renderAll(prep)];
    expect(out).toHaveLength(FIXTURE_GAMES.length * 5 + FIXTURE_PROVIDERS.length * 2);
    expect(out.slice(0, 5).map((f) => f.file)).toEqual([
      'api/rtp/blackjack-classic',
      'api/widget/rtp/blackjack-classic',
      'widget/rtp/blackjack-classic.html',
      'api/badge/rtp/blackjack-classic.svg',
      'api/feeds/game/blackjack-classic.atom',
    ]);
    expect(out.at(-1)!.file).toBe('api/feeds/provider/copper-reel.atom');
    const slot = out[0]!.text;
    expect(slot.startsWith('{"canonical_slug":"blackjack-classic","canonical_name":"Blackjack Classic",')).toBe(true);
    expect(slot).not.toMatch(/\n|": /);
    expect(SlotRecordSchema.parse(JSON.parse(slot))).toEqual(JSON.parse(slot));
    expect(serialise({ b: 1, a: [1.5, null] })).toBe('{"b":1,"a":[1.5,null]}');
  });
});

describe('_headers', () => {
  const rules = parseHeadersFile(renderHeadersFile());

  it('gives every static family its Content-Type, CORS and Cache-Control from src/routes/routes.ts', () => {
    expect([...rules.keys()]).toEqual(HEADER_RULES.map((r) => r.pattern));
    expect(Object.fromEntries(rules.get('/api/rtp/:slug')!)).toEqual({
      'content-type': JSON_TYPE,
      'access-control-allow-origin': '*',
      'cache-control': CACHE_HOUR,
      'x-content-type-options': 'nosniff',
    });
    expect(rules.get('/widget/rtp/:slug')!.get('content-type')).toBe(HTML_TYPE);
    expect(rules.get('/widget/rtp/:slug')!.get('content-security-policy')).toBe(POLICIES.widget.headers!['Content-Security-Policy']);
    for (const pattern of ['/api/rtp/provider/:provider', '/api/widget/rtp/:slug']) {
      expect(rules.get(pattern)!.get('content-type')).toBe(JSON_TYPE);
      expect(rules.get(pattern)!.get('cache-control')).toBe(CACHE_HOUR);
    }
    expect(rules.get('/_astro/*')!.has('content-type')).toBe(false);
    expect(staticHeaders('slot')[0]).toEqual(['Content-Type', JSON_TYPE]);
  });

  it('never matches one URL with two rules (CDNs would join duplicate values)', () => {
    const toRegex = (p: string) =>
      new RegExp(
        `^${p
          .replace(/[.]/g, '\\.')
          .replace(/:[a-z]+/g, '[^/]+')
          .replace(/\*/g, '.*')}$`,
      );
    const urls = [
      '/api/rtp/book-of-dead',
      '/api/rtp/provider/netent',
      '/api/widget/rtp/book-of-dead',
      '/widget/rtp/book-of-dead',
      '/api/openapi.json',
      '/_astro/site.abc.css',
      '/api/rtp/dump/registry.csv',
      '/api/rtp/dump/registry.ndjson',
      '/api/rtp/dump/registry.json',
      '/api/rtp/dump/datapackage.json',
      '/api/rtp/dump/changes/1.0.0.json',
      '/llms.txt',
      '/api/badge/rtp/book-of-dead.svg',
      '/api/feeds/rtp.atom',
      '/api/feeds/provider/netent.atom',
      '/api/feeds/game/book-of-dead.atom',
    ];
    for (const url of urls) {
      const matching = HEADER_RULES.filter((r) => toRegex(r.pattern).test(url));
      expect(matching, url).toHaveLength(1);
      expect(matching[0]!.family, url).toBe(classify(url));
    }
    // /api/rtp/removed is a file in the slots' folder: the slot rule gives it the dump family's headers.
    const removed = HEADER_RULES.filter((r) => toRegex(r.pattern).test('/api/rtp/removed'));
    expect(removed.map((r) => r.family)).toEqual(['slot']);
    expect(staticHeaders('slot')).toEqual(staticHeaders('dump'));
    expect(parseHeadersFile(renderHeadersFile()).get('/api/rtp/dump/registry.csv')!.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
  });
});

describe('_headers page rules', () => {
  const served = SERVED_FIXTURE;
  const text = renderHeadersFile(pageRules(served), 'https://rtp.example.org');
  const rules = parseHeadersFile(text);

  it('gives every page, and the game pages pattern, the CSP and X-Frame-Options the server sends, with the site origin', () => {
    expect(pageRules(served).map((r) => r.pattern)).toEqual(['/rtp/:slug', '/', '/about', '/favicon.svg', '/providers/netent']);
    for (const pattern of ['/rtp/:slug', '/', '/about']) {
      const h = rules.get(pattern)!;
      expect(h.get('content-type')).toBe(HTML_TYPE);
      expect(h.get('x-frame-options')).toBe('DENY');
      expect(h.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(h.get('content-security-policy')).toContain("frame-src 'self' https://rtp.example.org;");
      expect(h.get('cache-control')).toBe(POLICIES.page.cacheControl);
    }
    expect(rules.get('/favicon.svg')!.get('content-type')).toBe('image/svg+xml');
    // Files of other families keep their own rules only: one rule per URL.
    expect(rules.has('/api/openapi.json') && rules.get('/api/openapi.json')!.has('x-frame-options')).toBe(false);
    expect(rules.has('/llms.txt') && rules.get('/llms.txt')!.has('x-frame-options')).toBe(false);
    expect([...rules.keys()].filter((k) => k === '/')).toHaveLength(1);
  });

  it('never gives the widget, which is made to be framed, a frame rule', () => {
    expect(rules.get('/widget/rtp/:slug')!.has('x-frame-options')).toBe(false);
    expect(rules.get('/widget/rtp/:slug')!.get('content-security-policy')).not.toContain('frame-ancestors');
  });
});

describe('_redirects', () => {
  it('sends every URL of a merged slug served from a file to the same URL of its survivor, one 301 line each, in the order of the merged slugs (slug order)', () => {
    const text = renderRedirectsFile(
      new Map([
        ['a-studio', 'a'],
        ['b-studio', 'b'],
      ]),
    );
    const lines = text.split('\n');
    expect(lines.slice(0, 2).every((l) => l.startsWith('# '))).toBe(true);
    expect(lines.slice(2)).toEqual([
      '/api/widget/rtp/a-studio /api/widget/rtp/a 301',
      '/api/badge/rtp/a-studio.svg /api/badge/rtp/a.svg 301',
      '/api/feeds/game/a-studio.atom /api/feeds/game/a.atom 301',
      '/api/rtp/a-studio /api/rtp/a 301',
      '/widget/rtp/a-studio /widget/rtp/a 301',
      '/rtp/a-studio /rtp/a 301',
      '/api/widget/rtp/b-studio /api/widget/rtp/b 301',
      '/api/badge/rtp/b-studio.svg /api/badge/rtp/b.svg 301',
      '/api/feeds/game/b-studio.atom /api/feeds/game/b.atom 301',
      '/api/rtp/b-studio /api/rtp/b 301',
      '/widget/rtp/b-studio /widget/rtp/b 301',
      '/rtp/b-studio /rtp/b 301',
      '',
    ]);
    // Nothing merged: the comment alone (the file is always there, so every build has the same files).
    expect(
      renderRedirectsFile(new Map())
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('#')),
    ).toEqual([]);
  });

  it('takes the merged slugs from the history log, as the server does', () => {
    const g = FIXTURE_GAMES[0]!;
    expect([...prepareBuild(registry(mergedHistory()), SITE).merged]).toEqual([[MERGED_SLUG, g.canonical_slug]]);
    expect(prepareBuild(registry(), SITE).merged.size).toBe(0);
  });
});

describe('writeBuild', () => {
  it('writes the families, _headers, _redirects, the registry bundle and build-info; twice gives identical bytes', async () => {
    const [a, b] = [await tempDir(), await tempDir()];
    for (const dir of [a, b]) {
      const count = await writeBuild(prepareBuild(registry(mergedHistory()), SITE), path.join(dir, 'client'), path.join(dir, 'server'));
      expect(count).toBe(
        FIXTURE_GAMES.length * 5 + FIXTURE_PROVIDERS.length * 2 + 5 + renderDumps(prepareBuild(registry(mergedHistory()), SITE).bundle, SITE).length,
      );
    }
    const ta = tree(a);
    expect(ta).toEqual(tree(b));
    expect([...ta.keys()].filter((f) => f.startsWith('client/widget/'))).toHaveLength(FIXTURE_GAMES.length);
    expect(ta.get(`client/${HEADERS_FILE}`)).toBe(renderHeadersFile(pageRules(servedFiles(path.join(a, 'client'))), SITE));
    const merged = new Map([[MERGED_SLUG, FIXTURE_GAMES[0]!.canonical_slug]]);
    expect(ta.get(`client/${REDIRECTS_FILE}`)).toBe(renderRedirectsFile(merged));
    expect(ta.get(`client/${REDIRECTS_FILE}`)).toContain(`/api/rtp/${MERGED_SLUG} /api/rtp/${FIXTURE_GAMES[0]!.canonical_slug} 301\n`);
    expect(ta.get('edge/nginx.conf')).toBe(renderNginxConf(servedFiles(path.join(a, 'client')), SITE, merged));
    expect(ta.get('edge/nginx.conf')).toContain(`location = "/api/rtp/${MERGED_SLUG}" {`);
    expect(existsSync(path.join(a, 'client/api/rtp/provider/aurora-games'))).toBe(true);
    const bundle = RegistryBundleSchema.parse(JSON.parse(ta.get(`server/${BUNDLE_FILE}`)!));
    expect(bundle.records.map((r) => r.canonical_slug)).toEqual(registry().games.map((g) => g.canonical_slug));
    expect(JSON.parse(ta.get(`server/${BUILD_INFO_FILE}`)!)).toEqual({
      format: 1,
      site: SITE,
      data_version: '1.0.0',
      frozen_at: '2026-11-21T00:00:00Z',
      games: 6,
      providers: 3,
    });
  });
});

describe('staged write (worker thread, then moved into dist/client)', () => {
  const workerFile = new URL('../../src/emit/write-worker.ts', import.meta.url);

  it('writes the same family files as writeBuild, into place, and leaves no staging folder', async () => {
    const [direct, staged] = [await tempDir(), await tempDir()];
    const prep = prepareBuild(registry(), SITE);
    await writeBuild(prep, path.join(direct, 'client'), path.join(direct, 'server'));
    const out = path.join(staged, 'dist');
    const write = startStagedWrite(serialise(prep.bundle), SITE, out, workerFile);
    expect(existsSync(stagingDirFor(out))).toBe(true);
    expect(await write.done).toBe(FIXTURE_GAMES.length * 5 + FIXTURE_PROVIDERS.length * 2);
    write.moveInto(path.join(out, 'client'));
    expect(existsSync(stagingDirFor(out))).toBe(false);
    // The dumps are written after Astro (writeExtras), not by the staged writer.
    const isDump = (f: string) => f.startsWith('client/api/rtp/dump/') || f === `client/${dumpFiles.removed}` || f === `client/${dumpFiles.llms}`;
    const families = (t: Map<string, string>) => new Map([...t].filter(([f]) => !isDump(f) && topFamilyDirs().some((d) => f.startsWith(`client/${d}/`))));
    expect(families(tree(out))).toEqual(families(tree(direct)));
    expect(families(tree(out)).size).toBe(FIXTURE_GAMES.length * 5 + FIXTURE_PROVIDERS.length * 2);
  });

  it('rejects when the worker fails', async () => {
    const out = path.join(await tempDir(), 'dist');
    const write = startStagedWrite('{not json', SITE, out, workerFile);
    await expect(write.done).rejects.toThrow();
  });
});
