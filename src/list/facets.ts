// The list's facet counts: a count table per query (records by provider × game type × has several
// variants × confidence level × volatility), the `filtered` total read from it, and the facets'
// JSON written straight into the response bytes. Facets count the records matching every filter
// except their own, sorted by count descending then key; zero counts are left out except for the
// selected values.
import { GAME_TYPES, VOLATILITIES } from '../schemas/authoring.ts';
import { CONFIDENCE_LEVELS } from '../schemas/game-record.ts';
import type { ListBundle } from '../schemas/list-bundle.ts';
import { compareStrings } from '../schemas/text.ts';

/** No filter on this dimension. */
export const ALL = -1;
/** A provider the registry does not have: matches nothing. */
export const UNKNOWN = -2;
const T = GAME_TYPES.length;
/** Volatility cells: each level, then unknown (list-bundle.ts `volatilityIndex`). */
const V = VOLATILITIES.length + 1;
/** A volatility mask selecting every cell: no volatility filter. */
export const ALL_LEVELS = (1 << V) - 1;
const C = CONFIDENCE_LEVELS.length;
/** Cells per provider, type and has_variants: confidence level × volatility (cell c * V + v). */
const L = C * V;
/** A cell mask selecting every confidence level and volatility. */
const ALL_CELLS = (1 << L) - 1;

/** The volatility mask of a query's levels (null: every level and unknown). */
export function levelMask(levels: readonly string[] | null): number {
  if (levels === null) return ALL_LEVELS;
  let mask = 0;
  for (const level of levels) mask |= 1 << (VOLATILITIES as readonly string[]).indexOf(level);
  return mask;
}

/** The cells (confidence × volatility) a confidence index (or ALL) and a volatility mask select. */
function cellMask(conf: number, mask: number): number {
  let cells = 0;
  for (let c = 0; c < C; c++) if (conf === ALL || conf === c) cells |= mask << (c * V);
  return cells;
}

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

/** Writes a non-negative integer below 2^31 in decimal at `at`. */
function writeUint(value: number, target: Uint8Array, at: number): number {
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
  atRank.forEach((k, r) => (rank[k] = r));
  return { rank, atRank };
}

/**
 * A count table: Uint16 cells while no count can pass 65,535 (a registry of fewer games), which
 * halves what a cached search holds and what each new one allocates; Int32 beyond.
 */
export type CountTable = Uint16Array | Int32Array;

/** Per count table: totals by provider, by game type and by cell (confidence × volatility) over all the others, without and with has_variants. */
interface Totals {
  byProvider: [Int32Array, Int32Array];
  byType: [Int32Array, Int32Array];
  byCell: [Int32Array, Int32Array];
  /** Records by provider, type and has_variants over every confidence × volatility cell (what a query not filtering on those reads). */
  base: Int32Array;
}

/** Count tables and facet JSON over one list bundle's columns. */
export class Facets {
  /** Upper bound on the bytes `write` writes: every entry listed with a count of n digits. */
  readonly maxBytes: number;
  private readonly n: number;
  private readonly p: number;
  private readonly columns: Pick<ListBundle, 'providerOf' | 'typeOf' | 'multi' | 'badges' | 'confidence' | 'volatilityOf'>;
  private readonly providerHead: Fragments;
  private readonly typeHead: Fragments;
  private readonly confidenceHead = fragments(CONFIDENCE_LEVELS.map((c) => `{"confidence":${JSON.stringify(c)},"count":`));
  /** Confidence facets list levels by count, then in CONFIDENCE_LEVELS order. */
  private readonly confidenceOrder: Order = { rank: Int32Array.from(CONFIDENCE_LEVELS.keys()), atRank: Int32Array.from(CONFIDENCE_LEVELS.keys()) };
  private readonly confidenceCounts = new Int32Array(C);
  private readonly listedConfidence = new Int32Array(C);
  private readonly levelHead = fragments(VOLATILITIES.map((v) => `{"volatility":${JSON.stringify(v)},"count":`));
  private readonly levelOrder = rankOf(VOLATILITIES);
  private readonly levelCounts = new Int32Array(VOLATILITIES.length);
  private readonly listedLevels = new Int32Array(VOLATILITIES.length);
  private readonly providerOrder: Order;
  private readonly typeOrder = rankOf(GAME_TYPES);
  private readonly providerCounts: Int32Array;
  private readonly typeCounts = new Int32Array(T);
  private readonly listedProviders: Int32Array;
  private readonly listedTypes = new Int32Array(T);
  private readonly cellCounts = new Int32Array(L);
  private readonly sortKeys: Float64Array;
  private readonly totalsOf = new WeakMap<CountTable, Totals>();

