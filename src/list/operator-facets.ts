// The list route's operator filters (`operator=`, `operator_build=`) over the list bundle's
// operatorBuilds column, and their facets: `operators` and `operator_builds`, each counting the
// records that match every filter but its own.
import { OPERATOR_BUILDS } from '../schemas/game-record.ts';
import type { ListQuery } from '../schemas/list.ts';
import { type ListBundle, operatorBit } from '../schemas/list-bundle.ts';
import { writeUint } from './facets.ts';

const B = OPERATOR_BUILDS.length;
const OPEN_OPERATORS = new Uint8Array(Buffer.from(',"operators":['));
const OPEN_BUILDS = new Uint8Array(Buffer.from('],"operator_builds":['));
const CLOSE = new Uint8Array(Buffer.from(']}'));

/** The operator filters and facets of one list bundle. */
export class OperatorFacets {
  /** Upper bound on the bytes `write` writes. */
  readonly maxBytes: number;
  private readonly keys: readonly string[];
  private readonly index: Map<string, number>;
  private readonly builds: Uint32Array;
  /** The records some operator observed: the only ones the facets need to look at. */
  private readonly observed: Int32Array;
  /**
   * Each record's pattern of operator builds, as an index into `patterns` (0: none observed). Records
   * share a few patterns, so a query counts records per pattern and turns the patterns into facets once.
   */
  private readonly patternOf: Uint32Array;
  private readonly patterns: Uint32Array;
  /** Records per pattern over the whole registry: the counts of a query with no other filter. */
  private readonly allRecords: Int32Array;
  private readonly perPattern: Int32Array;
  /** Per build: the bits of that build under any operator. */
  private readonly anyOperator: Uint32Array;
  private readonly heads: Uint8Array[];
  private readonly buildHeads: Uint8Array[];
  private readonly opCounts: Int32Array;
  private readonly buildCounts = new Int32Array(B);

  constructor(bundle: Pick<ListBundle, 'total' | 'operatorKeys' | 'operatorDisplay' | 'operatorBuilds'>) {
    this.keys = bundle.operatorKeys;
    this.index = new Map(this.keys.map((k, i) => [k, i]));
    this.builds = bundle.operatorBuilds;
    const observed: number[] = [];
    const patternIds = new Map<number, number>([[0, 0]]);
    this.patternOf = new Uint32Array(bundle.total);
    for (let i = 0; i < bundle.total; i++) {
      const bits = this.builds[i]!;
      if (bits === 0) continue;
      observed.push(i);
      let id = patternIds.get(bits);
      if (id === undefined) patternIds.set(bits, (id = patternIds.size));
      this.patternOf[i] = id;
    }
    this.observed = Int32Array.from(observed);
    this.patterns = Uint32Array.from(patternIds.keys());
    this.perPattern = new Int32Array(this.patterns.length);
    this.allRecords = new Int32Array(this.patterns.length);
    for (const i of observed) this.allRecords[this.patternOf[i]!]!++;
    this.anyOperator = Uint32Array.from(OPERATOR_BUILDS, (_, b) => this.keys.reduce((m, _k, k) => m | operatorBit(k, b), 0));
    const enc = (text: string) => Buffer.from(text);
    this.heads = this.keys.map((k, i) =>
      enc(`${i > 0 ? ',' : ''}{"operator":${JSON.stringify(k)},"display":${JSON.stringify(bundle.operatorDisplay[i])},"count":`),
    );
    this.buildHeads = OPERATOR_BUILDS.map((b, i) => enc(`${i > 0 ? ',' : ''}{"operator_build":${JSON.stringify(b)},"count":`));
    this.opCounts = new Int32Array(this.keys.length);
    const digits = String(bundle.total).length + 1;
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

  /** Records per pattern among those passing `others` (`ids`: the search's matches, or null for all). */
  private countPatterns(ids: ArrayLike<number> | null, others: ((i: number) => boolean) | null): Int32Array {
    // No other filter, or no record observed at all (every count 0): the registry's own counts.
    if ((ids === null && others === null) || this.observed.length === 0) return this.allRecords;
    const counts = this.perPattern;
    const patternOf = this.patternOf;
    counts.fill(0);
    if (ids === null) {
      const observed = this.observed;
      for (let k = 0; k < observed.length; k++) {
        const i = observed[k]!;
        if (others!(i)) counts[patternOf[i]!]!++;
      }
    } else {
      for (let k = 0; k < ids.length; k++) {
        const i = ids[k]!;
        const p = patternOf[i]!;
        if (p !== 0 && (others === null || others(i))) counts[p]!++;
      }
    }
    return counts;
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
    const wantBuild = query.operator_build === null ? -1 : OPERATOR_BUILDS.indexOf(query.operator_build);
    const wantOp = query.operator === null ? -1 : (this.index.get(query.operator) ?? -2);
    const counts = this.countPatterns(ids, others);
    const { opCounts, buildCounts, patterns } = this;
    opCounts.fill(0);
    buildCounts.fill(0);
    for (let p = 1; p < patterns.length; p++) {
      const n = counts[p]!;
      if (n === 0) continue;
      const bits = patterns[p]!;
      for (let k = 0; k < opCounts.length; k++) {
        const own = (bits >>> (k * B)) & ((1 << B) - 1);
        if (own !== 0 && (wantBuild === -1 || (own & (1 << wantBuild)) !== 0)) opCounts[k]! += n;
      }
      for (let b = 0; b < B; b++) {
        const want = wantOp === -1 ? this.anyOperator[b]! : wantOp >= 0 ? operatorBit(wantOp, b) : 0;
        if ((bits & want) !== 0) buildCounts[b]! += n;
      }
    }
    target.set(OPEN_OPERATORS, at);
    at += OPEN_OPERATORS.length;
    for (let k = 0; k < this.heads.length; k++) {
      target.set(this.heads[k]!, at);
      at = writeUint(opCounts[k]!, target, at + this.heads[k]!.length);
      target[at++] = 0x7d; // }
    }
    target.set(OPEN_BUILDS, at);
    at += OPEN_BUILDS.length;
    for (let b = 0; b < B; b++) {
      target.set(this.buildHeads[b]!, at);
      at = writeUint(buildCounts[b]!, target, at + this.buildHeads[b]!.length);
      target[at++] = 0x7d;
    }
    target.set(CLOSE, at);
    return at + CLOSE.length;
  }
}
