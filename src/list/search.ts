// Full-text matching for `q` over the list bundle's search index (src/emit/list/search-index.ts
// builds it): words looked up in the index's trie (src/list/term-trie.ts) for exact, prefix and
// fuzzy matches, records matched and scored on the posting lists; as typed first, and forgivingly
// when nothing matches (src/list/forgive.ts).

import { byteLru, stringBytes } from '../lib/bounded.ts';
import type { PackedSearchIndex } from '../schemas/list-bundle.ts';
import { SEARCH_FIELDS, SEARCH_OPTIONS, SearchIndexHeadSchema, type SearchMatch } from '../schemas/search-index.ts';
import { MAX_FORGIVING_TERMS, type PlannedTerm, planForgiving, readsAsTyped, splitWhole, type TermLookup } from './forgive.ts';
import { type FoundWord, TermTrie } from './term-trie.ts';

const { weights, maxFuzzy, bm25: BM25 } = SEARCH_OPTIONS;

/** The BM25+ term score, as MiniSearch computes it (same operations, same order), so the scores equal its `search`'s. */
function bm25(termFreq: number, matchingCount: number, totalCount: number, fieldLength: number, avgFieldLength: number): number {
  const { k, b, d } = BM25;
  const invDocFreq = Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
  return invDocFreq * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / avgFieldLength)));
}

/** Term numbers ascending (MiniSearch's order of prefix matches, see `termOrder` in src/emit/list/search-index.ts). */
const byTerm = (a: FoundWord, b: FoundWord) => a.term - b.term;

/**
 * A query's words expanded into index terms, packed: word j stands for the terms
 * `terms[start[j]] .. terms[start[j + 1] - 1]`, each with its weight. Typed arrays, so what a kept
 * search holds for its relevance order is counted in bytes (a hostile query's expansions once
 * stayed behind in a cached search as uncounted arrays of pairs, and filled the heap).
 */
interface Expansion {
  terms: Int32Array;
  weights: Float64Array;
  start: Int32Array;
}

/** Packs per-word lists of [term, weight] into an Expansion. */
function pack(expanded: ReadonlyArray<ReadonlyArray<[number, number]>>): Expansion {
  let total = 0;
  for (const e of expanded) total += e.length;
  const terms = new Int32Array(total);
  const weights = new Float64Array(total);
  const start = new Int32Array(expanded.length + 1);
  let k = 0;
  for (let j = 0; j < expanded.length; j++) {
    start[j] = k;
    for (const [t, w] of expanded[j]!) {
      terms[k] = t;
      weights[k++] = w;
    }
  }
  start[expanded.length] = k;
  return { terms, weights, start };
}

/** A word's fuzzy expansions (its index words within some edits, not as typed or as a prefix), with their weights. */
interface Fuzzy {
  terms: Int32Array;
  weights: Float64Array;
}

/**
 * Bound on the memo of fuzzy expansions. A fuzzy walk visits much of the index's trie, and the same
 * words recur across distinct queries: on the shipped registry, the walk was a sixth of the CPU of a
 * stream of never-repeated list queries. Each entry is weighed by its arrays and its key.
 */
export const FUZZY_MEMO_BYTES = 1024 * 1024;
const FUZZY_MEMO_ENTRIES = 16_384;

/** Bytes an Expansion holds. */
const expansionBytes = (e: Expansion) => e.terms.byteLength + e.weights.byteLength + e.start.byteLength;

/**
 * Search over the packed index, as MiniSearch's `search` with SEARCH_OPTIONS would answer over the
 * same documents: each query term expanded into the index's words (exact, prefix and fuzzy, in the
 * order MiniSearch visits them), records matched on the posting lists with typed arrays, and
 * relevance scores summed in MiniSearch's order of operations, so the relevance order is identical
 * too; scores are computed only when a query asks for that order.
 */
export class PostingSearch {
  private readonly trie: TermTrie;
  private readonly packed: PackedSearchIndex;
  private readonly fields = SEARCH_FIELDS.length;
  /** Field ids and boosts in the order MiniSearch visits them. */
  private readonly fieldOrder = SEARCH_FIELDS.map((f, id) => ({ id, boost: (SEARCH_OPTIONS.boost as Partial<Record<string, number>>)[f] || 1 }));
  private readonly avgFieldLength: number[];
  private readonly documentCount: number;
  /** Per record: how many query terms matched so far (reset after each search). */
  private readonly hits: Uint8Array;
  /** Scratch list of the records a search reaches. */
  private readonly touched: Int32Array;
  private readonly scores: Float64Array;
  private readonly termScores: Float64Array;

