// The list's facets: the `filtered` total and the facet counts read from a query's count table
// (facet-table.ts), and the facets' JSON written straight into the response bytes. Facets count
// the records matching every filter except their own, sorted by count descending then key; zero
// counts are left out except for the selected values.
import { GAME_TYPES, VOLATILITIES } from '../schemas/authoring.ts';
import { CONFIDENCE_LEVELS } from '../schemas/game-record.ts';
import type { ListBundle } from '../schemas/list-bundle.ts';
import { compareStrings } from '../schemas/text.ts';
import { ALL, ALL_LEVELS, CONFIDENCES, type CountTable, cellMask, TableCounter, TYPES, VOLATILITY_CELLS } from './facet-table.ts';

export { ALL, ALL_LEVELS, type CountTable, levelMask, UNKNOWN } from './facet-table.ts';

const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const PROVIDERS_OPEN = new Uint8Array(Buffer.from('{"providers":['));
const TYPES_OPEN = new Uint8Array(Buffer.from('],"game_types":['));
const CONFIDENCE_OPEN = new Uint8Array(Buffer.from('],"confidence":['));
const VOLATILITIES_OPEN = new Uint8Array(Buffer.from('],"volatilities":['));
const FACETS_CLOSE = new Uint8Array(Buffer.from(']}'));

/** Strings encoded once, each its own view (so copying one allocates nothing). */
type Fragments = Uint8Array[];
const fragments = (texts: readonly string[]): Fragments => texts.map((t) => new Uint8Array(Buffer.from(t)));
const fragmentBytes = (f: Fragments) => f.reduce((sum, b) => sum + b.length, 0);

/** Writes a non-negative integer below 2^31 in decimal at `at`; returns the end. */
export function writeUint(value: number, target: Uint8Array, at: number): number {
  let digits = 1;
  for (let v = value; v >= 10; v = (v / 10) | 0) digits++;
  for (let k = at + digits - 1, v = value; k >= at; k--, v = (v / 10) | 0) target[k] = 0x30 + (v % 10);
  return at + digits;
}

type Order = { rank: Int32Array; atRank: Int32Array };

/** Each key's position in compareStrings order, and the key index at each position. */
function rankOf(keys: readonly string[]): Order {
  const atRank = Int32Array.from([...keys.keys()].sort((a, b) => compareStrings(keys[a]!, keys[b]!)));
  const rank = new Int32Array(keys.length);
  atRank.forEach((k, r) => {
    rank[k] = r;
  });
  return { rank, atRank };
}

/** Count tables and facet JSON over one list bundle's columns. */
export class Facets {
  /** Upper bound on the bytes `write` writes: every entry listed with a count of n digits. */
  readonly maxBytes: number;
  private readonly n: number;
  private readonly p: number;
  private readonly counter: TableCounter;
  private readonly providerHead: Fragments;
  private readonly typeHead: Fragments;
  private readonly confidenceHead = fragments(CONFIDENCE_LEVELS.map((c) => `{"confidence":${JSON.stringify(c)},"count":`));
  /** Confidence facets list levels by count, then in CONFIDENCE_LEVELS order. */
  private readonly confidenceOrder: Order = { rank: Int32Array.from(CONFIDENCE_LEVELS.keys()), atRank: Int32Array.from(CONFIDENCE_LEVELS.keys()) };
  private readonly confidenceCounts = new Int32Array(CONFIDENCES);
  private readonly listedConfidence = new Int32Array(CONFIDENCES);
  private readonly levelHead = fragments(VOLATILITIES.map((v) => `{"volatility":${JSON.stringify(v)},"count":`));
  private readonly levelOrder = rankOf(VOLATILITIES);
  private readonly levelCounts = new Int32Array(VOLATILITIES.length);
  private readonly listedLevels = new Int32Array(VOLATILITIES.length);
  private readonly providerOrder: Order;
  private readonly typeOrder = rankOf(GAME_TYPES);
  private readonly listedProviders: Int32Array;
  private readonly listedTypes = new Int32Array(TYPES);
  private readonly sortKeys: Float64Array;

  constructor(bundle: ListBundle) {
    const { total: n, providerKeys, providerDisplay } = bundle;
    this.n = n;
    this.p = providerKeys.length;
    this.counter = new TableCounter(bundle, this.p, n);
    this.providerHead = fragments(providerKeys.map((k, i) => `{"provider":${JSON.stringify(k)},"display":${JSON.stringify(providerDisplay[i])},"count":`));
    this.typeHead = fragments(GAME_TYPES.map((t) => `{"game_type":${JSON.stringify(t)},"count":`));
    this.providerOrder = rankOf(providerKeys);
    this.listedProviders = new Int32Array(this.p);
    this.sortKeys = new Float64Array(Math.max(this.p, TYPES, CONFIDENCES, VOLATILITY_CELLS));
    this.maxBytes =
      PROVIDERS_OPEN.length +
      TYPES_OPEN.length +
      CONFIDENCE_OPEN.length +
      VOLATILITIES_OPEN.length +
      FACETS_CLOSE.length +
      fragmentBytes(this.providerHead) +
      fragmentBytes(this.typeHead) +
      fragmentBytes(this.confidenceHead) +
      fragmentBytes(this.levelHead) +
      (this.p + TYPES + CONFIDENCES + VOLATILITY_CELLS) * (String(n).length + 2);
  }

