// Full-text matching for `q` over the list bundle's packed MiniSearch index: the index is restored
// around the packed posting lists (decoded per term on first use) and searched by PostingSearch,
// as typed first and forgivingly when nothing matches (src/list/forgive.ts).
import MiniSearch from 'minisearch';
import type { PackedSearchIndex } from '../schemas/list-bundle.ts';
import { planForgiving, readsAsTyped, type PlannedTerm, type TermLookup } from './forgive.ts';
import { INDEX_OPTIONS, SEARCH_OPTIONS, type MiniSearchInternals, type PackedHead, type PackedNode, type SearchDocument, type SearchMatch } from '../schemas/search-index.ts';

/** A term's postings per field, decoded into MiniSearch's Map form on first use. */
class PackedTermData {
  /** The term's number: its posting ranges start at postingStart[term * F]. */
  readonly term: number;
  private readonly maps: Array<Map<number, number> | null | undefined>;
  private readonly packed: PackedSearchIndex;
  private readonly base: number;
  constructor(packed: PackedSearchIndex, term: number, fields: number) {
    this.packed = packed;
    this.term = term;
    this.base = term * fields;
    this.maps = new Array<Map<number, number> | null | undefined>(fields);
  }

  get(fieldId: number): Map<number, number> | undefined {
    let map = this.maps[fieldId];
    if (map === undefined) {
      const { postingStart, postingIds, postingFreqs } = this.packed;
      const from = postingStart[this.base + fieldId]!;
      const to = postingStart[this.base + fieldId + 1]!;
      if (from === to) map = null;
      else {
        map = new Map();
        for (let k = from; k < to; k++) map.set(postingIds[k]!, postingFreqs[k]!);
      }
      this.maps[fieldId] = map;
    }
    return map ?? undefined;
  }
}

/**
 * Restores an index flattened by `packSearchIndex`; the typed arrays are used in place. With
 * `documents: false` the per-document maps (ids, field lengths) are left empty: the term tree is
 * all PostingSearch reads (it takes ids and lengths from the packed arrays), and at 50k games those
 * maps are three Maps of 50k entries built at every start. Such an index answers term lookups only,
 * not `search()`.
 */
export function unpackSearchIndex(packed: PackedSearchIndex, options: { documents?: boolean } = {}): MiniSearch<SearchDocument> {
  const head = JSON.parse(packed.head) as PackedHead;
  const index = new MiniSearch<SearchDocument>(INDEX_OPTIONS);
  const ms = index as unknown as MiniSearchInternals;
  const fields = Object.keys(head.fieldIds).length;
  const unpackNode = (node: PackedNode): Map<string, unknown> => {
    const map = new Map<string, unknown>();
    for (const [key, value] of node) map.set(key, typeof value === 'number' ? new PackedTermData(packed, value, fields) : unpackNode(value));
    return map;
  };
  ms._index = new ms._index.constructor(unpackNode(head.tree)) as MiniSearchInternals['_index'];
  ms._documentCount = head.documentCount;
  ms._nextId = head.nextId;
  ms._fieldIds = head.fieldIds;
  ms._avgFieldLength = head.averageFieldLength;
  ms._dirtCount = head.dirtCount;
  if (options.documents === false) return index;
  const { documentIds, fieldLength } = packed;
  for (let k = 0; k < documentIds.length; k += 2) {
    const shortId = documentIds[k]!;
    const id = documentIds[k + 1]!;
    ms._documentIds.set(shortId, id);
    ms._idToShortId.set(id, shortId);
    const at = (k / 2) * fields;
    const lengths = new Array<number>(fields);
    for (let f = 0; f < fields; f++) lengths[f] = fieldLength[at + f]!;
    ms._fieldLength.set(shortId, lengths);
  }
  return index;
}

/** MiniSearch's defaults that SEARCH_OPTIONS leaves as they are (minisearch 7). */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };

/** MiniSearch's BM25+ term score, written exactly as MiniSearch computes it (same operations, same order). */
function bm25(termFreq: number, matchingCount: number, totalCount: number, fieldLength: number, avgFieldLength: number): number {
  const { k, b, d } = BM25;
  const invDocFreq = Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
  return invDocFreq * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / avgFieldLength)));
}

interface SearchableTree {
  get(key: string): unknown;
  atPrefix(prefix: string): Iterable<[string, unknown]>;
  fuzzyGet(key: string, maxDistance: number): Map<string, [unknown, number]>;
}

/**
 * `search` without MiniSearch's per-document result objects: the same query terms expanded the
 * same way (exact, prefix and fuzzy terms from MiniSearch's own term tree, in its order), matched
 * on the packed posting lists with typed arrays. Matches are exactly `search`'s; relevance scores
 * are summed in MiniSearch's order of operations, so the relevance order is identical too, and are
 * computed only when a query asks for that order.
 */
