// Slugs merged into the record of the same game (data/merged.json: four Reel Kingdom records into
// Pragmatic Play's, data 1.3.0), over HTTP from the built dist on the real server: every URL of an old
// slug answers a 301 to the same URL of the survivor, which lists both records' sources and names the
// studio; the tombstones, the release diff and the history name `merged_into`; other gone slugs stay 404.
// The build's `_redirects` (for CDN deploys) sends each URL served from a file where the server does.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIRECTS_FILE } from '../../src/emit/redirects.ts';
import { movedStaticUrls } from '../../src/routes/moved.ts';
import { ReleaseChangesSchema, RemovedResponseSchema } from '../../src/schemas/dump.ts';
import { HistoryResponseSchema } from '../../src/schemas/history.ts';
import { ListResponseSchema } from '../../src/schemas/list.ts';
import { MergedFileSchema } from '../../src/schemas/merged.ts';
import { SlotRecordSchema } from '../../src/schemas/slot.ts';
import { type Server, startServer, testDataDir, testOutDir } from '../helpers/server.ts';

const HOUR = 'public, max-age=3600, s-maxage=3600';
const merged = MergedFileSchema.parse(JSON.parse(readFileSync(path.join(testDataDir(), 'merged.json'), 'utf8'))).games;
const OLD = 'big-bass-splash-reel-kingdom';
const NEW = 'big-bass-splash';

let server: Server;
beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT: '1000000' } });
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

