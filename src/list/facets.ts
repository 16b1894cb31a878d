// The list's facet counts: a count table per query (records by provider × game type × has several
// variants × confidence level), the `filtered` total read from it, and the facets' JSON written
// straight into the response bytes. Facets count the records matching every filter except their own, sorted by count
// descending then key; zero counts are left out except for the selected provider or type.
import { GAME_TYPES } from '../schemas/authoring.ts';
import { CONFIDENCE_LEVELS } from '../schemas/game-record.ts';
import type { ListBundle } from '../schemas/list-bundle.ts';
import { compareStrings } from '../schemas/text.ts';

/** No filter on this dimension. */
export const ALL = -1;
/** A provider the registry does not have: matches nothing. */
export const UNKNOWN = -2;
const T = GAME_TYPES.length;
const C = CONFIDENCE_LEVELS.length;

const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const PROVIDERS_OPEN = new Uint8Array(Buffer.from('{"providers":['));
const TYPES_OPEN = new Uint8Array(Buffer.from('],"game_types":['));
const CONFIDENCE_OPEN = new Uint8Array(Buffer.from('],"confidence":['));
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
 * Per count table: totals by provider, by game type and by confidence level over all the others,
 * without and with has_variants ([m]); the first two also per confidence level ([m][c], c = C for all levels).
 */
interface Totals {
  byProvider: Int32Array[][];
  byType: Int32Array[][];
  byConfidence: [Int32Array, Int32Array];
}

