// The Atom feeds (src/emit/feeds.ts), parsed with fast-xml-parser and checked against RFC 4287's
// required elements: the registry-wide, provider and game feeds of the shipped registry, and hostile text.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { FEED_ENTRIES, type FeedIndex, feedChanges, feedIndex, gameFeed, providerFeed, registryFeed } from '../../src/emit/feeds.ts';
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { shippedBundle } from '../helpers/shipped.ts';

const SITE = 'https://rtp.example.org';
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
let bundle: RegistryBundle;
let ix: FeedIndex;
beforeAll(async () => {
  bundle = shippedBundle();
  ix = feedIndex(bundle, SITE);
});

type Node = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => ['entry', 'link', 'author', 'category'].includes(name),
  textNodeName: '#text',
});
const textOf = (v: unknown) => (typeof v === 'object' && v !== null ? (v as Node)['#text'] : v);

/** Parses a feed and checks RFC 4287 §4.1.1 and §4.1.2; returns the feed element. */
function atom(text: string): { feed: Node; entries: Node[] } {
  expect(XMLValidator.validate(text)).toBe(true);
  expect(text.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">')).toBe(true);
  const feed = (parser.parse(text) as { feed: Node }).feed;
  for (const el of ['id', 'title', 'updated']) expect(feed[el], `feed/${el}`).toBeDefined();
  expect(String(textOf(feed.updated))).toMatch(RFC3339);
  const links = feed.link as Node[];
  expect(links.filter((l) => l['@rel'] === 'self')).toHaveLength(1);
  expect(links.filter((l) => l['@rel'] === 'alternate' && l['@type'] === 'text/html')).toHaveLength(1);
  expect((feed.author as Node[])[0]!.name).toBe('RTP Registry');
  const entries = (feed.entry as Node[] | undefined) ?? [];
  const ids = new Set<string>();
  for (const e of entries) {
    for (const el of ['id', 'title', 'updated', 'summary']) expect(e[el], `entry/${el}`).toBeDefined();
    expect(String(e.id)).toMatch(/^tag:rtp\.example\.org,\d{4}-\d\d-\d\d:rtp\/[a-z0-9-]+\/\d+\.\d+\.\d+$/);
    expect(ids.has(String(e.id))).toBe(false);
    ids.add(String(e.id));
    expect(String(textOf(e.updated))).toMatch(RFC3339);
    const alt = (e.link as Node[]).filter((l) => l['@rel'] === 'alternate');
    expect(alt).toHaveLength(1);
    expect(String(alt[0]!['@href']).startsWith(`${SITE}/`)).toBe(true);
  }
  return { feed, entries };
}

describe('Atom feeds', () => {
  it('the registry-wide feed: the newest 100 changes, newest first, each linking its page and citing its source', () => {
    const { feed, entries } = atom(registryFeed(ix));
    expect(textOf(feed.id)).toBe(`${SITE}/api/feeds/rtp.atom`);
    expect(entries).toHaveLength(Math.min(FEED_ENTRIES, feedChanges(bundle.history).length));
    const times = entries.map((e) => String(textOf(e.updated)));
    expect([...times].sort().reverse()).toEqual(times);
    // The first entry of a game still published (the newest version's entries may be removals).
    const slugOf = (e: Node) => /rtp\/([a-z0-9-]+)\//.exec(String(e.id))![1]!;
    const first = entries.find((e) => bundle.records.some((r) => r.canonical_slug === slugOf(e)))!;
    const slug = slugOf(first);
    const record = bundle.records.find((r) => r.canonical_slug === slug)!;
    expect((first.link as Node[]).find((l) => l['@rel'] === 'alternate')!['@href']).toBe(`${SITE}/rtp/${slug}`);
    expect((first.link as Node[]).find((l) => l['@rel'] === 'related')!['@href']).toBe(record.source_url);
    expect(String(textOf(first.summary))).toContain(`Source: ${record.source_url}.`);
    expect(String(textOf(first.title))).toMatch(new RegExp(`^${record.canonical_name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('a feed per provider and per game, each with its own entries only', () => {
    const p = bundle.providers[0]!;
    const { feed, entries } = atom(providerFeed(ix, p));
    expect(textOf(feed.id)).toBe(`${SITE}/api/feeds/provider/${p.provider}.atom`);
    for (const e of entries) expect((e.category as Node[])[0]!['@term']).toBe(p.provider);
    const r = bundle.records.find((x) => x.canonical_slug === 'book-of-dead') ?? bundle.records[0]!;
    const game = atom(gameFeed(ix, r));
    expect(game.entries.length).toBe(new Set(bundle.history.filter((h) => h.slug === r.canonical_slug).map((h) => h.data_version)).size);
    const added = bundle.history.find((h) => h.slug === r.canonical_slug && h.field === 'stated_rtp' && h.from === null)!;
    expect(String(textOf(game.entries.at(-1)!.title))).toBe(`${r.canonical_name} added: stated RTP ${(added.to as number).toFixed(2)}%`);
  });

  it('describes changes and removals, and escapes hostile text', () => {
    const hostile = {
      ...bundle,
      records: bundle.records
        .slice(0, 1)
        .map((r) => ({ ...r, canonical_name: '<b>&"Bonanza"</b>', provider_display: "O'Reel <x>", source_url: 'https://e.example/?a=1&b=<2>' })),
    };
    const slug = hostile.records[0]!.canonical_slug;
    hostile.history = [
      { data_version: '1.0.0', frozen_at: '2026-01-01T00:00:00Z', slug, provider: hostile.records[0]!.provider, field: 'stated_rtp', from: null, to: 96 },
      { data_version: '1.1.0', frozen_at: '2026-02-01T00:00:00Z', slug, provider: hostile.records[0]!.provider, field: 'stated_rtp', from: 96, to: 96.5 },
      { data_version: '1.1.0', frozen_at: '2026-02-01T00:00:00Z', slug: 'gone-game', provider: 'acme', field: 'stated_rtp', from: 95, to: null },
    ];
    const hix = feedIndex(hostile, SITE);
    const text = registryFeed(hix);
    const { entries } = atom(text);
    expect(text).not.toMatch(/<b>|<x>|<2>/);
    // Newest version first; within one version, by slug.
    expect(entries.map((e) => String(textOf(e.title)))).toEqual([
      '<b>&"Bonanza"</b>: stated RTP 96.00% → 96.50%',
      'gone-game removed (was 95.00%)',
      '<b>&"Bonanza"</b> added: stated RTP 96.00%',
    ]);
    expect((entries[1]!.link as Node[])[0]!['@href']).toBe(`${SITE}/api/rtp/removed`);
  });

  it('shows a game merged into the record of the same game as that record: its page and source', () => {
    // 2.0.0 changed thousands of records: the studio's own feed holds the merge among its newest entries.
    const { entries } = atom(providerFeed(ix, { provider: 'nextgen', display: 'NextGen' }));
    const merged = entries.find((e) => String(e.id).includes('rtp/emerald-isle-flash/2.0.0'))!;
    const into = bundle.records.find((r) => r.canonical_slug === 'emerald-isle')!;
    expect(String(textOf(merged.title))).toBe('emerald-isle-flash merged into Emerald Isle (NextGen)');
    expect((merged.link as Node[]).map((l) => [l['@rel'], l['@href']])).toEqual([
      ['alternate', `${SITE}/rtp/emerald-isle`],
      ['related', into.source_url],
    ]);
    expect(String(textOf(merged.summary))).toContain(
      'Merged in data version 2.0.0 into Emerald Isle (NextGen), the record of the same game, which lists the sources of both; its stated RTP was 94.50%.',
    );
    expect((merged.category as Node[])[0]!['@term']).toBe('nextgen');
  });
});