export class PostingSearch {
  private readonly tree: SearchableTree;
  private readonly packed: PackedSearchIndex;
  private readonly fields: number;
  /** Field ids and boosts in the order MiniSearch visits them. */
  private readonly fieldOrder: Array<{ id: number; boost: number }>;
  private readonly avgFieldLength: number[];
  private readonly documentCount: number;
  /** Document id (record index) of each short id. */
  private readonly idOf: Int32Array;
  /** Field lengths by short id × field. */
  private readonly fieldLength: Uint32Array;
  /** Per short id: how many query terms matched so far (reset after each search). */
  private readonly hits: Uint8Array;
  /** Scratch list of the short ids a search reaches. */
  private readonly touched: Int32Array;
  private readonly scores: Float64Array;
  private readonly termScores: Float64Array;

  /** Whether `match` reads a query forgivingly when nothing matches it as typed. */
  private readonly forgiving: boolean;
  private readonly lookup: TermLookup;

  constructor(index: MiniSearch<SearchDocument>, packed: PackedSearchIndex, options: { forgiving?: boolean } = {}) {
    const ms = index as unknown as MiniSearchInternals;
    this.tree = ms._index as unknown as SearchableTree;
    this.forgiving = options.forgiving ?? true;
    const tree = this.tree;
    this.lookup = {
      has: (t) => tree.get(t) !== undefined,
      hasPrefix: (p) => !tree.atPrefix(p)[Symbol.iterator]().next().done,
      hasNear: (t, d) => tree.fuzzyGet(t, d).size > 0,
    };
    this.packed = packed;
    this.fields = Object.keys(ms._fieldIds).length;
    const boost = SEARCH_OPTIONS.boost ?? {};
    this.fieldOrder = (INDEX_OPTIONS.fields as string[]).map((f) => ({ id: ms._fieldIds[f]!, boost: boost[f] || 1 }));
    this.avgFieldLength = ms._avgFieldLength;
    this.documentCount = ms._documentCount;
    let maxShort = 0;
    for (let k = 0; k < packed.documentIds.length; k += 2) maxShort = Math.max(maxShort, packed.documentIds[k]! + 1);
    this.idOf = new Int32Array(maxShort).fill(-1);
    this.fieldLength = new Uint32Array(maxShort * this.fields);
    for (let k = 0; k < packed.documentIds.length; k += 2) {
      const shortId = packed.documentIds[k]!;
      this.idOf[shortId] = packed.documentIds[k + 1]!;
      for (let f = 0; f < this.fields; f++) this.fieldLength[shortId * this.fields + f] = packed.fieldLength[(k / 2) * this.fields + f]!;
    }
    this.hits = new Uint8Array(maxShort);
    this.touched = new Int32Array(maxShort);
    this.scores = new Float64Array(maxShort);
    this.termScores = new Float64Array(maxShort);
  }

