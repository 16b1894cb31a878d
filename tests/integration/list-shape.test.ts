// The list item's shape over HTTP against the built dist and the shipped registry: the lean default
// item (every spec field, at most 700 bytes an item on average), include=, fields=, their 400s, the
// CSV columns fields= picks, and each shape its own cached answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import type { GameRecord } from '../../src/schemas/game-record.ts';
import { GameRecordSchema } from '../../src/schemas/game-record.ts';
import { ListShapedResponseSchema } from '../../src/schemas/list.ts';
import { LIST_ITEM_FIELDS, ListItemSchema, RECORD_FIELDS } from '../../src/schemas/list-item.ts';
import { useListServer } from '../helpers/list-server.ts';
import { testDataDir } from '../helpers/server.ts';

const server = useListServer();
/** The shipped registry's public records, as the build derives them. */
const data = { games: [] as GameRecord[] };
beforeAll(async () => {
  data.games = makeBundle(await loadRegistryOrThrow(testDataDir())).records;
});
/** The spec's game-record fields (public-api.md, "Game record"), in its order. */
const SPEC_FIELDS = [
  'canonical_slug',
  'canonical_name',
  'provider',
  'provider_display',
  'stated_rtp',
  'rtp_variants',
  'rtp_min',
  'rtp_max',
  'variants_count',
  'volatility',
  'max_win',
  'release_year',
  'game_type',
  'last_verified',
  'snapshot_id',
  'source_url',
  'badges',
];

const get = async (query: string) => {
  const res = await fetch(`${server.url}/api/rtp/list?${query}`);
  return { res, text: await res.text() };
};
const shaped = async (query: string) => {
  const { res, text } = await get(query);
  expect(res.status, text).toBe(200);
  return ListShapedResponseSchema.parse(JSON.parse(text));
};

describe('list item shape over HTTP', () => {
  it('answers a default limit=50 page at most 700 bytes an item, every spec field in every default item', async () => {
    const { res, text } = await get('limit=50');
    expect(res.status).toBe(200);
    const body = JSON.parse(text) as { items: unknown[] };
    expect(body.items).toHaveLength(50);
    const itemBytes = body.items.reduce<number>((sum, item) => sum + Buffer.byteLength(JSON.stringify(item)), 0);
    expect(itemBytes / 50).toBeLessThanOrEqual(700);
    const all = await server.listAll('');
    expect(all.items).toHaveLength(data.games.length);
    const bySlug = new Map(data.games.map((g) => [g.canonical_slug, g]));
    for (const item of all.items) {
      expect(Object.keys(item).slice(0, SPEC_FIELDS.length)).toEqual(SPEC_FIELDS);
      expect(Object.keys(item)).toEqual(LIST_ITEM_FIELDS);
      const g = bySlug.get(item.canonical_slug)!;
      expect(item).toEqual(ListItemSchema.parse(Object.fromEntries(LIST_ITEM_FIELDS.map((f) => [f, g[f]]))));
    }
  });

  it("include=sources,variants adds the full record's sources and variants; include=all is the full record", async () => {
    const page = await shaped('limit=50&include=sources,variants');
    expect(page.meta.query).toMatchObject({ include: ['variants', 'sources'], fields: null });
    const full = await shaped('limit=50&include=all');
    expect(full.meta.query.include).toEqual(RECORD_FIELDS.filter((f) => !(LIST_ITEM_FIELDS as readonly string[]).includes(f)));
    page.items.forEach((item, k) => {
      const record = GameRecordSchema.parse(full.items[k]);
      expect(record).toEqual(data.games.find((g) => g.canonical_slug === record.canonical_slug));
      expect(item).toEqual(
        Object.fromEntries(Object.entries(record).filter(([f]) => (LIST_ITEM_FIELDS as readonly string[]).includes(f) || f === 'sources' || f === 'variants')),
      );
    });
  });

  it('fields=canonical_slug,stated_rtp returns items with exactly those keys', async () => {
    const page = await shaped('limit=200&sort=rtp_desc&fields=canonical_slug,stated_rtp');
    expect(page.meta.query.fields).toEqual(['canonical_slug', 'stated_rtp']);
    expect(page.items).toHaveLength(200);
    for (const item of page.items) expect(Object.keys(item)).toEqual(['canonical_slug', 'stated_rtp']);
  });

  it('answers 400 naming unknown names, never echoing other text, and include with fields', async () => {
    for (const [query, param, message] of [
      ['fields=canonical_slug,colour', 'fields', /^unknown name: colour; must be one or more of: canonical_slug,/],
      ['include=sources,%3Cb%3Ex%3C%2Fb%3E', 'include', /^unknown name: 1 other; must be one or more of: variants,/],
      ['include=notes&fields=notes', 'include', /^must not be given with fields/],
      [`fields=${'a,'.repeat(300)}`, 'fields', /^must be at most 512 characters$/],
      ['format=csv&fields=variants', 'fields', /^unknown name: variants; must be one or more of: canonical_slug,/],
      ['slugs=book-of-dead&fields=canonical_slug', 'slugs', /^cannot be combined with .*fields/],
    ] as const) {
      const { res, text } = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = JSON.parse(text) as { statusCode: number; errors: Array<{ param: string; message: string }> };
      expect(body.statusCode).toBe(400);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]!.param, query).toBe(param);
      expect(body.errors[0]!.message, query).toMatch(message);
      expect(text).not.toContain('<b>');
    }
  });

  it('picks CSV columns with fields=; include= keeps every column', async () => {
    const { res, text } = await get('provider=playngo&limit=5&format=csv&fields=stated_rtp,canonical_slug');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = text.trimEnd().split('\r\n');
    expect(rows[0]).toBe('canonical_slug,stated_rtp');
    expect(rows).toHaveLength(6);
    const every = await get('provider=playngo&limit=5&format=csv');
    expect((await get('provider=playngo&limit=5&format=csv&include=sources')).text).toBe(every.text);
  });

  it('keeps each shape apart: its own ETag, and a repeated query the same bytes', async () => {
    const tags = new Set<string>();
    for (const query of ['limit=5', 'limit=5&include=notes', 'limit=5&include=all', 'limit=5&fields=notes']) {
      const first = await get(query);
      const again = await get(query);
      const third = await get(query);
      expect(again.text).toBe(first.text);
      expect(third.text).toBe(first.text);
      tags.add(first.res.headers.get('etag')!);
    }
    expect(tags.size).toBe(4);
  });
});
