// The list's count tables: records counted by provider × game type × has several variants ×
// confidence level × volatility, holding only the cells some record falls in, and the sums the
// `filtered` total and each facet read from them (facets.ts writes those sums as JSON).
import { GAME_TYPES, VOLATILITIES } from '../schemas/authoring.ts';
import { CONFIDENCE_LEVELS } from '../schemas/game-record.ts';
import type { ListBundle } from '../schemas/list-bundle.ts';

/** No filter on this dimension. */
export const ALL = -1;
/** A provider the registry does not have: matches nothing. */
export const UNKNOWN = -2;
/** Game types (typeOf values). */
export const TYPES = GAME_TYPES.length;
/** Volatility cells: each level, then unknown (list-bundle.ts `volatilityIndex`). */
export const VOLATILITY_CELLS = VOLATILITIES.length + 1;
/** A volatility mask selecting every cell: no volatility filter. */
export const ALL_LEVELS = (1 << VOLATILITY_CELLS) - 1;
/** Confidence levels (list-bundle.ts `confidenceIndex`). */
export const CONFIDENCES = CONFIDENCE_LEVELS.length;
/** Cells per provider, type and has_variants: confidence level × volatility (cell c * VOLATILITY_CELLS + v). */
export const LEVEL_CELLS = CONFIDENCES * VOLATILITY_CELLS;
/** A cell mask selecting every confidence level and volatility. */
const ALL_CELLS = (1 << LEVEL_CELLS) - 1;

/** The volatility mask of a query's levels (null: every level and unknown). */
export function levelMask(levels: readonly string[] | null): number {
  if (levels === null) return ALL_LEVELS;
  let mask = 0;
  for (const level of levels) mask |= 1 << (VOLATILITIES as readonly string[]).indexOf(level);
  return mask;
}

/** The cells (confidence × volatility) a confidence index (or ALL) and a volatility mask select. */
export function cellMask(conf: number, mask: number): number {
  let cells = 0;
  for (let c = 0; c < CONFIDENCES; c++) if (conf === ALL || conf === c) cells |= mask << (c * VOLATILITY_CELLS);
  return cells;
}

// A cell's key: its provider shifted left by SUB_BITS, ORed with its sub-key (type * 2 + has_variants) * LEVEL_CELLS + cell.
const SUBS = TYPES * 2 * LEVEL_CELLS;
const SUB_BITS = Math.ceil(Math.log2(SUBS));
const SUB_MASK = (1 << SUB_BITS) - 1;
const TYPE_OF = Uint8Array.from({ length: SUBS }, (_, s) => Math.floor(s / (2 * LEVEL_CELLS)));
const MULTI_OF = Uint8Array.from({ length: SUBS }, (_, s) => Math.floor(s / LEVEL_CELLS) % 2);
const CELL_OF = Uint8Array.from({ length: SUBS }, (_, s) => s % LEVEL_CELLS);

/**
 * A table holding at least this many cells per provider is indexed: its index (some 15 numbers per
 * provider) is then no larger than its cells (2 numbers each).
 */
const INDEXED_PER_PROVIDER = 8;

/**
 * Sums of a large table (count says which), by which most queries are answered without reading
 * its cells. Each pair is [every record, those with has_variants].
 */
interface TableIndex {
  /** Where each provider's cells start in the table (its cells grouped by provider), and the end. */
  provStart: Int32Array;
  total: [number, number];
  byProvider: [Int32Array, Int32Array];
  byType: [Int32Array, Int32Array];
  byCell: [Int32Array, Int32Array];
  /** By type and cell (type * LEVEL_CELLS + cell). */
  byTypeCell: [Int32Array, Int32Array];
  /** By provider and type (provider * TYPES + type). */
  byProviderType: [Int32Array, Int32Array];
}

/**
 * A count table: its `size` non-empty cells, key k at `cells[k]` and its count at `cells[size + k]`.
 * A search's table holds at most one cell per match, where a dense table would hold providers × 180.
 */
export interface CountTable {
  readonly cells: Int32Array;
  readonly size: number;
  /** Sums over the table, for the tables over the whole registry and the large ones (count); null for the others. */
  readonly index: TableIndex | null;
}

/** Bytes a table holds (what a cached search is weighed by). */
export function tableBytes(table: CountTable): number {
  const ix = table.index;
  if (ix === null) return table.cells.byteLength;
  return (
    table.cells.byteLength +
    ix.provStart.byteLength +
    2 * (ix.byProvider[0].byteLength + ix.byType[0].byteLength + ix.byCell[0].byteLength + ix.byTypeCell[0].byteLength + ix.byProviderType[0].byteLength)
  );
}

type Columns = Pick<ListBundle, 'providerOf' | 'typeOf' | 'multi' | 'badges' | 'confidence' | 'volatilityOf'>;

