// The search index's words as a character trie read in place from the list bundle (layout in
// src/schemas/list-bundle.ts PackedSearchIndex, built by src/emit/list/search-index.ts): a word's
// number, the words a prefix starts, and the words within a few edits of a word (Levenshtein).
import type { PackedSearchIndex } from '../schemas/list-bundle.ts';

/** A word found by `prefixed` or `near`: its term number, length and edit distance (0 for prefixes). */
export interface FoundWord {
  term: number;
  length: number;
  distance: number;
}

/**
 * The trie over the index's words. Nodes are in depth-first order, children by code unit: node i
 * holds one code unit (`char[i]`), its subtree is i .. end[i] - 1, and `term[i]` is the number of
 * the word ending there (-1 if none); node 0 is the root.
 */
export class TermTrie {
  private readonly char: Uint16Array;
  private readonly end: Int32Array;
  private readonly term: Int32Array;
  /** Depth of each node: the length of the word it spells. */
  private readonly depth: Int32Array;
  /** The longest word in each node's subtree, to leave out subtrees of words too short to be near. */
  private readonly longest: Int32Array;
  /** One row of the edit-distance table per depth, and the searched word's code units (grown on demand). */
  private rows = new Uint8Array(0);
  private codes = new Uint16Array(0);

  constructor(packed: Pick<PackedSearchIndex, 'trieChar' | 'trieEnd' | 'trieTerm'>) {
    this.char = packed.trieChar;
    this.end = packed.trieEnd;
    this.term = packed.trieTerm;
    const n = this.char.length;
    if (this.end.length !== n || this.term.length !== n) throw new Error('list bundle search index: the trie arrays differ in length');
    // Every subtree ends after its node and within the trie, so every walk below moves forward and stops.
    for (let i = 0; i < n; i++) if (this.end[i]! <= i || this.end[i]! > n) throw new Error(`list bundle search index: trie node ${i} ends at ${this.end[i]}`);
    this.depth = new Int32Array(n);
    this.longest = new Int32Array(n);
    for (let i = 0; i < n; i++) for (let c = i + 1; c < this.end[i]!; c = this.end[c]!) this.depth[c] = this.depth[i]! + 1;
    for (let i = n - 1; i >= 0; i--) {
      let longest = this.term[i]! >= 0 ? this.depth[i]! : 0;
      for (let c = i + 1; c < this.end[i]!; c = this.end[c]!) if (this.longest[c]! > longest) longest = this.longest[c]!;
      this.longest[i] = longest;
    }
  }

  /** The node spelling `word`, or -1. */
  private node(word: string): number {
    if (this.char.length === 0) return -1;
    let at = 0;
    for (let k = 0; k < word.length; k++) {
      const code = word.charCodeAt(k);
      let c = at + 1;
      while (c < this.end[at]! && this.char[c] !== code) c = this.end[c]!;
      if (c >= this.end[at]!) return -1;
      at = c;
    }
    return at;
  }

  /** The term number of `word`, or -1 when the index does not have it. */
  get(word: string): number {
    const at = this.node(word);
    return at < 0 ? -1 : this.term[at]!;
  }

  /** Whether some word of the index starts with `prefix` (the word itself included). */
  hasPrefix(prefix: string): boolean {
    return this.node(prefix) >= 0;
  }

  /** The words longer than `prefix` that start with it. */
  prefixed(prefix: string): FoundWord[] {
    const out: FoundWord[] = [];
    const at = this.node(prefix);
    if (at < 0) return out;
    for (let i = at + 1; i < this.end[at]!; i++) if (this.term[i]! >= 0) out.push({ term: this.term[i]!, length: this.depth[i]!, distance: 0 });
    return out;
  }

  /**
   * The words within `maxDistance` edits (insertions, deletions, substitutions of code units) of
   * `word`, in trie order; only the first one found with `first`; with `unprefixed`, not `word`
   * itself nor the longer words it starts (those are `get`'s and `prefixed`'s).
   */
  near(word: string, maxDistance: number, options: { first?: boolean; unprefixed?: boolean } = {}): FoundWord[] {
    const out: FoundWord[] = [];
    const m = word.length;
    const cols = m + 1;
    const maxDepth = m + maxDistance;
    const over = maxDistance + 1; // any distance above maxDistance, stored as this one
    if (this.rows.length < (maxDepth + 1) * cols) this.rows = new Uint8Array(Math.max(2 * this.rows.length, (maxDepth + 1) * cols));
    if (this.codes.length < m) this.codes = new Uint16Array(Math.max(2 * this.codes.length, m));
    const { rows, codes, char, end, term, depth, longest } = this;
    for (let j = 0; j < cols; j++) rows[j] = Math.min(j, over);
    for (let j = 0; j < m; j++) codes[j] = word.charCodeAt(j);
    // With `unprefixed`, the subtree of `word` (its node and the words it starts) is left out.
    const self = options.unprefixed ? this.node(word) : -1;
    if (self === 0) return out; // every word starts with ''
    let i = 1;
    while (i < char.length) {
      const d = depth[i]!;
      // Too deep, every word below too short, or left out: nothing to find here.
      if (d > maxDepth || longest[i]! + maxDistance < m || i === self) {
        i = end[i]!;
        continue;
      }
      // Row d of the table from row d - 1 (the parent's, computed last at that depth), only within
      // the band |j - d| <= maxDistance; cells beside the band hold `over`.
      const row = d * cols;
      const up = row - cols;
      const code = char[i]!;
      const from = Math.max(d - maxDistance, 1);
      const to = Math.min(d + maxDistance, m);
      let best = Math.min(d, over);
      rows[row] = best;
      if (from > 1) rows[row + from - 1] = over;
      for (let j = from; j <= to; j++) {
        let v = rows[up + j - 1]! + (code === codes[j - 1] ? 0 : 1);
        const del = rows[up + j]! + 1;
        if (del < v) v = del;
        const ins = rows[row + j - 1]! + 1;
        if (ins < v) v = ins;
        if (v > over) v = over;
        rows[row + j] = v;
        if (v < best) best = v;
      }
      if (to < m) rows[row + to + 1] = over;
      if (best > maxDistance) {
        i = end[i]!;
        continue;
      }
      const distance = to === m ? rows[row + m]! : over;
      if (term[i]! >= 0 && distance <= maxDistance) {
        out.push({ term: term[i]!, length: d, distance });
        if (options.first) return out;
      }
      i++;
    }
    return out;
  }

  /** Every word, by term number (for tests and inspection). */
  words(): string[] {
    const out: string[] = [];
    const path: string[] = [];
    for (let i = 1; i < this.char.length; i++) {
      path.length = this.depth[i]! - 1;
      path.push(String.fromCharCode(this.char[i]!));
      if (this.term[i]! >= 0) out[this.term[i]!] = path.join('');
    }
    return out;
  }
}