/** Count tables and facet JSON over one list bundle's columns. */
export class Facets {
  /** Upper bound on the bytes `write` writes: every entry listed with a count of n digits. */
  readonly maxBytes: number;
  private readonly n: number;
  private readonly p: number;
  private readonly columns: Pick<ListBundle, 'providerOf' | 'typeOf' | 'multi' | 'badges' | 'confidence'>;
  private readonly providerHead: Fragments;
  private readonly typeHead: Fragments;
  private readonly confidenceHead = fragments(CONFIDENCE_LEVELS.map((c) => `{"confidence":${JSON.stringify(c)},"count":`));
  /** Confidence facets list levels by count, then in CONFIDENCE_LEVELS order. */
  private readonly confidenceOrder = { rank: Int32Array.from(CONFIDENCE_LEVELS.keys()), atRank: Int32Array.from(CONFIDENCE_LEVELS.keys()) };
  private readonly confidenceCounts = new Int32Array(C);
  private readonly listedConfidence = new Int32Array(C);
  private readonly providerOrder: { rank: Int32Array; atRank: Int32Array };
  private readonly typeOrder = rankOf(GAME_TYPES);
  private readonly providerCounts: Int32Array;
  private readonly typeCounts = new Int32Array(T);
  private readonly listedProviders: Int32Array;
  private readonly listedTypes = new Int32Array(T);
  private readonly sortKeys: Float64Array;
  private readonly totalsOf = new WeakMap<Int32Array, Totals>();

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
    this.sortKeys = new Float64Array(Math.max(this.p, T, C));
    this.maxBytes =
      PROVIDERS_OPEN.length +
      TYPES_OPEN.length +
      CONFIDENCE_OPEN.length +
      FACETS_CLOSE.length +
      fragmentBytes(this.providerHead) +
      fragmentBytes(this.typeHead) +
      fragmentBytes(this.confidenceHead) +
      (this.p + T + C) * (String(n).length + 2);
  }

  private cell(prov: number, type: number, m: number, c: number): number {
    return ((prov * T + type) * 2 + m) * C + c;
  }

  /** Sum of the cells of provider range, type range, has_variants and confidence selection. */
  private sum(cube: Int32Array, prov: number, type: number, mFrom: number, conf: number): number {
    let count = 0;
    for (let pp = prov === ALL ? 0 : prov; pp < (prov === ALL ? this.p : prov + 1); pp++) {
      for (let tt = type === ALL ? 0 : type; tt < (type === ALL ? T : type + 1); tt++) {
        for (let m = mFrom; m < 2; m++) {
          for (let c = conf === ALL ? 0 : conf; c < (conf === ALL ? C : conf + 1); c++) count += cube[this.cell(pp, tt, m, c)]!;
        }
      }
    }
    return count;
  }

  /** The count table of the records `ids` (all when null), only those with badge bit `bit` when it is not 0. */
  count(ids: ArrayLike<number> | null, bit = 0): Int32Array {
    const { providerOf, typeOf, multi, badges, confidence } = this.columns;
    const cube = new Int32Array(this.p * T * 2 * C);
    const count = ids === null ? this.n : ids.length;
    for (let k = 0; k < count; k++) {
      const i = ids === null ? k : ids[k]!;
      if (bit !== 0 && (badges[i]! & bit) === 0) continue;
      cube[this.cell(providerOf[i]!, typeOf[i]!, multi[i]!, confidence[i]!)]!++;
    }
    return cube;
  }

  /** Records of a count table passing the provider, game type, has_variants and confidence filters. */
  filtered(cube: Int32Array, prov: number, type: number, hv: boolean, conf: number = ALL): number {
    if (prov === UNKNOWN) return 0;
    return this.sum(cube, prov, type, hv ? 1 : 0, conf);
  }

  private totals(cube: Int32Array): Totals {
    let t = this.totalsOf.get(cube);
    if (t === undefined) {
      const perLevel = (size: number) => [0, 1].map(() => Array.from({ length: C + 1 }, () => new Int32Array(size)));
      const byProvider = perLevel(this.p);
      const byType = perLevel(T);
      const byConfidence: [Int32Array, Int32Array] = [new Int32Array(C), new Int32Array(C)];
      for (let pp = 0; pp < this.p; pp++) {
        for (let tt = 0; tt < T; tt++) {
          for (let c = 0; c < C; c++) {
            const multiOnly = cube[this.cell(pp, tt, 1, c)]!;
            const all = cube[this.cell(pp, tt, 0, c)]! + multiOnly;
            for (const [m, v] of [[0, all], [1, multiOnly]] as const) {
              byProvider[m]![c]![pp]! += v;
              byProvider[m]![C]![pp]! += v;
              byType[m]![c]![tt]! += v;
              byType[m]![C]![tt]! += v;
              byConfidence[m][c]! += v;
            }
          }
        }
      }
      t = { byProvider, byType, byConfidence };
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

  /** Writes `{"providers":[…],"game_types":[…],"confidence":[…]}` for a count table and filters at `at`; returns the end. */
  write(cube: Int32Array, prov: number, type: number, hv: boolean, target: Uint8Array, at: number, conf: number = ALL): number {
    const mFrom = hv ? 1 : 0;
    const sums = this.totals(cube);
    const level = conf === ALL ? C : conf;
    let providers = 0;
    for (let pp = 0; pp < this.p; pp++) {
      const count = type === ALL ? sums.byProvider[mFrom]![level]![pp]! : this.sum(cube, pp, type, mFrom, conf);
      this.providerCounts[pp] = count;
      if (count > 0 || pp === prov) this.listedProviders[providers++] = pp;
    }
    let types = 0;
    for (let tt = 0; tt < T; tt++) {
      // An unknown provider matches nothing.
      const count = prov === ALL ? sums.byType[mFrom]![level]![tt]! : prov === UNKNOWN ? 0 : this.sum(cube, prov, tt, mFrom, conf);
      this.typeCounts[tt] = count;
      if (count > 0 || tt === type) this.listedTypes[types++] = tt;
    }
    let levels = 0;
    for (let c = 0; c < C; c++) {
      const count = prov === ALL && type === ALL ? sums.byConfidence[mFrom][c]! : prov === UNKNOWN ? 0 : this.sum(cube, prov, type, mFrom, c);
      this.confidenceCounts[c] = count;
      if (count > 0 || c === conf) this.listedConfidence[levels++] = c;
    }
    target.set(PROVIDERS_OPEN, at);
    at = this.writeList(target, at + PROVIDERS_OPEN.length, this.listedProviders, providers, this.providerCounts, this.providerOrder, this.providerHead);
    target.set(TYPES_OPEN, at);
    at = this.writeList(target, at + TYPES_OPEN.length, this.listedTypes, types, this.typeCounts, this.typeOrder, this.typeHead);
    target.set(CONFIDENCE_OPEN, at);
    at = this.writeList(target, at + CONFIDENCE_OPEN.length, this.listedConfidence, levels, this.confidenceCounts, this.confidenceOrder, this.confidenceHead);
    target.set(FACETS_CLOSE, at);
    return at + FACETS_CLOSE.length;
  }
}