/** A query's sums over a table (TableCounter.sum), reused by every query. */
export interface FacetSums {
  /** Records passing every filter. */
  filtered: number;
  /** Per facet: records passing every filter but the facet's own. */
  providers: Int32Array;
  types: Int32Array;
  cells: Int32Array;
}

/** Counts records into tables, and sums tables for the `filtered` total and the facets. */
export class TableCounter {
  private readonly p: number;
  private readonly n: number;
  private readonly columns: Columns;
  /** Counts by key while a table is counted; every cell is 0 between counts. */
  private readonly dense: Int32Array;
  /** The keys of the cells counted so far, in the order first met. */
  private readonly touched: Int32Array;
  /** Where the next cell of each provider goes while a table is grouped by provider. */
  private readonly cursor: Int32Array;
  private readonly sums: FacetSums;
  /** The table and filters `sums` holds the sums of. */
  private readonly last: { table: CountTable | null; prov: number; type: number; mFrom: number; cells: number } = {
    table: null,
    prov: 0,
    type: 0,
    mFrom: 0,
    cells: 0,
  };

  constructor(columns: Columns, providers: number, records: number) {
    this.p = providers;
    this.n = records;
    this.columns = columns;
    this.dense = new Int32Array(providers << SUB_BITS);
    this.touched = new Int32Array(Math.min(records, providers * SUBS));
    this.cursor = new Int32Array(providers);
    this.sums = { filtered: 0, providers: new Int32Array(providers), types: new Int32Array(TYPES), cells: new Int32Array(LEVEL_CELLS) };
  }

  /**
   * The table of the records `ids` (all when null), only those with badge bit `bit` when it is not
   * 0, and only those `pass` accepts when given (the range filters, memory-engine.ts). A table over
   * the whole registry (no ids, no pass) is indexed (TableIndex), being made once and read often,
   * and so is one of at least INDEXED_PER_PROVIDER cells per provider, whose index is then no
   * larger than its cells and saves reading them all for each query.
   */
  count(ids: ArrayLike<number> | null, bit = 0, pass: ((i: number) => boolean) | null = null): CountTable {
    const { providerOf, typeOf, multi, badges, confidence, volatilityOf } = this.columns;
    const { dense, touched, p } = this;
    let size = 0;
    const count = ids === null ? this.n : ids.length;
    for (let k = 0; k < count; k++) {
      const i = ids === null ? k : ids[k]!;
      if (bit !== 0 && (badges[i]! & bit) === 0) continue;
      if (pass !== null && !pass(i)) continue;
      const key = (providerOf[i]! << SUB_BITS) | ((typeOf[i]! * 2 + multi[i]!) * LEVEL_CELLS + confidence[i]! * VOLATILITY_CELLS + volatilityOf[i]!);
      if (dense[key]!++ === 0) touched[size++] = key;
    }
    const cells = new Int32Array(2 * size);
    if (!((ids === null && pass === null) || size >= INDEXED_PER_PROVIDER * p)) {
      for (let k = 0; k < size; k++) {
        const key = touched[k]!;
        cells[k] = key;
        cells[size + k] = dense[key]!;
        dense[key] = 0;
      }
      return { cells, size, index: null };
    }
    // Grouped by provider (a counting sort), so that each provider's cells are one range.
    const provStart = new Int32Array(p + 1);
    for (let k = 0; k < size; k++) provStart[(touched[k]! >>> SUB_BITS) + 1]!++;
    for (let pp = 0; pp < p; pp++) provStart[pp + 1]! += provStart[pp]!;
    const at = this.cursor;
    at.set(provStart.subarray(0, p));
    for (let k = 0; k < size; k++) {
      const key = touched[k]!;
      const to = at[key >>> SUB_BITS]!++;
      cells[to] = key;
      cells[size + to] = dense[key]!;
      dense[key] = 0;
    }
    return { cells, size, index: this.indexOf(cells, size, provStart) };
  }

  private indexOf(cells: Int32Array, size: number, provStart: Int32Array): TableIndex {
    const pair = (length: number): [Int32Array, Int32Array] => [new Int32Array(length), new Int32Array(length)];
    const ix: TableIndex = {
      provStart,
      total: [0, 0],
      byProvider: pair(this.p),
      byType: pair(TYPES),
      byCell: pair(LEVEL_CELLS),
      byTypeCell: pair(TYPES * LEVEL_CELLS),
      byProviderType: pair(this.p * TYPES),
    };
    for (let k = 0; k < size; k++) {
      const key = cells[k]!;
      const pp = key >>> SUB_BITS;
      const sub = key & SUB_MASK;
      const [tt, l] = [TYPE_OF[sub]!, CELL_OF[sub]!];
      const c = cells[size + k]!;
      for (let m = 0; m <= MULTI_OF[sub]!; m++) {
        ix.total[m]! += c;
        ix.byProvider[m]![pp]! += c;
        ix.byType[m]![tt]! += c;
        ix.byCell[m]![l]! += c;
        ix.byTypeCell[m]![tt * LEVEL_CELLS + l]! += c;
        ix.byProviderType[m]![pp * TYPES + tt]! += c;
      }
    }
    return ix;
  }

