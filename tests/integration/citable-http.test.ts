// Citable data and corrections as served by the real server: the home and about pages' schema.org
// Dataset JSON-LD (expanded by a JSON-LD processor, every download it names served), the game
// page's cite block naming the data version; and a fixture registry built with CORRECTIONS_URL,
// whose game pages link the prefilled form, while a bad template fails the build naming the fix.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { makeFixtureRegistry, removeFixtureDir } from '../fixtures/registry.ts';
import { expandDataset, jsonLdOf, SCHEMA } from '../helpers/jsonld.ts';
import { type Server, startServer, testDataDir } from '../helpers/server.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const ASTRO = path.join(ROOT, 'node_modules/astro/bin/astro.mjs');
const TEMPLATE = 'https://forge.example.org/registry/issues/new?title={title}&body={body}';

let server: Server;
let bundle: RegistryBundle;
let tmp: string;
let data: string;

async function build(outDir: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  try {
    const r = await run(process.execPath, [ASTRO, 'build'], {
      cwd: ROOT,
      env: { ...process.env, RTP_DATA_DIR: data, RTP_OUT_DIR: outDir, ASTRO_TELEMETRY_DISABLED: '1', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, output: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

beforeAll(async () => {
  bundle = makeBundle(await loadRegistryOrThrow(testDataDir()));
  server = await startServer({ env: { RATE_LIMIT: '0' } });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rtp-e2e-citable-'));
  data = await makeFixtureRegistry();
});

afterAll(async () => {
  await server?.stop();
  await removeFixtureDir(data);
  await rm(tmp, { recursive: true, force: true });
});

const get = async (p: string) => {
  const res = await fetch(`${server.url}${p}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

describe('schema.org Dataset on the home and about pages', () => {
  for (const page of ['/', '/about']) {
    it(`${page} carries one Dataset naming the data version, and every download it names is served`, async () => {
      const docs = jsonLdOf((await get(page)).text);
      expect(docs).toHaveLength(1);
      const ds = await expandDataset(docs[0] as object);
      expect(ds[`${SCHEMA}version`]).toEqual([{ '@value': bundle.meta.data_version }]);
      expect(ds[`${SCHEMA}dateModified`]).toEqual([{ '@value': bundle.meta.frozen_at }]);
      const dist = ds[`${SCHEMA}distribution`] as Array<Record<string, Array<Record<string, string>>>>;
      expect(dist).toHaveLength(3);
      for (const d of dist) {
        const url = new URL(d[`${SCHEMA}contentUrl`]![0]!['@id']!);
        const res = await get(url.pathname);
        expect(res.status, url.pathname).toBe(200);
        expect(res.type!.split(';')[0]).toBe(d[`${SCHEMA}encodingFormat`]![0]!['@value']);
      }
    });
  }
});

describe('game pages', () => {
  it('name the data version in the cite block and, built without CORRECTIONS_URL, link no correction form', async () => {
    const page = (await get('/rtp/book-of-dead')).text;
    const cite = /<section data-cite>.*?<\/section>/s.exec(page)![0];
    expect(cite).toContain(`<data data-data-version value="${bundle.meta.data_version}">${bundle.meta.data_version}</data>`);
    if (!process.env.CORRECTIONS_URL) expect(page).not.toContain('data-correction');
  });

  it('built with CORRECTIONS_URL, link "Report a correction" to the prefilled form', async () => {
    const out = path.join(tmp, 'dist');
    const b = await build(out, { CORRECTIONS_URL: TEMPLATE });
    expect(b.code, b.output).toBe(0);
    const fixture = await startServer({ outDir: out, env: { RATE_LIMIT: '0' } });
    try {
      const res = await fetch(`${fixture.url}/rtp/book-of-aurora`);
      const page = await res.text();
      const href = /<a href="([^"]+)" rel="nofollow noopener" data-correction>Report a correction<\/a>/.exec(page)![1]!;
      const url = new URL(href.replaceAll('&#39;', "'").replaceAll('&amp;', '&'));
      expect(url.origin + url.pathname).toBe('https://forge.example.org/registry/issues/new');
      expect(url.searchParams.get('title')).toBe('Correction: Book of Aurora (Aurora Games) RTP');
      const body = url.searchParams.get('body')!;
      expect(body).toContain('Game: Book of Aurora (Aurora Games), slug book-of-aurora');
      expect(body).toMatch(/Stated RTP: \d+\.\d\d%/);
      expect(body).toMatch(/Sources:\n- .+: https?:\/\/\S+ states \d+\.\d\d%/);
    } finally {
      await fixture.stop();
    }
  }, 180_000);

  it('a bad CORRECTIONS_URL fails the build before anything is written, naming the fix', async () => {
    const b = await build(path.join(tmp, 'bad'), { CORRECTIONS_URL: 'forge.example.org/new?{what}' });
    expect(b.code).not.toBe(0);
    expect(b.output).toContain('CORRECTIONS_URL is invalid: it is not an absolute http(s) URL; it uses unknown placeholder(s) {what}');
  }, 180_000);
});
