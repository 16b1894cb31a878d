// Runs the real `astro build` on a small fixture registry (RTP_DATA_DIR, RTP_OUT_DIR) and checks what it wrote.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../src/emit/emit.ts';
import { pageRules, parseHeadersFile, renderHeadersFile } from '../../src/emit/headers.ts';
import { renderNginxConf } from '../../src/emit/nginx.ts';
import { REDIRECTS_FILE, renderRedirectsFile } from '../../src/emit/redirects.ts';
import { RegistryBundleSchema } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { servedFiles } from '../../src/routes/served-files.ts';
import { WIDGET_CSP } from '../../src/routes/widget-assets.ts';
import { ProviderRecordSchema } from '../../src/schemas/provider.ts';
import { SlotRecordSchema } from '../../src/schemas/slot.ts';
import { WidgetDataSchema } from '../../src/schemas/widget.ts';
import { FIXTURE_GAMES, FIXTURE_PROVIDERS, fixtureGame, makeFixtureRegistry, removeFixtureDir } from '../fixtures/registry.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const ASTRO = path.join(ROOT, 'node_modules/astro/bin/astro.mjs');
const SITE = 'https://rtp.example.org';
const EVIL_NAME = `<script>alert(1)</script> "Q" 'S' </iframe> & Co`;
const GAMES = [
  ...FIXTURE_GAMES,
  fixtureGame({ canonical_slug: 'evil-game', canonical_name: EVIL_NAME, source_url: 'https://www.aurora-games.example/g?a=1&b="x"' }),
];

const temps: string[] = [];
let data: string;
let outA: string;
let outB: string;

async function build(dataDir: string, outDir: string): Promise<{ code: number; output: string }> {
  const env = { ...process.env, RTP_DATA_DIR: dataDir, RTP_OUT_DIR: outDir, RTP_SITE: SITE, ASTRO_TELEMETRY_DISABLED: '1' };
  try {
    const r = await run(process.execPath, [ASTRO, 'build'], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, output: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

async function tempDir(prefix: string): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), prefix));
  temps.push(d);
  return d;
}

/** sha256 of every file under `dir` (relative path -> hash). */
function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else
        out[r] = createHash('sha256')
          .update(readFileSync(path.join(dir, r)))
          .digest('hex');
    }
  };
  walk('');
  return out;
}

const read = (out: string, rel: string) => readFileSync(path.join(out, rel), 'utf8');

beforeAll(async () => {
  data = await makeFixtureRegistry({ games: GAMES });
  outA = path.join(await tempDir('rtp-build-a-'), 'dist');
  outB = path.join(await tempDir('rtp-build-b-'), 'dist');
  const a = await build(data, outA);
  expect(a.output).toContain('[rtp-registry]');
  expect(a.code).toBe(0);
  const b = await build(data, outB);
  expect(b.code).toBe(0);
});

afterAll(async () => {
  await removeFixtureDir(data);
  for (const d of temps) await rm(d, { recursive: true, force: true });
});

