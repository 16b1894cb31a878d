// The list route's operator filters (`operator=`, `operator_build=`) over the list bundle's
// operatorBuilds column, and their facets: `operators` and `operator_builds`, each counting the
// records that match every filter but its own.
import { OPERATOR_BUILDS } from '../schemas/game-record.ts';
import type { ListQuery } from '../schemas/list.ts';
import { type ListBundle, operatorBit } from '../schemas/list-bundle.ts';

const B = OPERATOR_BUILDS.length;
const OPEN_OPERATORS = ',"operators":[';
const OPEN_BUILDS = '],"operator_builds":[';
const CLOSE = ']}';

/** The operator filters and facets of one list bundle. */
export class OperatorFacets {
  /** Upper bound on the bytes `write` writes. */
  readonly maxBytes: number;
  private readonly keys: readonly string[];
  private readonly index: Map<string, number>;
  private readonly builds: Uint32Array;
  /** The records some operator observed: the only ones the facets need to look at. */
  private readonly observed: Int32Array;
  private readonly heads: Buffer[];
  private readonly buildHeads = OPERATOR_BUILDS.map((b) => Buffer.from(`{"operator_build":${JSON.stringify(b)},"count":`));
  private readonly opCounts: Int32Array;
  private readonly buildCounts = new Int32Array(B);

  constructor(bundle: Pick<ListBundle, 'total' | 'operatorKeys' | 'operatorDisplay' | 'operatorBuilds'>) {
    this.keys = bundle.operatorKeys;
    this.index = new Map(this.keys.map((k, i) => [k, i]));
    this.builds = bundle.operatorBuilds;
    const observed: number[] = [];
    for (let i = 0; i < bundle.total; i++) if (this.builds[i] !== 0) observed.push(i);
    this.observed = Int32Array.from(observed);
    this.heads = this.keys.map((k, i) => Buffer.from(`{"operator":${JSON.stringify(k)},"display":${JSON.stringify(bundle.operatorDisplay[i])},"count":`));
    this.opCounts = new Int32Array(this.keys.length);
    const digits = String(bundle.total).length + 2;
    this.maxBytes =
      OPEN_OPERATORS.length +
      OPEN_BUILDS.length +
      CLOSE.length +
      this.heads.reduce((n, h) => n + h.length + digits, 0) +
      this.buildHeads.reduce((n, h) => n + h.length + digits, 0);
  }

  /** The bits a record must have one of for `operator` and `build` (null: any); 0 matches nothing (an unknown operator). */
  private maskOf(operator: string | null, build: number): number {
    const ks = operator === null ? this.keys.map((_, k) => k) : this.index.has(operator) ? [this.index.get(operator)!] : [];
    let mask = 0;
    for (const k of ks) for (let b = 0; b < B; b++) if (build === -1 || build === b) mask |= operatorBit(k, b);
    return mask;
  }

  /** The test of a query's operator filters, or null when it has none. */
  test(query: Pick<ListQuery, 'operator' | 'operator_build'>): ((i: number) => boolean) | null {
    if (query.operator === null && query.operator_build === null) return null;
    const mask = this.maskOf(query.operator, query.operator_build === null ? -1 : OPERATOR_BUILDS.indexOf(query.operator_build));
    const builds = this.builds;
    return (i) => (builds[i]! & mask) !== 0;
  }

  /**
   * Writes `,"operators":[…],"operator_builds":[…]}` at `at` (after the other facets, their closing
   * brace overwritten): each operator's and each build's count over the records passing `others`
   * (every filter but the operator ones; `ids`: the search's matches, or null for all), each facet
   * with the other operator filter applied. Returns the end.
   */
  write(
    query: Pick<ListQuery, 'operator' | 'operator_build'>,
    ids: ArrayLike<number> | null,
    others: ((i: number) => boolean) | null,
    target: Uint8Array,
    at: number,
  ): number {
    this.opCounts.fill(0);
    this.buildCounts.fill(0);
    const wantBuild = query.operator_build === null ? -1 : OPERATOR_BUILDS.indexOf(query.operator_build);
    const wantOp = query.operator === null ? -1 : (this.index.get(query.operator) ?? -2);
    const count = (i: number) => {
      const bits = this.builds[i]!;
      if (bits === 0 || (others !== null && !others(i))) return;
      for (let k = 0; k < this.keys.length; k++) {
        const own = (bits >>> (k * B)) & ((1 << B) - 1);
        if (own === 0) continue;
        if (wantBuild === -1 ? true : (own & (1 << wantBuild)) !== 0) this.opCounts[k]!++;
      }
      for (let b = 0; b < B; b++) {
        const any = wantOp === -1 ? this.keys.some((_, k) => (bits & operatorBit(k, b)) !== 0) : wantOp >= 0 && (bits & operatorBit(wantOp, b)) !== 0;
        if (any) this.buildCounts[b]!++;
      }
    };
    if (ids === null) for (let k = 0; k < this.observed.length; k++) count(this.observed[k]!);
    else for (let k = 0; k < ids.length; k++) count(ids[k]!);
    let out = Buffer.from(OPEN_OPERATORS);
    const parts: Buffer[] = [out];
    this.heads.forEach((h, k) => {
      parts.push(Buffer.from(`${k > 0 ? ',' : ''}`), h, Buffer.from(`${this.opCounts[k]}}`));
    });
    parts.push(Buffer.from(OPEN_BUILDS));
    this.buildHeads.forEach((h, b) => {
      parts.push(Buffer.from(`${b > 0 ? ',' : ''}`), h, Buffer.from(`${this.buildCounts[b]}}`));
    });
    parts.push(Buffer.from(CLOSE));
    out = Buffer.concat(parts);
    target.set(out, at);
    return at + out.length;
  }
}