  /** The cells of `table` to read for provider `prov` (ALL: every cell), as [from, to). */
  private range(table: CountTable, prov: number): [number, number] {
    const ix = table.index;
    return ix === null || prov === ALL ? [0, table.size] : [ix.provStart[prov]!, ix.provStart[prov + 1]!];
  }

  /** Records passing every filter, from a table's index, or -1 when its index cannot say (cells filtered within one provider). */
  private indexedFiltered(ix: TableIndex, prov: number, type: number, mFrom: number, cells: number): number {
    if (cells === ALL_CELLS) {
      if (type === ALL) return prov === ALL ? ix.total[mFrom]! : ix.byProvider[mFrom]![prov]!;
      return prov === ALL ? ix.byType[mFrom]![type]! : ix.byProviderType[mFrom]![prov * TYPES + type]!;
    }
    if (prov !== ALL) return -1;
    let count = 0;
    for (let l = 0; l < LEVEL_CELLS; l++)
      if (((cells >>> l) & 1) !== 0) count += type === ALL ? ix.byCell[mFrom]![l]! : ix.byTypeCell[mFrom]![type * LEVEL_CELLS + l]!;
    return count;
  }

  /**
   * Sums a table for a query's provider, game type, has_variants (`mFrom` 1: only records with
   * several variants) and cell (`cells`, cellMask) filters into `this.sums`: the records passing
   * them all, and per facet the records passing every filter but its own: providers (by game
   * type, has_variants and `cells`), game types (by provider, has_variants and `cells`) and cells
   * (by provider, game type and has_variants). The sums of the last call are kept: the `filtered`
   * total and then the facets of one query read them once.
   */
  sum(table: CountTable, prov: number, type: number, mFrom: number, cells: number): FacetSums {
    const sums = this.sums;
    const last = this.last;
    if (last.table === table && last.prov === prov && last.type === type && last.mFrom === mFrom && last.cells === cells) return sums;
    last.table = table;
    last.prov = prov;
    last.type = type;
    last.mFrom = mFrom;
    last.cells = cells;
    const { providers, types, cells: byCell } = sums;
    const ix = table.index;
    const allCells = cells === ALL_CELLS;
    // What the index answers; the rest is summed over the table's cells below.
    const providersDone = ix !== null && allCells;
    // Types and cells alike: from the index when no provider is asked for.
    const typesDone = ix !== null && prov === ALL;
    sums.filtered = prov === UNKNOWN ? 0 : ix === null ? -1 : this.indexedFiltered(ix, prov, type, mFrom, cells);
    if (providersDone) {
      if (type === ALL) providers.set(ix.byProvider[mFrom]!);
      else for (let pp = 0; pp < this.p; pp++) providers[pp] = ix.byProviderType[mFrom]![pp * TYPES + type]!;
    } else providers.fill(0);
    if (typesDone) {
      for (let tt = 0; tt < TYPES; tt++) {
        if (allCells) types[tt] = ix.byType[mFrom]![tt]!;
        else {
          let count = 0;
          for (let l = 0; l < LEVEL_CELLS; l++) if (((cells >>> l) & 1) !== 0) count += ix.byTypeCell[mFrom]![tt * LEVEL_CELLS + l]!;
          types[tt] = count;
        }
      }
      if (type === ALL) byCell.set(ix.byCell[mFrom]!);
      else byCell.set(ix.byTypeCell[mFrom]!.subarray(type * LEVEL_CELLS, (type + 1) * LEVEL_CELLS));
    } else {
      types.fill(0);
      byCell.fill(0);
    }
    // An unknown provider matches nothing: its types and cells stay 0.
    if ((providersDone && typesDone) || (providersDone && prov === UNKNOWN)) return sums;
    // Every record passing all the filters is within the cells read, so the pass counts `filtered` too.
    const [from, to] = providersDone ? this.range(table, prov) : [0, table.size];
    const { cells: keys, size } = table;
    let filtered = 0;
    for (let k = from; k < to; k++) {
      const key = keys[k]!;
      const sub = key & SUB_MASK;
      if (MULTI_OF[sub]! < mFrom) continue;
      const pp = key >>> SUB_BITS;
      const tt = TYPE_OF[sub]!;
      const l = CELL_OF[sub]!;
      const count = keys[size + k]!;
      const cellOk = ((cells >>> l) & 1) !== 0;
      const typeOk = type === ALL || tt === type;
      const provOk = prov === ALL || pp === prov;
      if (!providersDone && typeOk && cellOk) providers[pp]! += count;
      if (!typesDone && provOk) {
        if (cellOk) types[tt]! += count;
        if (typeOk) byCell[l]! += count;
      }
      if (provOk && typeOk && cellOk) filtered += count;
    }
    if (sums.filtered === -1) sums.filtered = filtered;
    return sums;
  }
}