  /**
   * The count table of the records `ids` (all when null), only those with badge bit `bit` when it
   * is not 0, and only those `pass` accepts when given (the range filters, memory-engine.ts).
   */
  count(ids: ArrayLike<number> | null, bit = 0, pass: ((i: number) => boolean) | null = null): CountTable {
    return this.counter.count(ids, bit, pass);
  }

  /**
   * Records of a count table passing the provider, game type, has_variants, volatility (`mask`,
   * levelMask) and confidence (`conf`: an index into CONFIDENCE_LEVELS, or ALL) filters.
   */
  filtered(table: CountTable, prov: number, type: number, hv: boolean, mask = ALL_LEVELS, conf = ALL): number {
    return this.counter.sum(table, prov, type, hv ? 1 : 0, cellMask(conf, mask)).filtered;
  }

  /**
   * Writes the listed entries (indexes into heads/counts) as JSON array items, by count
   * descending, then key: each entry becomes one number, (n - count) * entries + rank, so a
   * numeric typed-array sort orders them (exact: below 2^53 for any registry).
   */
  private writeList(target: Uint8Array, at: number, listed: Int32Array, m: number, counts: Int32Array, order: Order, heads: Fragments): number {
    const size = heads.length;
    for (let k = 0; k < m; k++) this.sortKeys[k] = (this.n - counts[listed[k]!]!) * size + order.rank[listed[k]!]!;
    const keys = this.sortKeys.subarray(0, m).sort();
    for (let k = 0; k < m; k++) {
      const entry = order.atRank[keys[k]! % size]!;
      if (k > 0) target[at++] = COMMA;
      const head = heads[entry]!;
      target.set(head, at);
      at += head.length;
      at = writeUint(counts[entry]!, target, at);
      target[at++] = CLOSE_BRACE;
    }
    return at;
  }

  /**
   * Writes `{"providers":[…],"game_types":[…],"confidence":[…],"volatilities":[…]}` for a count
   * table and filters (`mask`: the volatility filter, levelMask; `conf`: the confidence index or
   * ALL) at `at`; returns the end.
   */
  write(table: CountTable, prov: number, type: number, hv: boolean, target: Uint8Array, at: number, mask = ALL_LEVELS, conf = ALL): number {
    const sums = this.counter.sum(table, prov, type, hv ? 1 : 0, cellMask(conf, mask));
    let providers = 0;
    for (let pp = 0; pp < this.p; pp++) if (sums.providers[pp]! > 0 || pp === prov) this.listedProviders[providers++] = pp;
    let types = 0;
    for (let tt = 0; tt < TYPES; tt++) if (sums.types[tt]! > 0 || tt === type) this.listedTypes[types++] = tt;
    // Confidence counts ignore the confidence filter, volatility counts the volatility filter.
    const byCell = sums.cells;
    let confidences = 0;
    for (let c = 0; c < CONFIDENCES; c++) {
      let count = 0;
      for (let v = 0; v < VOLATILITY_CELLS; v++) if ((mask & (1 << v)) !== 0) count += byCell[c * VOLATILITY_CELLS + v]!;
      this.confidenceCounts[c] = count;
      if (count > 0 || c === conf) this.listedConfidence[confidences++] = c;
    }
    let levels = 0;
    for (let v = 0; v < VOLATILITY_CELLS - 1; v++) {
      let count = 0;
      for (let c = 0; c < CONFIDENCES; c++) if (conf === ALL || conf === c) count += byCell[c * VOLATILITY_CELLS + v]!;
      this.levelCounts[v] = count;
      if (count > 0 || (mask !== ALL_LEVELS && (mask & (1 << v)) !== 0)) this.listedLevels[levels++] = v;
    }
    target.set(PROVIDERS_OPEN, at);
    at = this.writeList(target, at + PROVIDERS_OPEN.length, this.listedProviders, providers, sums.providers, this.providerOrder, this.providerHead);
    target.set(TYPES_OPEN, at);
    at = this.writeList(target, at + TYPES_OPEN.length, this.listedTypes, types, sums.types, this.typeOrder, this.typeHead);
    target.set(CONFIDENCE_OPEN, at);
    at = this.writeList(
      target,
      at + CONFIDENCE_OPEN.length,
      this.listedConfidence,
      confidences,
      this.confidenceCounts,
      this.confidenceOrder,
      this.confidenceHead,
    );
    target.set(VOLATILITIES_OPEN, at);
    at = this.writeList(target, at + VOLATILITIES_OPEN.length, this.listedLevels, levels, this.levelCounts, this.levelOrder, this.levelHead);
    target.set(FACETS_CLOSE, at);
    return at + FACETS_CLOSE.length;
  }
}
