// The MCP server (src/mcp/server.ts) through the SDK's own client over its in-memory transport: every
// tool on the shipped registry, each result with the data version, the licence and the source to cite.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { shippedBundle } from '../helpers/shipped.ts';

const SITE = 'https://rtp.example.org';
let bundle: RegistryBundle;
let client: Client;
beforeAll(async () => {
  bundle = shippedBundle();
  const server = createMcpServer(servicesFor(bundle), SITE);
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(a), client.connect(b)]);
});
afterAll(async () => {
  await client?.close();
});

type Result = { structuredContent?: Record<string, unknown>; isError?: boolean; content: Array<{ type: string; text?: string }> };
const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Result;

describe('MCP tools', () => {
  it('lists the six read-only tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_game', 'identify_build', 'list_providers', 'operator_build', 'registry_info', 'search_games']);
    for (const t of tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
  });

  it('search_games answers with the list semantics, each game with its source and page', async () => {
    const r = await call('search_games', { q: 'book of dead', sort: 'relevance', limit: 3 });
    expect(r.isError).toBeFalsy();
    const data = r.structuredContent as {
      data_version: string;
      license: string;
      attribution: string;
      games: Array<{ slug: string; source_url: string; page_url: string }>;
    };
    expect(data).toMatchObject({ data_version: bundle.meta.data_version, license: 'CC-BY-4.0', attribution: bundle.meta.attribution });
    expect(data.games[0]!.slug).toBe('book-of-dead');
    for (const g of data.games) {
      expect(g.source_url).toMatch(/^https?:\/\//);
      expect(g.page_url).toBe(`${SITE}/rtp/${g.slug}`);
    }
    expect(JSON.parse(r.content[0]!.text!)).toEqual(data);
    const bad = await call('search_games', { q: 'a b c d e f g h i j k l' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toBe('invalid query parameters: q must contain at most 10 words');
  });

  it('search_games filters on the evidence behind a figure, and names it per game', async () => {
    const r = await call('search_games', { confidence: 'verified', limit: 50 });
    const data = r.structuredContent as { filtered: number; games: Array<{ slug: string; confidence: string }> };
    expect(data.games.length).toBeGreaterThan(0);
    for (const g of data.games) expect(g.confidence).toBe('verified');
    expect(data.filtered).toBe(bundle.records.filter((x) => x.confidence === 'verified').length);
  });

  it('get_game gives the full record, and an error for an unknown slug', async () => {
    const r = await call('get_game', { slug: 'book-of-dead' });
    const data = r.structuredContent as { record: { canonical_slug: string; sources: unknown[] }; game: { source_url: string }; data_version: string };
    expect(data.record).toEqual(bundle.records.find((x) => x.canonical_slug === 'book-of-dead'));
    expect(data.data_version).toBe(bundle.meta.data_version);
    const missing = await call('get_game', { slug: 'no-such-game' });
    expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: 'no game with this slug in the registry: search_games finds slugs' }] });
  });

  it('get_game follows a merged slug to the record of the same game, and says so', async () => {
    const r = await call('get_game', { slug: 'big-bass-splash-reel-kingdom' });
    const data = r.structuredContent as { record: unknown; note: string };
    expect(data.record).toEqual(bundle.records.find((x) => x.canonical_slug === 'big-bass-splash'));
    expect(data.note).toBe('this slug was merged into big-bass-splash, the record of the same game');
    expect((await call('get_game', { slug: 'big-bass-splash' })).structuredContent).not.toHaveProperty('note');
  });

  it('identify_build names the build of an observed figure, with its sources', async () => {
    const game = bundle.records.find((x) => x.canonical_slug === 'book-of-dead')!;
    const rung = game.variants.find((v) => v.kind === 'operator_ladder')!;
    const r = await call('identify_build', { slug: 'book-of-dead', rtp: rung.rtp });
    expect(r.structuredContent).toMatchObject({
      verdict: 'variant',
      match: { rtp: rung.rtp, kind: 'operator_ladder' },
      source_url: game.source_url,
      license: 'CC-BY-4.0',
    });
    const byName = await call('identify_build', { name: 'Book of Dead', rtp: game.stated_rtp });
    expect(byName.structuredContent).toMatchObject({
      verdict: 'default',
      game: { canonical_slug: 'book-of-dead', chosen_by: 'name', page_url: `${SITE}/rtp/book-of-dead` },
    });
    expect((await call('identify_build', { rtp: 96 })).isError).toBe(true);
  });

  it('operator_build answers which build a casino ran for a game, by slug or name, and says when it has no observation', async () => {
    for (const build of ['top', 'lower', 'higher'] as const) {
      const game = bundle.records.find((x) => x.operators.some((o) => o.operator === '711nl' && o.build === build))!;
      const r = await call('operator_build', { operator: '711nl', slug: game.canonical_slug });
      expect(r.structuredContent, build).toMatchObject({
        operator: '711nl',
        builds: game.operators,
        game: { slug: game.canonical_slug },
        source_url: `${SITE}/api/rtp/operator/711nl`,
        license: 'CC-BY-4.0',
      });
      expect(String(r.structuredContent!.note)).toMatch(/not a live reading/);
    }
    const byName = await call('operator_build', { operator: '711nl', name: 'Thunderstruck II' });
    expect(byName.structuredContent).toMatchObject({ game: { slug: 'thunderstruck-ii' }, builds: [{ operator: '711nl', build: 'top' }] });
    const none = bundle.records.find((x) => x.operators.length === 0)!;
    const empty = await call('operator_build', { operator: '711nl', slug: none.canonical_slug });
    expect(empty.structuredContent).toMatchObject({ builds: [] });
    expect(String(empty.structuredContent!.note)).toMatch(/^No observation/);
    expect((await call('operator_build', { operator: '711nl' })).isError).toBe(true);
    expect((await call('operator_build', { operator: '711nl', slug: 'no-such-game' })).isError).toBe(true);
  });

  it('list_providers and registry_info describe the registry with its licence', async () => {
    const providers = (await call('list_providers')).structuredContent as { providers: Array<{ provider: string; games: number }>; data_version: string };
    expect(providers.providers).toHaveLength(bundle.providers.length);
    expect(providers.providers.reduce((n, p) => n + p.games, 0)).toBe(bundle.records.length);
    const info = (await call('registry_info')).structuredContent as Record<string, unknown>;
    expect(info).toMatchObject({
      name: 'RTP Registry',
      games: bundle.records.length,
      data_version: bundle.meta.data_version,
      license: 'CC-BY-4.0',
      license_url: bundle.meta.license_url,
      source_url: `${SITE}/llms.txt`,
    });
  });
});