  /**
   * The terms a query term stands for, with their weights, in MiniSearch's order (executeQuerySpec):
   * exact, prefixes, then words within `maxDistance` edits (by default SEARCH_OPTIONS' 0.2 × length
   * from 5 letters; the forgiving reading passes its own, never smaller).
   */
  private expand(term: string, maxDistance = term.length >= 5 ? Math.min(MAX_FUZZY, Math.round(term.length * 0.2)) : 0): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    const exact = this.tree.get(term);
    if (exact !== undefined) out.push([(exact as PackedTermData).term, 1]);
    const fuzzyMatches = maxDistance ? this.tree.fuzzyGet(term, maxDistance) : undefined;
    for (const [derived, data] of this.tree.atPrefix(term)) {
      const distance = derived.length - term.length;
      if (!distance) continue;
      fuzzyMatches?.delete(derived);
      out.push([(data as PackedTermData).term, (PREFIX_WEIGHT * derived.length) / (derived.length + 0.3 * distance)]);
    }
    if (fuzzyMatches !== undefined) {
      for (const [derived, [data, distance]] of fuzzyMatches) {
        if (!distance) continue;
        out.push([(data as PackedTermData).term, (FUZZY_WEIGHT * derived.length) / (derived.length + distance)]);
      }
    }
    return out;
  }

  /**
   * Records matching `terms` (tokenised by `queryTerms`): every term as typed (`matchAsTyped`, exactly
   * MiniSearch's matches), or when no record matches so, the forgiving reading (src/list/forgive.ts).
   */
  match(terms: readonly string[]): SearchMatch {
    const typed = this.matchAsTyped(terms);
    if (!this.forgiving || typed.ids.length > 0 || terms.length === 0 || terms.length > 255) return typed;
    const plan = planForgiving(terms, this.lookup);
    // Nothing to forgive (every word spelt as the index has it, none optional): the answer stays empty.
    if (plan.length > 255 || readsAsTyped(plan, terms)) return typed;
    return this.run(
      plan.map((p) => this.expandForgiving(p)),
      plan.map((p) => p.required),
    );
  }

  /** Short ids matching every term (each through any of its expansions, in any field), ascending by record index. */
  matchAsTyped(terms: readonly string[]): SearchMatch {
    if (terms.length === 0 || terms.length > 255) return { ids: new Int32Array(0), byRelevance: new Int32Array(0) };
    return this.run(terms.map((t) => this.expand(t)), null);
  }

  /** The index terms a planned word stands for: each form exact, as a prefix and within its typo tolerance, best weight kept. */
  private expandForgiving(p: PlannedTerm): Array<[number, number]> {
    const weights = new Map<number, number>();
    const add = (term: number, weight: number) => {
      if ((weights.get(term) ?? 0) < weight) weights.set(term, weight);
    };
    for (const form of p.forms) for (const [t, w] of this.expand(form.term, form.fuzzy)) add(t, w);
    return [...weights];
  }

  /**
   * Records matching every required term (`required` null: every term), each through any of its
   * expansions in any field; the other terms only add to the relevance score.
   */
  private run(expanded: Array<Array<[number, number]>>, required: readonly boolean[] | null): SearchMatch {
    const { postingStart, postingIds } = this.packed;
    const { hits, touched } = this;
    const F = this.fields;
    let count = 0;
    let step = 0;
    for (let j = 0; j < expanded.length; j++) {
      if (required !== null && !required[j]) continue;
      for (const [t] of expanded[j]!) {
        const from = postingStart[t * F]!;
        const to = postingStart[(t + 1) * F]!;
        for (let k = from; k < to; k++) {
          const d = postingIds[k]!;
          if (hits[d] !== step) continue;
          hits[d] = step + 1;
          if (step === 0) touched[count++] = d;
        }
      }
      step++;
    }
    const all = step;
    let kept = 0;
    for (let k = 0; k < count; k++) {
      const d = touched[k]!;
      if (hits[d] === all) touched[kept++] = d;
      hits[d] = 0;
    }
    // Exact-size copies: a cached search keeps only these (typed arrays, no per-document objects).
    const matched = touched.slice(0, kept);
    const ids = new Int32Array(kept);
    for (let k = 0; k < kept; k++) ids[k] = this.idOf[matched[k]!]!;
    ids.sort();
    let byRelevance: Int32Array | undefined;
    const self = this;
    return {
      ids,
      get byRelevance(): Int32Array {
        byRelevance ??= self.relevance(expanded, matched);
        return byRelevance;
      },
    };
  }

  /** Record indexes of `matched` (short ids) by MiniSearch's score descending, then record index. */
  private relevance(expanded: ReadonlyArray<Array<[number, number]>>, matched: Int32Array): Int32Array {
    const { postingStart, postingIds, postingFreqs } = this.packed;
    const F = this.fields;
    const { scores, termScores, hits } = this;
    for (const d of matched) hits[d] = 1; // only matched documents are scored
    for (let j = 0; j < expanded.length; j++) {
      for (const d of matched) termScores[d] = 0;
      for (const [t, termWeight] of expanded[j]!) {
        for (const { id: fieldId, boost: fieldBoost } of this.fieldOrder) {
          const from = postingStart[t * F + fieldId]!;
          const to = postingStart[t * F + fieldId + 1]!;
          const matchingFields = to - from;
          const avg = this.avgFieldLength[fieldId]!;
          for (let k = from; k < to; k++) {
            const d = postingIds[k]!;
            if (hits[d] === 0) continue;
            const raw = bm25(postingFreqs[k]!, matchingFields, this.documentCount, this.fieldLength[d * F + fieldId]!, avg);
            termScores[d] = termScores[d]! + termWeight * 1 * fieldBoost * 1 * raw;
          }
        }
      }
      for (const d of matched) scores[d] = j === 0 ? termScores[d]! : scores[d]! + termScores[d]!;
    }
    const quality = expanded.length;
    const n = matched.length;
    const ids = new Int32Array(n);
    const final = new Float64Array(n);
    const order: number[] = new Array<number>(n);
    for (let k = 0; k < n; k++) {
      const d = matched[k]!;
      hits[d] = 0;
      ids[k] = this.idOf[d]!;
      final[k] = scores[d]! * quality;
      order[k] = k;
    }
    order.sort((a, b) => final[b]! - final[a]! || ids[a]! - ids[b]!);
    const out = new Int32Array(n);
    for (let k = 0; k < n; k++) out[k] = ids[order[k]!]!;
    return out;
  }
}