  /** Fuzzy expansions by word and edit distance (FUZZY_MEMO_BYTES). */
  private readonly fuzzyMemo = byteLru<Fuzzy>(
    FUZZY_MEMO_BYTES,
    FUZZY_MEMO_ENTRIES,
    (f, key) => f.terms.byteLength + f.weights.byteLength + stringBytes(key) + 64,
  );

  /** Whether `match` reads a query forgivingly when nothing matches it as typed. */
  private readonly forgiving: boolean;
  private readonly lookup: TermLookup;

  /** Opens `packed` (its typed arrays are used in place); throws a one-line reason when its head does not parse. */
  constructor(packed: PackedSearchIndex, options: { forgiving?: boolean } = {}) {
    const parsed = SearchIndexHeadSchema.safeParse(JSON.parse(packed.head));
    if (!parsed.success) throw new Error(`list bundle search index head: ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`);
    const head = parsed.data;
    const trie = new TermTrie(packed);
    this.trie = trie;
    this.forgiving = options.forgiving ?? true;
    this.lookup = {
      has: (t) => trie.get(t) >= 0,
      hasPrefix: (p) => trie.hasPrefix(p),
      hasNear: (t, d) => trie.near(t, d, { first: true }).length > 0,
    };
    this.packed = packed;
    this.avgFieldLength = head.averageFieldLength;
    this.documentCount = head.documentCount;
    const n = head.documentCount;
    this.hits = new Uint8Array(n);
    this.touched = new Int32Array(n);
    this.scores = new Float64Array(n);
    this.termScores = new Float64Array(n);
  }

