// The typed client (clients/typescript/) against the real server over the shipped data: list,
// pagination helpers, record, identify, batch and delta calls answer what the registry holds, and
// errors come back as RegistryError with the status and the registry's message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistryClient, type ListItem, type RegistryClient, RegistryError } from '../../clients/typescript/src/index.ts';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { LIST_ITEM_FIELDS, RECORD_FIELDS } from '../../src/schemas/list-item.ts';
import { type Server, startServer, testDataDir } from '../helpers/server.ts';

let server: Server;
let bundle: RegistryBundle;
let client: RegistryClient;
let requests = 0;

beforeAll(async () => {
  bundle = makeBundle(await loadRegistryOrThrow(testDataDir()));
  server = await startServer({ env: { RATE_LIMIT: '0' } });
  client = createRegistryClient({
    baseUrl: `${server.url}/`,
    fetch: (input: Request) => {
      requests++;
      return fetch(input);
    },
  });
});

afterAll(async () => {
  await server?.stop();
});

const record = (slug: string) => bundle.records.find((r) => r.canonical_slug === slug)!;

describe('typed client', () => {
  it('list: a page with totals and facets, the query applied', async () => {
    const page = await client.list({ provider: 'playngo', sort: 'rtp_desc', limit: 5 });
    const playngo = bundle.records.filter((r) => r.provider === 'playngo');
    expect(page.meta.total).toBe(bundle.records.length);
    expect(page.meta.filtered).toBe(playngo.length);
    expect(page.meta.query).toMatchObject({ provider: 'playngo', sort: 'rtp_desc', limit: 5, offset: 0 });
    expect(page.items).toHaveLength(5);
    expect(page.items[0]!.stated_rtp).toBe(Math.max(...playngo.map((r) => r.stated_rtp)));
    expect(page.facets.providers.some((p) => p.provider === 'playngo')).toBe(true);
  });

  it('pages and items: follow offset until has_more is false, each record once', async () => {
    const before = requests;
    const seen: ListItem[] = [];
    for await (const r of client.items({ provider: 'playngo', limit: 40 })) seen.push(r);
    const playngo = bundle.records.filter((r) => r.provider === 'playngo');
    expect(seen.map((r) => r.canonical_slug).sort()).toEqual(playngo.map((r) => r.canonical_slug).sort());
    expect(requests - before).toBe(Math.ceil(playngo.length / 40));
    let pages = 0;
    for await (const p of client.pages({ q: 'book', limit: 200 })) {
      pages++;
      expect(p.meta.query.q).toBe('book');
    }
    expect(pages).toBeGreaterThanOrEqual(1);
  });

  it('list with include and fields: the parts asked for, the full record, exactly the fields named', async () => {
    const plain = await client.list({ provider: 'playngo', limit: 3 });
    for (const item of plain.items) expect(Object.keys(item)).toEqual(LIST_ITEM_FIELDS);
    const full = await client.list({ provider: 'playngo', limit: 3, include: ['all'] });
    full.items.forEach((item, k) => {
      expect(item).toEqual(record(plain.items[k]!.canonical_slug));
    });
    expect(Object.keys(full.items[0]!)).toEqual(RECORD_FIELDS);
    const some = await client.list({ provider: 'playngo', limit: 3, include: 'sources,variants' });
    expect(some.meta.query.include).toEqual(['variants', 'sources']);
    some.items.forEach((item, k) => {
      expect(item.sources).toEqual(record(plain.items[k]!.canonical_slug).sources);
    });
    const few = await client.list({ provider: 'playngo', limit: 3, fields: ['stated_rtp', 'canonical_slug'] });
    few.items.forEach((item, k) => {
      expect(item).toEqual({ canonical_slug: plain.items[k]!.canonical_slug, stated_rtp: plain.items[k]!.stated_rtp });
    });
    const err = await client.list({ fields: ['canonical_slug', 'colour'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as RegistryError).status).toBe(400);
    expect((err as RegistryError).message).toContain('fields unknown name: colour');
    let count = 0;
    for await (const item of client.items({ provider: 'playngo', limit: 100, fields: 'canonical_slug' })) {
      expect(Object.keys(item)).toEqual(['canonical_slug']);
      count++;
    }
    expect(count).toBe(bundle.records.filter((r) => r.provider === 'playngo').length);
  });

  it('record and operator: the single-slot record, the operator record (404 as a RegistryError)', async () => {
    const op = await client.operator('711nl');
    expect(op.summary.games_observed).toBe(op.games.length);
    await expect(client.operator('no-such-casino')).rejects.toMatchObject({ status: 404 });
    const r = await client.record('book-of-dead');
    expect(r.canonical_slug).toBe('book-of-dead');
    expect(r.stated_rtp).toBe(record('book-of-dead').stated_rtp);
    expect(r.data_version).toBe(bundle.meta.data_version);
  });

  it('identify: the build an observed figure is', async () => {
    const r = record('book-of-dead');
    const answer = await client.identify({ slug: 'book-of-dead', rtp: r.stated_rtp });
    expect(answer.game.canonical_slug).toBe('book-of-dead');
    expect(answer.verdict).toBe('default');
  });

  it('batch and batchAll: records in the order given, unknown slugs named', async () => {
    const b = await client.batch(['book-of-dead', 'no-such-game', bundle.records[0]!.canonical_slug]);
    expect(b.items.map((r) => r.canonical_slug)).toEqual(['book-of-dead', bundle.records[0]!.canonical_slug]);
    expect(b.meta.missing).toEqual(['no-such-game']);
    const slugs = bundle.records.slice(0, 450).map((r) => r.canonical_slug);
    const before = requests;
    const all = await client.batchAll([...slugs, 'still-no-such-game']);
    expect(requests - before).toBe(3);
    expect(all.items.map((r) => r.canonical_slug)).toEqual(slugs);
    expect(all.missing).toEqual(['still-no-such-game']);
    await expect(client.batch([])).rejects.toThrow(RangeError);
  });

  it('delta and deltaItems: the records changed after a moment, with updated_at', async () => {
    const first = await client.delta(new Date('2000-01-01T00:00:00Z'), { limit: 10 });
    expect(first.items.length).toBeLessThanOrEqual(10);
    for (const item of first.items) expect(item.updated_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    let n = 0;
    for await (const item of client.deltaItems('2000-01-01', 150)) {
      n++;
      expect(typeof item.canonical_slug).toBe('string');
    }
    expect(n).toBe(first.meta.filtered);
  });

  it('errors: a RegistryError with the status and the message naming the parameter', async () => {
    const bad = await client.list({ limit: 500 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(RegistryError);
    expect((bad as RegistryError).status).toBe(400);
    expect((bad as RegistryError).message).toBe('RTP Registry answered 400 (invalid query parameters): limit must be an integer from 1 to 200');
    const missing = await client.record('no-such-game').catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, body: { statusCode: 404, statusMessage: 'slot not found in registry' } });
  });

  it('sends an API key as a Bearer token (an unknown key is a 401)', async () => {
    const keyed = createRegistryClient({ baseUrl: server.url, apiKey: `rtp_live_${'x'.repeat(32)}` });
    await expect(keyed.list({ limit: 1 })).rejects.toMatchObject({ status: 401 });
  });
});
