// The list's facet counts: a count table per query (records by provider × game type × has several
// variants × volatility), the `filtered` total read from it, and the facets' JSON written straight
// into the response bytes. Facets count the records matching every filter except their own, sorted
// by count descending then key; zero counts are left out except for the selected values.
import { GAME_TYPES, VOLATILITIES } from '../schemas/authoring.ts';
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

/** The volatility mask of a query's levels (null: every level and unknown). */
export function levelMask(levels: readonly string[] | null): number {
  if (levels === null) return ALL_LEVELS;
  let mask = 0;
  for (const level of levels) mask |= 1 << (VOLATILITIES as readonly string[]).indexOf(level);
  return mask;
}

const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const PROVIDERS_OPEN = new Uint8Array(Buffer.from('{"providers":['));
const TYPES_OPEN = new Uint8Array(Buffer.from('],"game_types":['));
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

/** Each key's position in compareStrings order, and the key index at each position. */
function rankOf(keys: readonly string[]): { rank: Int32Array; atRank: Int32Array } {
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

/** Per count table: totals by provider, by game type and by volatility over all the others, without and with has_variants. */
interface Totals {
  byProvider: [Int32Array, Int32Array];
  byType: [Int32Array, Int32Array];
  byLevel: [Int32Array, Int32Array];
}

/** Count tables and facet JSON over one list bundle's columns. */
export class Facets {
  /** Upper bound on the bytes `write` writes: every entry listed with a count of n digits. */
  readonly maxBytes: number;
  private readonly n: number;
  private readonly p: number;
  private readonly columns: Pick<ListBundle, 'providerOf' | 'typeOf' | 'multi' | 'badges' | 'volatilityOf'>;
  private readonly providerHead: Fragments;
  private readonly typeHead: Fragments;
  private readonly levelHead = fragments(VOLATILITIES.map((v) => `{"volatility":${JSON.stringify(v)},"count":`));
  private readonly levelOrder = rankOf(VOLATILITIES);
  private readonly levelCounts = new Int32Array(VOLATILITIES.length);
  private readonly listedLevels = new Int32Array(VOLATILITIES.length);
  private readonly providerOrder: { rank: Int32Array; atRank: Int32Array };
  private readonly typeOrder = rankOf(GAME_TYPES);
  private readonly providerCounts: Int32Array;
  private readonly typeCounts = new Int32Array(T);
  private readonly listedProviders: Int32Array;
  private readonly listedTypes = new Int32Array(T);
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
    this.sortKeys = new Float64Array(Math.max(this.p, T, V));
    this.maxBytes =
      PROVIDERS_OPEN.length +
      TYPES_OPEN.length +
      VOLATILITIES_OPEN.length +
      FACETS_CLOSE.length +
      fragmentBytes(this.providerHead) +
      fragmentBytes(this.typeHead) +
      fragmentBytes(this.levelHead) +
      (this.p + T + V) * (String(n).length + 2);
  }

  private cell(prov: number, type: number, m: number, level: number): number {
    return ((prov * T + type) * 2 + m) * V + level;
  }

  /** Records of a table's cells for one provider and type, has_variants from `mFrom`, volatility in `mask`. */
  private sum(cube: CountTable, prov: number, type: number, mFrom: number, mask: number): number {
    let count = 0;
    for (let m = mFrom; m < 2; m++) {
      const at = this.cell(prov, type, m, 0);
      if (mask === ALL_LEVELS) for (let v = 0; v < V; v++) count += cube[at + v]!;
      else for (let v = 0; v < V; v++) if ((mask & (1 << v)) !== 0) count += cube[at + v]!;
    }
    return count;
  }

  /**
   * The count table of the records `ids` (all when null), only those with badge bit `bit` when it
   * is not 0, and only those `pass` accepts when given (the range filters, memory-engine.ts).
   */
  count(ids: ArrayLike<number> | null, bit = 0, pass: ((i: number) => boolean) | null = null): CountTable {
    const { providerOf, typeOf, multi, badges, volatilityOf } = this.columns;
    const size = this.p * T * 2 * V;
    const cube = this.n <= 0xffff ? new Uint16Array(size) : new Int32Array(size);
    const count = ids === null ? this.n : ids.length;
    for (let k = 0; k < count; k++) {
      const i = ids === null ? k : ids[k]!;
      if (bit !== 0 && (badges[i]! & bit) === 0) continue;
      if (pass !== null && !pass(i)) continue;
      cube[this.cell(providerOf[i]!, typeOf[i]!, multi[i]!, volatilityOf[i]!)]!++;
    }
    return cube;
  }

  /** Records of a count table passing the provider, game type, has_variants and volatility (`mask`) filters. */
  filtered(cube: CountTable, prov: number, type: number, hv: boolean, mask = ALL_LEVELS): number {
    if (prov === UNKNOWN) return 0;
    const mFrom = hv ? 1 : 0;
    if (mask === ALL_LEVELS && type === ALL) {
      const sums = this.totals(cube);
      if (prov !== ALL) return sums.byProvider[mFrom][prov]!;
      let count = 0;
      for (let tt = 0; tt < T; tt++) count += sums.byType[mFrom][tt]!;
      return count;
    }
    let count = 0;
    for (let pp = prov === ALL ? 0 : prov; pp < (prov === ALL ? this.p : prov + 1); pp++) {
      for (let tt = type === ALL ? 0 : type; tt < (type === ALL ? T : type + 1); tt++) count += this.sum(cube, pp, tt, mFrom, mask);
    }
    return count;
  }

  private totals(cube: CountTable): Totals {
    let t = this.totalsOf.get(cube);
    if (t === undefined) {
      const [provAll, provMulti, typeAll, typeMulti] = [new Int32Array(this.p), new Int32Array(this.p), new Int32Array(T), new Int32Array(T)];
      const [levelAll, levelMulti] = [new Int32Array(V), new Int32Array(V)];
      // One pass over the table in its own order, skipping empty cells (most, for a search).
      let at = 0;
      for (let pp = 0; pp < this.p; pp++) {
        for (let tt = 0; tt < T; tt++) {
          for (let m = 0; m < 2; m++) {
            for (let v = 0; v < V; v++, at++) {
              const count = cube[at]!;
              if (count === 0) continue;
              provAll[pp]! += count;
              typeAll[tt]! += count;
              levelAll[v]! += count;
              if (m === 1) {
                provMulti[pp]! += count;
                typeMulti[tt]! += count;
                levelMulti[v]! += count;
              }
            }
          }
        }
      }
      t = { byProvider: [provAll, provMulti], byType: [typeAll, typeMulti], byLevel: [levelAll, levelMulti] };
      this.totalsOf.set(cube, t);
    }
    return t;
  }

  /**
   * Writes the listed entries (indexes into heads/counts) as JSON array items, by count
   * descending, then key: each entry becomes one number, (n - count) * entries + rank, so a
   * numeric typed-array sort orders them (exact: below 2^53 for any registry).
   */
  private writeList(target: Uint8Array, at: number, listed: Int32Array, m: number, counts: Int32Array, order: { rank: Int32Array; atRank: Int32Array }, heads: Fragments): number {
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
   * Writes `{"providers":[…],"game_types":[…],"volatilities":[…]}` for a count table and filters
   * (`mask`: the volatility filter, levelMask) at `at`; returns the end.
   */
  write(cube: CountTable, prov: number, type: number, hv: boolean, target: Uint8Array, at: number, mask = ALL_LEVELS): number {
    const mFrom = hv ? 1 : 0;
    const sums = this.totals(cube);
    const allLevels = mask === ALL_LEVELS;
    let providers = 0;
    for (let pp = 0; pp < this.p; pp++) {
      let count = 0;
      if (type === ALL && allLevels) count = sums.byProvider[mFrom]![pp]!;
      else if (type !== ALL) count = this.sum(cube, pp, type, mFrom, mask);
      else for (let tt = 0; tt < T; tt++) count += this.sum(cube, pp, tt, mFrom, mask);
      this.providerCounts[pp] = count;
      if (count > 0 || pp === prov) this.listedProviders[providers++] = pp;
    }
    let types = 0;
    for (let tt = 0; tt < T; tt++) {
      let count = 0;
      if (prov === ALL && allLevels) count = sums.byType[mFrom]![tt]!;
      else if (prov === ALL) for (let pp = 0; pp < this.p; pp++) count += this.sum(cube, pp, tt, mFrom, mask);
      else if (prov !== UNKNOWN) count = this.sum(cube, prov, tt, mFrom, mask); // an unknown provider matches nothing
      this.typeCounts[tt] = count;
      if (count > 0 || tt === type) this.listedTypes[types++] = tt;
    }
    const levelCounts = this.levelCounts;
    if (prov === ALL && type === ALL) {
      const byLevel = sums.byLevel[mFrom]!;
      for (let v = 0; v < V - 1; v++) levelCounts[v] = byLevel[v]!;
    } else {
      levelCounts.fill(0);
      // An unknown provider matches nothing: every count stays 0.
      if (prov !== UNKNOWN) {
        for (let pp = prov === ALL ? 0 : prov; pp < (prov === ALL ? this.p : prov + 1); pp++) {
          for (let tt = type === ALL ? 0 : type; tt < (type === ALL ? T : type + 1); tt++) {
            for (let m = mFrom; m < 2; m++) {
              const at = this.cell(pp, tt, m, 0);
              for (let v = 0; v < V - 1; v++) levelCounts[v]! += cube[at + v]!;
            }
          }
        }
      }
    }
    let levels = 0;
    for (let v = 0; v < V - 1; v++) if (levelCounts[v]! > 0 || (!allLevels && (mask & (1 << v)) !== 0)) this.listedLevels[levels++] = v;
    target.set(PROVIDERS_OPEN, at);
    at = this.writeList(target, at + PROVIDERS_OPEN.length, this.listedProviders, providers, this.providerCounts, this.providerOrder, this.providerHead);
    target.set(TYPES_OPEN, at);
    at = this.writeList(target, at + TYPES_OPEN.length, this.listedTypes, types, this.typeCounts, this.typeOrder, this.typeHead);
    target.set(VOLATILITIES_OPEN, at);
    at = this.writeList(target, at + VOLATILITIES_OPEN.length, this.listedLevels, levels, this.levelCounts, this.levelOrder, this.levelHead);
    target.set(FACETS_CLOSE, at);
    return at + FACETS_CLOSE.length;
  }
}