  constructor(bundle: ListBundle) {
    const { total: n, providerKeys, providerDisplay } = bundle;
    this.n = n;
    this.p = providerKeys.length;
    this.columns = bundle;
    this.providerHead = fragments(providerKeys.map((k, i) => `{"provider":${JSON.stringify(k)},"display":${JSON.stringify(providerDisplay[i])},"count":`));
    this.typeHead = fragments(GAME_TYPES.map((t) => `{"game_type":${JSON.stringify(t)},"count":`));
    this.providerOrder = rankOf(providerKeys);
    this.providerCounts = new Int32Array(this.p);
    this.listedProviders = new Int32Array(this.p);
    this.sortKeys = new Float64Array(Math.max(this.p, T, C, V));
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
      (this.p + T + C + V) * (String(n).length + 2);
  }

  private cell(prov: number, type: number, m: number, c: number, v: number): number {
    return ((prov * T + type) * 2 + m) * L + c * V + v;
  }

  /** Records of a table's cells for one provider and type, has_variants from `mFrom`, confidence × volatility in `cells`. */
  private sum(cube: CountTable, prov: number, type: number, mFrom: number, cells: number): number {
    if (cells === ALL_CELLS) {
      const base = this.totals(cube).base;
      const at = (prov * T + type) * 2;
      return mFrom === 0 ? base[at]! + base[at + 1]! : base[at + 1]!;
    }
    let count = 0;
    for (let m = mFrom; m < 2; m++) {
      const at = this.cell(prov, type, m, 0, 0);
      if (cells === ALL_CELLS) for (let l = 0; l < L; l++) count += cube[at + l]!;
      else for (let l = 0; l < L; l++) if ((cells & (1 << l)) !== 0) count += cube[at + l]!;
    }
    return count;
  }

  /** Records of a table by cell (confidence × volatility) into `cellCounts`, over the provider and type filters. */
  private countCells(cube: CountTable, sums: Totals, prov: number, type: number, mFrom: number): Int32Array {
    const out = this.cellCounts;
    if (prov === ALL && type === ALL) {
      out.set(sums.byCell[mFrom]!);
      return out;
    }
    out.fill(0);
    // An unknown provider matches nothing: every count stays 0.
    if (prov === UNKNOWN) return out;
    for (let pp = prov === ALL ? 0 : prov; pp < (prov === ALL ? this.p : prov + 1); pp++) {
      for (let tt = type === ALL ? 0 : type; tt < (type === ALL ? T : type + 1); tt++) {
        for (let m = mFrom; m < 2; m++) {
          const at = this.cell(pp, tt, m, 0, 0);
          for (let l = 0; l < L; l++) out[l]! += cube[at + l]!;
        }
      }
    }
    return out;
  }

  /**
   * The count table of the records `ids` (all when null), only those with badge bit `bit` when it
   * is not 0, and only those `pass` accepts when given (the range filters, memory-engine.ts).
   */
  count(ids: ArrayLike<number> | null, bit = 0, pass: ((i: number) => boolean) | null = null): CountTable {
    const { providerOf, typeOf, multi, badges, confidence, volatilityOf } = this.columns;
    const size = this.p * T * 2 * L;
    const cube = this.n <= 0xffff ? new Uint16Array(size) : new Int32Array(size);
    // The totals are counted with the table: a scan of every cell afterwards costs more than the
    // records of most searches (the table has p × 6 × 2 × 15 cells: 40,500 at 225 providers).
    const [provAll, provMulti, typeAll, typeMulti] = [new Int32Array(this.p), new Int32Array(this.p), new Int32Array(T), new Int32Array(T)];
    const [cellAll, cellMulti] = [new Int32Array(L), new Int32Array(L)];
    const base = new Int32Array(this.p * T * 2);
    const count = ids === null ? this.n : ids.length;
    for (let k = 0; k < count; k++) {
      const i = ids === null ? k : ids[k]!;
      if (bit !== 0 && (badges[i]! & bit) === 0) continue;
      if (pass !== null && !pass(i)) continue;
      const prov = providerOf[i]!;
      const type = typeOf[i]!;
      const l = confidence[i]! * V + volatilityOf[i]!;
      cube[this.cell(prov, type, multi[i]!, 0, 0) + l]!++;
      base[(prov * T + type) * 2 + multi[i]!]!++;
      provAll[prov]!++;
      typeAll[type]!++;
      cellAll[l]!++;
      if (multi[i] === 1) {
        provMulti[prov]!++;
        typeMulti[type]!++;
        cellMulti[l]!++;
      }
    }
    this.totalsOf.set(cube, { byProvider: [provAll, provMulti], byType: [typeAll, typeMulti], byCell: [cellAll, cellMulti], base });
    return cube;
  }

  /**
   * Records of a count table passing the provider, game type, has_variants, volatility (`mask`,
   * levelMask) and confidence (`conf`: an index into CONFIDENCE_LEVELS, or ALL) filters.
   */
  filtered(cube: CountTable, prov: number, type: number, hv: boolean, mask = ALL_LEVELS, conf = ALL): number {
    if (prov === UNKNOWN) return 0;
    const mFrom = hv ? 1 : 0;
    const cells = cellMask(conf, mask);
    if (cells === ALL_CELLS && type === ALL) {
      const sums = this.totals(cube);
      if (prov !== ALL) return sums.byProvider[mFrom][prov]!;
      let count = 0;
      for (let tt = 0; tt < T; tt++) count += sums.byType[mFrom][tt]!;
      return count;
    }
    let count = 0;
    for (let pp = prov === ALL ? 0 : prov; pp < (prov === ALL ? this.p : prov + 1); pp++) {
      for (let tt = type === ALL ? 0 : type; tt < (type === ALL ? T : type + 1); tt++) count += this.sum(cube, pp, tt, mFrom, cells);
    }
    return count;
  }

