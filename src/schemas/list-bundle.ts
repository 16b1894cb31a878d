// The list bundle, dist/server/list-bundle.bin: the one index format between the build, which
// compiles it (src/emit/list/), and the list engine, which answers queries from it (src/list/).
// What it holds: records and default list items pre-encoded, filter columns, sort permutations and
// the search index, with the registry's meta and history. Its file layout: list-bundle-file.ts.

import { z } from 'zod';
import { type HistoryEntrySchema, type RegistryFileSchema, VOLATILITIES, type Volatility } from './authoring.ts';
import { BADGES, type Badge, CONFIDENCE_LEVELS, type Confidence, OPERATOR_BUILDS } from './game-record.ts';
import type { ListSort } from './list.ts';

/** The orders with a precomputed permutation (relevance depends on `q` and comes from the search). */
export type StaticSort = Exclude<ListSort, 'relevance'>;
export const STATIC_SORTS: readonly StaticSort[] = ['name', 'provider', 'rtp_desc', 'rtp_asc', 'variants_desc', 'recent'];

/** The bit of a badge in the `badges` column (BADGES order). */
export function badgeBit(badge: Badge): number {
  return 1 << BADGES.indexOf(badge);
}

/** Operators the list bundle can index: three build bits each in a 32-bit column. */
export const MAX_LIST_OPERATORS = 10;

/** The bit of operator `k` (its index in operatorKeys) observed at `build` (an index into OPERATOR_BUILDS) in the `operatorBuilds` column. */
export function operatorBit(k: number, build: number): number {
  return 2 ** (k * OPERATOR_BUILDS.length + build);
}

/** The index of a confidence level in the `confidence` column (CONFIDENCE_LEVELS order). */
export function confidenceIndex(level: Confidence): number {
  return CONFIDENCE_LEVELS.indexOf(level);
}

/** The `volatilityOf` value of a volatility level, or of an unknown one (null). */
export function volatilityIndex(level: Volatility | null): number {
  return level === null ? VOLATILITIES.length : VOLATILITIES.indexOf(level);
}

/**
 * The search index (src/emit/list/search-index.ts builds it, src/list/search.ts reads it): its head
 * as JSON (SearchIndexHeadSchema: the statistics scoring needs), per word and field the records
 * that hold it with how often, each record's field lengths, and the words as a trie, all typed
 * arrays. F is SEARCH_FIELDS.length; records are named by their index, words by their term number.
 */
export interface PackedSearchIndex {
  /** JSON of a SearchIndexHead. */
  head: string;
  /** Posting range of term t, field f: postingStart[t * F + f] .. postingStart[t * F + f + 1]. */
  postingStart: Uint32Array;
  /** Record indexes, ascending within each range. */
  postingIds: Int32Array;
  /** How often the term occurs in that record's field. */
  postingFreqs: Uint32Array;
  /** Distinct terms of each record's fields: record r, field f at fieldLength[r * F + f]. */
  fieldLength: Uint32Array;
  /** The words' trie (src/list/term-trie.ts), nodes in depth-first order, children by code unit, node 0 the root: each node's code unit. */
  trieChar: Uint16Array;
  /** Each node's subtree end: node i's subtree is i .. trieEnd[i] - 1. */
  trieEnd: Int32Array;
  /** The term number of the word each node ends, or -1. */
  trieTerm: Int32Array;
}

/** Identifies the registry bundle file a list bundle was compiled from. */
export const ListBundleSourceSchema = z.strictObject({
  /** SHA-256 (hex) of the registry bundle file's bytes. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Its size in bytes (checked at start, where hashing 40 MB would cost more than the load). */
  bytes: z.int().min(0),
});
export type ListBundleSource = z.output<typeof ListBundleSourceSchema>;

/** Everything of a list bundle; the typed arrays are views into the file when decoded. */
export interface ListBundle {
  dataVersion: string;
  frozenAt: string;
  /** Records, in slug order; record i is bytes offsets[i]..offsets[i+1] of recordBytes. */
  total: number;
  recordBytes: Uint8Array;
  offsets: Uint32Array;
  /** Each record's default list item (src/schemas/list-item.ts): item i is bytes itemOffsets[i]..itemOffsets[i+1] of itemBytes. */
  itemBytes: Uint8Array;
  itemOffsets: Uint32Array;
  /** SHA-256 (hex) of `offsets`, `recordBytes`, `itemOffsets` and `itemBytes`: names the records' and items' exact bytes. */
  recordsDigest: string;
  /** Provider keys ascending, with their display names; providerOf[i] indexes them. */
  providerKeys: string[];
  providerDisplay: string[];
  providerOf: Int32Array;
  /** Index into GAME_TYPES. */
  typeOf: Uint8Array;
  /** 1 when the record has more than one RTP variant. */
  multi: Uint8Array;
  /** Per record, bit k set when it carries BADGES[k] (`badgeBit`). */
  badges: Uint8Array;
  /** Per record, the index of its confidence level in CONFIDENCE_LEVELS (`confidenceIndex`). */
  confidence: Uint8Array;
  /** Index into VOLATILITIES, or VOLATILITIES.length when unknown (`volatilityIndex`). */
  volatilityOf: Uint8Array;
  /** Operator keys ascending, with their display names; bit `operatorBit(k, build)` of operatorBuilds indexes them. */
  operatorKeys: string[];
  operatorDisplay: string[];
  /** Per record, the builds each operator was observed at (`operatorBit`). */
  operatorBuilds: Uint32Array;
  /** stated_rtp. */
  rtp: Float64Array;
  /** max_win (a multiple of the stake), NaN when unknown. */
  maxWin: Float64Array;
  /** release_year, 0 when unknown. */
  year: Uint16Array;
  /** Record indexes in each order. */
  orders: Record<StaticSort, Int32Array>;
  searchIndex: PackedSearchIndex;
  meta: z.output<typeof RegistryFileSchema>;
  history: Array<z.output<typeof HistoryEntrySchema>>;
  source: ListBundleSource;
}