  /**
   * The terms a query term stands for, with their weights, in MiniSearch's order (executeQuerySpec):
   * exact, prefixes (by term number, the order its term tree visits them), then words within
   * `maxDistance` edits (by term number descending, the order of its fuzzy walk; by default
   * SEARCH_OPTIONS' 0.2 × length from 5 letters; the forgiving reading passes its own, never smaller).
   */
  private expand(term: string, maxDistance = term.length >= 5 ? Math.min(maxFuzzy, Math.round(term.length * 0.2)) : 0): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    const exact = this.trie.get(term);
    if (exact >= 0) out.push([exact, 1]);
    for (const w of this.trie.prefixed(term).sort(byTerm)) {
      out.push([w.term, (weights.prefix * w.length) / (w.length + 0.3 * (w.length - term.length))]);
    }
    if (maxDistance) {
      const fuzzy = this.fuzzy(term, maxDistance);
      for (let k = 0; k < fuzzy.terms.length; k++) out.push([fuzzy.terms[k]!, fuzzy.weights[k]!]);
    }
    return out;
  }

  /** Bytes the memo of fuzzy expansions holds (at most FUZZY_MEMO_BYTES). */
  fuzzyMemoBytes(): number {
    return this.fuzzyMemo.calculatedSize;
  }

  /** The words within `maxDistance` edits of `term` but not it nor its prefixed words, by term number descending, weighted; memoised. */
  private fuzzy(term: string, maxDistance: number): Fuzzy {
    const key = `${maxDistance}:${term}`;
    const kept = this.fuzzyMemo.get(key);
    if (kept !== undefined) return kept;
    const found = this.trie.near(term, maxDistance, { unprefixed: true }).sort(byTerm).reverse();
    const fuzzy: Fuzzy = {
      terms: Int32Array.from(found, (w) => w.term),
      weights: Float64Array.from(found, (w) => (weights.fuzzy * w.length) / (w.length + w.distance)),
    };
    this.fuzzyMemo.set(key, fuzzy);
    return fuzzy;
  }

  /**
   * Records matching `terms` (tokenised by `queryTerms`): every term as typed (`matchAsTyped`, exactly
   * MiniSearch's matches), or when no record matches so, the forgiving reading (src/list/forgive.ts).
   */
  match(terms: readonly string[]): SearchMatch {
    const typed = this.matchAsTyped(terms);
    if (!this.forgiving || terms.length === 0 || terms.length > 255) return typed;
    // A match as typed stands, unless a word reached it only through typos while it splits wholly
    // into index words ("wolfgold" finds "Wolfwood" within two edits, but means "Wolf Gold").
    if (typed.ids.length > 0 && !terms.some((t) => splitWhole(t, this.lookup) !== null)) return typed;
    const plan = planForgiving(terms, this.lookup);
    // Nothing to forgive (every word spelt as the index has it, none optional), or more words than
    // any name has (a run of letters split into dozens of parts): the answer stays as typed.
    if (plan.length > MAX_FORGIVING_TERMS || readsAsTyped(plan, terms)) return typed;
    const forgiven = this.run(
      plan.map((p) => this.expandForgiving(p)),
      plan.map((p) => p.required),
    );
    return forgiven.ids.length > 0 || typed.ids.length === 0 ? forgiven : typed;
  }

  /** Records matching every term (each through any of its expansions, in any field), ascending. */
  matchAsTyped(terms: readonly string[]): SearchMatch {
    if (terms.length === 0 || terms.length > 255) return { ids: new Int32Array(0), byRelevance: new Int32Array(0), heldBytes: 0 };
    return this.run(
      terms.map((t) => this.expand(t)),
      null,
    );
  }

  /** The index terms a planned word stands for: each form exact, as a prefix and within its typo tolerance, best weight kept. */
  private expandForgiving(p: PlannedTerm): Array<[number, number]> {
    const best = new Map<number, number>();
    for (const form of p.forms) {
      for (const [t, w] of this.expand(form.term, form.fuzzy)) if ((best.get(t) ?? 0) < w) best.set(t, w);
    }
    return [...best];
  }

  /**
   * Records matching every required term (`required` null: every term), each through any of its
   * expansions in any field; the other terms only add to the relevance score.
   */
  private run(words: Array<Array<[number, number]>>, required: readonly boolean[] | null): SearchMatch {
    const expansion = pack(words);
    const { terms, start } = expansion;
    const { postingStart, postingIds } = this.packed;
    const { hits, touched } = this;
    const F = this.fields;
    let count = 0;
    let step = 0;
    for (let j = 0; j < words.length; j++) {
      if (required !== null && !required[j]) continue;
      for (let e = start[j]!; e < start[j + 1]!; e++) {
        const t = terms[e]!;
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
    const ids = matched.slice().sort();
    let byRelevance: Int32Array | undefined;
    // What the relevance order is made from, until it is made; then let go.
    let pending: Expansion | null = expansion;
    const self = this;
    return {
      ids,
      get byRelevance(): Int32Array {
        if (byRelevance === undefined) {
          byRelevance = self.relevance(pending!, matched);
          pending = null;
        }
        return byRelevance;
      },
      get heldBytes(): number {
        return pending === null ? 0 : expansionBytes(pending) + matched.byteLength;
      },
    };
  }

  /** `matched` (record indexes) by MiniSearch's score descending, then record index. */
  private relevance(expansion: Expansion, matched: Int32Array): Int32Array {
    const { postingStart, postingIds, postingFreqs, fieldLength } = this.packed;
    const F = this.fields;
    const { scores, termScores, hits } = this;
    const { terms, weights, start } = expansion;
    const words = start.length - 1;
    for (const d of matched) hits[d] = 1; // only matched documents are scored
    for (let j = 0; j < words; j++) {
      for (const d of matched) termScores[d] = 0;
      for (let e = start[j]!; e < start[j + 1]!; e++) {
        const t = terms[e]!;
        const termWeight = weights[e]!;
        for (const { id: fieldId, boost: fieldBoost } of this.fieldOrder) {
          const from = postingStart[t * F + fieldId]!;
          const to = postingStart[t * F + fieldId + 1]!;
          const matchingFields = to - from;
          const avg = this.avgFieldLength[fieldId]!;
          for (let k = from; k < to; k++) {
            const d = postingIds[k]!;
            if (hits[d] === 0) continue;
            const raw = bm25(postingFreqs[k]!, matchingFields, this.documentCount, fieldLength[d * F + fieldId]!, avg);
            termScores[d] = termScores[d]! + termWeight * 1 * fieldBoost * 1 * raw;
          }
        }
      }
      for (const d of matched) scores[d] = j === 0 ? termScores[d]! : scores[d]! + termScores[d]!;
    }
    const quality = words;
    const n = matched.length;
    const ids = matched;
    const final = new Float64Array(n);
    const order: number[] = new Array<number>(n);
    for (let k = 0; k < n; k++) {
      const d = matched[k]!;
      hits[d] = 0;
      final[k] = scores[d]! * quality;
      order[k] = k;
    }
    order.sort((a, b) => final[b]! - final[a]! || ids[a]! - ids[b]!);
    const out = new Int32Array(n);
    for (let k = 0; k < n; k++) out[k] = ids[order[k]!]!;
    return out;
  }
}