const get = async (p: string, init: RequestInit = {}) => {
  const res = await fetch(server.url + p, { redirect: 'manual', ...init });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

describe('a merged slug', () => {
  it('answers a 301 on each of its URLs to the same URL of the surviving slug, cacheable, with a JSON body naming both', async () => {
    // The four of 1.3.0, and the slugs 2.0.0's cleaning rules moved.
    expect(merged.filter((m) => m.provider === 'reel-kingdom').map((m) => [m.slug, m.merged_into])).toEqual([
      ['big-bass-amazon-xtreme-reel-kingdom', 'big-bass-amazon-xtreme'],
      ['big-bass-splash-reel-kingdom', 'big-bass-splash'],
      ['club-tropicana-reel-kingdom', 'club-tropicana'],
      ['pizza-pizza-pizza-reel-kingdom', 'pizza-pizza-pizza'],
    ]);
    expect(merged.length).toBe(38);
    expect(new Map(merged.map((m) => [m.slug, m.merged_into])).get('5-frozen-charms-megawaystm')).toBe('5-frozen-charms-megaways');
    const urls = (slug: string) => [
      `/api/rtp/${slug}`,
      `/api/widget/rtp/${slug}`,
      `/widget/rtp/${slug}`,
      `/api/badge/rtp/${slug}.svg`,
      `/api/feeds/game/${slug}.atom`,
      `/rtp/${slug}`,
      `/api/og/rtp/${slug}.png`,
    ];
    for (const m of merged) {
      const to = urls(m.merged_into);
      for (const [k, from] of urls(m.slug).entries()) {
        const r = await get(from);
        expect(r.status, from).toBe(301);
        expect(r.headers.get('location'), from).toBe(to[k]);
        expect(r.headers.get('cache-control'), from).toBe(HOUR);
        expect(r.headers.get('access-control-allow-origin')).toBe('*');
        expect(JSON.parse(r.text), from).toEqual({
          statusCode: 301,
          statusMessage: `moved permanently: ${m.slug} was merged into ${m.merged_into}, the record of the same game (GET /api/rtp/removed says why)`,
        });
        // The survivor's URL is there.
        expect((await get(to[k]!)).status, to[k]).toBe(200);
      }
    }
    // An embed keeps its options.
    expect((await get(`/widget/rtp/${OLD}?theme=dark&lang=de&v=1.2.0`)).headers.get('location')).toBe(`/widget/rtp/${NEW}?theme=dark&lang=de&v=1.2.0`);
    const head = await fetch(`${server.url}/api/rtp/${OLD}`, { method: 'HEAD', redirect: 'manual' });
    expect([head.status, head.headers.get('location'), await head.text()]).toEqual([301, `/api/rtp/${NEW}`, '']);
  });

  it("is in the build's _redirects for every URL served from a file, each to where the server sends it", async () => {
    const lines = readFileSync(path.join(testOutDir(), 'client', REDIRECTS_FILE), 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'));
    const want = movedStaticUrls(new Map(merged.map((m) => [m.slug, m.merged_into])));
    expect(lines).toEqual(want.map((m) => `${m.from} ${m.to} 301`));
    expect(lines).toHaveLength(merged.length * 6);
    for (const line of lines) {
      const [from, to, status] = line.split(' ');
      const r = await get(from!);
      expect([r.status, r.headers.get('location')], from).toEqual([Number(status), to]);
    }
  });

  it("lands a client that follows it on the surviving record: both records' sources, the studio, the confidence they give", async () => {
    const res = await fetch(`${server.url}/api/rtp/${OLD}`);
    expect([res.status, res.redirected, new URL(res.url).pathname]).toEqual([200, true, `/api/rtp/${NEW}`]);
    const record = SlotRecordSchema.parse(await res.json());
    // A licensed casino and other origins state 96.71, none more: verified.
    expect([record.canonical_slug, record.provider, record.studio, record.stated_rtp, record.confidence]).toEqual([
      NEW,
      'pragmatic-play',
      'Reel Kingdom',
      96.71,
      'verified',
    ]);
    expect(record.sources.map((s) => s.url)).toContain(
      'https://github.com/calro999/calcasiLP/blob/d1afc2c6fc785ad0ac81b20a121a6e93e03bd51f/data/games/big-bass-splash.ts',
    );
    // Pizza! Pizza? Pizza! had one source under each key, and a licensed casino lists it at the same figure.
    const pizza = SlotRecordSchema.parse(await (await fetch(`${server.url}/api/rtp/pizza-pizza-pizza`)).json());
    expect([pizza.confidence, pizza.sources.length, pizza.studio]).toEqual(['verified', 3, 'Reel Kingdom']);
    // Search finds the survivor by the studio's name.
    const found = ListResponseSchema.parse(await (await fetch(`${server.url}/api/rtp/list?q=${encodeURIComponent('reel kingdom big bass splash')}`)).json());
    expect(found.items.map((i) => i.canonical_slug)).toContain(NEW);
    expect(found.items.map((i) => i.canonical_slug)).not.toContain(OLD);
  });

  it("is on the tombstones, in its version's release diff and in the history with merged_into and the reason", async () => {
    const removed = RemovedResponseSchema.parse(JSON.parse((await get('/api/rtp/removed')).text));
    const stone = removed.items.find((i) => i.slug === OLD)!;
    expect(stone).toMatchObject({ provider: 'reel-kingdom', removed_in: '1.3.0', last_stated_rtp: 96.71, merged_into: NEW });
    expect(stone.reason).toMatch(
      /^merged into big-bass-splash: the same game; reel-kingdom's games are published by pragmatic-play .* state 96\.71: sources\/calcasi\.jsonl:114 and sources\/igt-slots\.jsonl:98$/,
    );
    expect(removed.items.filter((i) => i.merged_into !== null).map((i) => [i.slug, i.merged_into])).toEqual(merged.map((m) => [m.slug, m.merged_into]));
    // A game held back (not merged) keeps its tombstone without merged_into, and its URLs answer 404.
    const held = removed.items.find((i) => i.slug === 'big-bucks-saloon')!;
    expect([held.merged_into, held.reason?.startsWith('held back: ')]).toEqual([null, true]);
    expect((await get('/api/rtp/big-bucks-saloon')).status).toBe(404);
    expect((await get('/api/rtp/no-such-game')).status).toBe(404);
    const diff = ReleaseChangesSchema.parse(JSON.parse((await get('/api/rtp/dump/changes/1.3.0.json')).text));
    expect(diff.counts).toEqual({ added: 0, removed: 4, changed: 0 });
    expect(diff.removed.map((g) => [g.slug, g.merged_into])).toEqual(
      merged.filter((m) => m.slug.endsWith('-reel-kingdom')).map((m) => [m.slug, m.merged_into]),
    );
    const history = HistoryResponseSchema.parse(JSON.parse((await get(`/api/rtp/history?slug=${OLD}`)).text));
    expect(history.items.map((i) => [i.data_version, i.field, i.to, i.merged_into])).toEqual([
      ['1.3.0', 'rtp_variants', null, NEW],
      ['1.3.0', 'stated_rtp', null, NEW],
      ['1.1.0', 'rtp_variants', [96.71], null],
      ['1.1.0', 'stated_rtp', 96.71, null],
    ]);
  });

  it('leaves the Reel Kingdom records the data does not prove the same game published', async () => {
    // Floating Dragon is Pragmatic Play's now (a licensed casino's Pragmatic Play file names it at the same figure), under the same slug.
    const dragon = SlotRecordSchema.parse(JSON.parse((await get('/api/rtp/floating-dragon')).text));
    expect([dragon.provider, dragon.studio]).toEqual(['pragmatic-play', 'Reel Kingdom']);
    for (const slug of ['floating-dragon-ultra-megaways']) {
      const r = await get(`/api/rtp/${slug}`);
      expect(r.status, slug).toBe(200);
      expect(SlotRecordSchema.parse(JSON.parse(r.text)).provider).toBe('reel-kingdom');
    }
  });
});
