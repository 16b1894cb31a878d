// PostingSearch (src/list/search.ts) reads and rebuilds MiniSearch's private fields, so package.json
// pins minisearch to one exact version. This test names every field it relies on: an upgrade that
// changes one fails here first, saying what to re-check, before any search answers differently.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, packSearchIndex } from '../../src/emit/list/search-index.ts';
import { unpackSearchIndex } from '../../src/list/search.ts';
import { INDEX_OPTIONS } from '../../src/schemas/search-index.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HINT = 'MiniSearch internals changed: re-check PostingSearch and unpack in src/list/search.ts, pack in src/emit/list/search-index.ts, before upgrading minisearch';

describe('minisearch, as PostingSearch relies on it', () => {
  it('is pinned to one exact version, and that version is installed', () => {
    const wanted = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies.minisearch;
    expect(wanted, 'package.json must pin minisearch exactly (no ^ or ~)').toMatch(/^\d+\.\d+\.\d+$/);
    const installed = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/minisearch/package.json'), 'utf8')) as { version: string }).version;
    expect(installed, HINT).toBe(wanted);
  });

  it('keeps the private fields PostingSearch reads, with their shapes', () => {
    const index = buildSearchIndex([
      { id: 0, name: 'Book of Dead', slug: 'book-of-dead', provider: 'playngo', display: "Play'n GO" },
      { id: 1, name: 'Book of Ra', slug: 'book-of-ra', provider: 'novomatic', display: 'Novomatic' },
    ] as never);
    const ms = index as unknown as Record<string, unknown>;
    const inner = ms._index as { _tree?: unknown } | undefined;
    expect(inner?._tree, `${HINT}: _index._tree`).toBeInstanceOf(Map);
    for (const [field, kind] of [['_documentCount', 'number'], ['_nextId', 'number'], ['_dirtCount', 'number']] as const) expect(typeof ms[field], `${HINT}: ${field}`).toBe(kind);
    for (const field of ['_documentIds', '_idToShortId', '_fieldLength', '_storedFields']) expect(ms[field], `${HINT}: ${field}`).toBeInstanceOf(Map);
    expect(Array.isArray(ms._avgFieldLength), `${HINT}: _avgFieldLength`).toBe(true);
    expect(typeof ms._fieldIds, `${HINT}: _fieldIds`).toBe('object');
    // The term tree is a radix tree (edge labels, '' marks a leaf); a leaf maps field ids to
    // postings (document id -> term frequency).
    const find = (node: Map<string, unknown>, rest: string): unknown => {
      for (const [label, child] of node) {
        if (label === '' && rest === '') return child;
        if (label !== '' && rest.startsWith(label)) return find(child as Map<string, unknown>, rest.slice(label.length));
      }
      return undefined;
    };
    const leaf = find(inner!._tree as Map<string, unknown>, 'book') as Map<number, Map<number, number>> | undefined;
    expect(leaf, `${HINT}: term tree leaf layout`).toBeInstanceOf(Map);
    expect([...leaf!.values()][0], `${HINT}: postings`).toBeInstanceOf(Map);
  });

  it('a packed and unpacked index answers like the one MiniSearch built', () => {
    const docs = ['Book of Dead', 'Book of Ra', 'Legacy of Dead', 'Gates of Olympus'].map((name, id) => ({ id, name, slug: name.toLowerCase().replace(/ /g, '-'), provider: 'p', display: 'P' }));
    const index = buildSearchIndex(docs as never);
    const restored = unpackSearchIndex(packSearchIndex(index));
    for (const q of ['book', 'dead', 'olympus', 'bok of ded']) {
      expect(restored.search(q).map((r) => [r.id, r.score]), `${HINT}: ${q}`).toEqual(index.search(q).map((r) => [r.id, r.score]));
    }
  });

  it('a packed and unpacked index answers like MiniSearch itself, reloaded through its public toJSON/loadJSON', () => {
    const docs = ['Book of Dead', 'Book of Ra', 'Legacy of Dead', 'Gates of Olympus', 'Sweet Bonanza', 'Big Bass Bonanza'].map((name, id) => ({ id, name, slug: name.toLowerCase().replace(/ /g, '-'), provider: id % 2 === 0 ? 'playngo' : 'pragmatic-play', display: id % 2 === 0 ? "Play'n GO" : 'Pragmatic Play' }));
    const index = buildSearchIndex(docs as never);
    const reloaded = MiniSearch.loadJSON(JSON.stringify(index), INDEX_OPTIONS);
    const restored = unpackSearchIndex(packSearchIndex(index));
    for (const q of ['book', 'bonanza', 'pragmatic', 'play', 'bonanzza', 'sweet bonanza']) {
      const expected = reloaded.search(q).map((r) => [r.id, r.score]);
      expect(expected.length, q).toBeGreaterThan(0);
      expect(restored.search(q).map((r) => [r.id, r.score]), `${HINT}: ${q}`).toEqual(expected);
    }
  });
});