describe('astro build on a fixture registry', () => {
  it('writes the slot, widget-data and widget files of every game and the file of every provider', () => {
    for (const g of GAMES) {
      const slug = g.canonical_slug;
      const slot = SlotRecordSchema.parse(JSON.parse(read(outA, `client/api/rtp/${slug}`)));
      expect(slot.canonical_slug).toBe(slug);
      expect(slot.widget_url).toBe(`${SITE}/widget/rtp/${slug}`);
      expect(WidgetDataSchema.parse(JSON.parse(read(outA, `client/api/widget/rtp/${slug}`))).slug).toBe(slug);
      expect(read(outA, `client/widget/rtp/${slug}.html`)).toContain(`<meta http-equiv="Content-Security-Policy" content="${WIDGET_CSP}">`);
    }
    for (const p of FIXTURE_PROVIDERS) {
      expect(ProviderRecordSchema.parse(JSON.parse(read(outA, `client/api/rtp/provider/${p.provider}`))).meta.provider).toBe(p.provider);
    }
    // Beside the slugs: the provider, operator and dump folders, and the tombstones (/api/rtp/removed, a reserved slug).
    expect(readdirSync(path.join(outA, 'client/api/rtp')).sort()).toEqual(
      [...GAMES.map((g) => g.canonical_slug), 'provider', 'operator', 'dump', 'removed'].sort(),
    );
    expect(read(outA, 'client/api/rtp/fire-keno').endsWith('}')).toBe(true); // compact, no trailing newline
  });

  it('writes _headers (with a rule per page), _redirects, nginx.conf, the registry bundle and build-info', async () => {
    const served = servedFiles(path.join(outA, 'client'));
    expect(read(outA, 'client/_headers')).toBe(renderHeadersFile(pageRules(served), new URL(SITE).origin));
    expect(parseHeadersFile(read(outA, 'client/_headers')).get('/about')!.get('x-frame-options')).toBe('DENY');
    // Nothing merged in this registry: the comment alone, in every build.
    const { merged } = prepareBuild(await loadRegistryOrThrow(data), SITE);
    expect(merged.size).toBe(0);
    expect(read(outA, `client/${REDIRECTS_FILE}`)).toBe(renderRedirectsFile(merged));
    expect(read(outA, 'edge/nginx.conf')).toBe(renderNginxConf(served, SITE, merged));
    const bundle = RegistryBundleSchema.parse(JSON.parse(read(outA, 'server/registry-bundle.json')));
    expect(bundle.records).toHaveLength(GAMES.length);
    expect(JSON.parse(read(outA, 'server/build-info.json'))).toMatchObject({ site: SITE, games: GAMES.length, providers: FIXTURE_PROVIDERS.length });
  });

  it('escapes a hostile game name in the widget and in the embed snippet', () => {
    const html = read(outA, 'client/widget/rtp/evil-game.html');
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).not.toContain('</iframe>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &quot;Q&quot; &#39;S&#39; &lt;/iframe&gt; &amp; Co');
    expect(html).toContain('href="https://www.aurora-games.example/g?a=1&amp;b=&quot;x&quot;"');
    const slot = JSON.parse(read(outA, 'client/api/rtp/evil-game'));
    expect(slot.canonical_name).toBe(EVIL_NAME);
    expect(slot.embed_html.match(/<\/iframe>/g)).toHaveLength(1);
    expect(slot.embed_html).not.toContain('<script>');
  });

  it('passes dist-check', async () => {
    const r = await run(process.execPath, ['dist-check/check.ts'], {
      cwd: ROOT,
      env: { ...process.env, RTP_DATA_DIR: data, RTP_OUT_DIR: outA, RTP_SITE: SITE },
    });
    expect(r.stdout).toContain(`dist-check: ok: ${outA} matches ${data} (${GAMES.length} games, ${FIXTURE_PROVIDERS.length} providers`);
  });

  it('is byte-identical across two builds (dist/client, the bundle and build-info)', () => {
    const a = hashes(path.join(outA, 'client'));
    expect(Object.keys(a).length).toBeGreaterThan(GAMES.length * 3);
    expect(hashes(path.join(outB, 'client'))).toEqual(a);
    for (const f of ['server/registry-bundle.json', 'server/build-info.json']) expect(read(outB, f)).toBe(read(outA, f));
  });

  it('fails on invalid data, listing every problem, and writes nothing', async () => {
    const bad = await makeFixtureRegistry({
      games: [fixtureGame({ stated_rtp: 101 }), fixtureGame({ canonical_slug: 'list', canonical_name: 'List' })],
    });
    temps.push(bad);
    const out = path.join(await tempDir('rtp-build-bad-'), 'dist');
    const r = await build(bad, out);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain(
      `Invalid registry data in ${bad} (2 problems):\n` +
        'games/aurora-games/book-of-aurora.json: stated_rtp: must be at most 100\n' +
        'games/aurora-games/list.json: canonical_slug: "list" is reserved (it collides with a route)\n',
    );
    expect(r.output).not.toContain('Stack trace');
    expect(existsSync(out)).toBe(false);
  });
});