  private totals(cube: CountTable): Totals {
    let t = this.totalsOf.get(cube);
    if (t === undefined) {
      const [provAll, provMulti, typeAll, typeMulti] = [new Int32Array(this.p), new Int32Array(this.p), new Int32Array(T), new Int32Array(T)];
      const [cellAll, cellMulti] = [new Int32Array(L), new Int32Array(L)];
      const base = new Int32Array(this.p * T * 2);
      // One pass over the table in its own order, skipping empty cells (most, for a search).
      let at = 0;
      for (let pp = 0; pp < this.p; pp++) {
        for (let tt = 0; tt < T; tt++) {
          for (let m = 0; m < 2; m++) {
            for (let l = 0; l < L; l++, at++) {
              const count = cube[at]!;
              if (count === 0) continue;
              provAll[pp]! += count;
              typeAll[tt]! += count;
              cellAll[l]! += count;
              base[(pp * T + tt) * 2 + m]! += count;
              if (m === 1) {
                provMulti[pp]! += count;
                typeMulti[tt]! += count;
                cellMulti[l]! += count;
              }
            }
          }
        }
      }
      t = { byProvider: [provAll, provMulti], byType: [typeAll, typeMulti], byCell: [cellAll, cellMulti], base };
      this.totalsOf.set(cube, t);
    }
    return t;
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
  write(cube: CountTable, prov: number, type: number, hv: boolean, target: Uint8Array, at: number, mask = ALL_LEVELS, conf = ALL): number {
    const mFrom = hv ? 1 : 0;
    const sums = this.totals(cube);
    const cells = cellMask(conf, mask);
    const allCells = cells === ALL_CELLS;
    let providers = 0;
    for (let pp = 0; pp < this.p; pp++) {
      let count = 0;
      if (type === ALL && allCells) count = sums.byProvider[mFrom]![pp]!;
      else if (type !== ALL) count = this.sum(cube, pp, type, mFrom, cells);
      else for (let tt = 0; tt < T; tt++) count += this.sum(cube, pp, tt, mFrom, cells);
      this.providerCounts[pp] = count;
      if (count > 0 || pp === prov) this.listedProviders[providers++] = pp;
    }
    let types = 0;
    for (let tt = 0; tt < T; tt++) {
      let count = 0;
      if (prov === ALL && allCells) count = sums.byType[mFrom]![tt]!;
      else if (prov === ALL) for (let pp = 0; pp < this.p; pp++) count += this.sum(cube, pp, tt, mFrom, cells);
      else if (prov !== UNKNOWN) count = this.sum(cube, prov, tt, mFrom, cells); // an unknown provider matches nothing
      this.typeCounts[tt] = count;
      if (count > 0 || tt === type) this.listedTypes[types++] = tt;
    }
    // Confidence counts ignore the confidence filter, volatility counts the volatility filter.
    const byCell = this.countCells(cube, sums, prov, type, mFrom);
    let confidences = 0;
    for (let c = 0; c < C; c++) {
      let count = 0;
      for (let v = 0; v < V; v++) if ((mask & (1 << v)) !== 0) count += byCell[c * V + v]!;
      this.confidenceCounts[c] = count;
      if (count > 0 || c === conf) this.listedConfidence[confidences++] = c;
    }
    let levels = 0;
    for (let v = 0; v < V - 1; v++) {
      let count = 0;
      for (let c = 0; c < C; c++) if (conf === ALL || conf === c) count += byCell[c * V + v]!;
      this.levelCounts[v] = count;
      if (count > 0 || (mask !== ALL_LEVELS && (mask & (1 << v)) !== 0)) this.listedLevels[levels++] = v;
    }
    target.set(PROVIDERS_OPEN, at);
    at = this.writeList(target, at + PROVIDERS_OPEN.length, this.listedProviders, providers, this.providerCounts, this.providerOrder, this.providerHead);
    target.set(TYPES_OPEN, at);
    at = this.writeList(target, at + TYPES_OPEN.length, this.listedTypes, types, this.typeCounts, this.typeOrder, this.typeHead);
    target.set(CONFIDENCE_OPEN, at);
    at = this.writeList(target, at + CONFIDENCE_OPEN.length, this.listedConfidence, confidences, this.confidenceCounts, this.confidenceOrder, this.confidenceHead);
    target.set(VOLATILITIES_OPEN, at);
    at = this.writeList(target, at + VOLATILITIES_OPEN.length, this.listedLevels, levels, this.levelCounts, this.levelOrder, this.levelHead);
    target.set(FACETS_CLOSE, at);
    return at + FACETS_CLOSE.length;
  }
}
