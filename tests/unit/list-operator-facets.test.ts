// The operator facets counted by build pattern agree with counting each record, for several operators and filters.
import { describe, expect, it } from 'vitest';
import { OperatorFacets } from '../../src/list/operator-facets.ts';
import { OPERATOR_BUILDS } from '../../src/schemas/game-record.ts';
import { operatorBit } from '../../src/schemas/list-bundle.ts';

const KEYS = ['casino-a', 'casino-b', 'casino-c'];
const TOTAL = 500;
// A fixed pseudo-random registry: each record seen by some operators at some builds, or by none.
let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const builds = Uint32Array.from({ length: TOTAL }, () =>
  KEYS.reduce((bits, _k, k) => (rand() < 0.4 ? bits | operatorBit(k, Math.floor(rand() * OPERATOR_BUILDS.length)) : bits), 0),
);
const facets = new OperatorFacets({ total: TOTAL, operatorKeys: KEYS, operatorDisplay: ['A', 'B "quoted"', 'C'], operatorBuilds: builds });

type Q = { operator: string | null; operator_build: (typeof OPERATOR_BUILDS)[number] | null };
function written(q: Q, ids: number[] | null, others: ((i: number) => boolean) | null) {
  const target = new Uint8Array(facets.maxBytes + 1);
  target[0] = 0x7b; // {
  const end = facets.write(q, ids, others, target, 1);
  expect(end - 1).toBeLessThanOrEqual(facets.maxBytes);
  return JSON.parse(Buffer.from(target.subarray(0, end)).toString('utf8').replace('{,', '{')) as {
    operators: Array<{ operator: string; display: string; count: number }>;
    operator_builds: Array<{ operator_build: string; count: number }>;
  };
}
function expected(q: Q, ids: number[] | null, others: ((i: number) => boolean) | null) {
  const pool = (ids ?? [...Array(TOTAL).keys()]).filter((i) => others === null || others(i));
  const seen = (i: number, k: number | null, b: number | null) =>
    KEYS.some((_, kk) => (k === null || k === kk) && OPERATOR_BUILDS.some((_, bb) => (b === null || b === bb) && (builds[i]! & operatorBit(kk, bb)) !== 0));
  const op = q.operator === null ? null : KEYS.indexOf(q.operator);
  const build = q.operator_build === null ? null : OPERATOR_BUILDS.indexOf(q.operator_build);
  return {
    operators: KEYS.map((_, kk) => pool.filter((i) => seen(i, kk, build)).length),
    operator_builds: OPERATOR_BUILDS.map((_, bb) => (op === -1 ? 0 : pool.filter((i) => seen(i, op, bb)).length)),
  };
}

describe('operator facets', () => {
  const queries: Q[] = [
    { operator: null, operator_build: null },
    { operator: 'casino-b', operator_build: null },
    { operator: null, operator_build: 'lower' },
    { operator: 'casino-c', operator_build: 'higher' },
    { operator: 'no-such-casino', operator_build: null },
  ];
  const ids = Array.from({ length: 120 }, (_, k) => k * 4);
  const even = (i: number) => i % 2 === 0;
  it.each(queries)('count each record once per facet, with the other operator filter applied: %o', (q) => {
    for (const [i, o] of [
      [null, null],
      [ids, null],
      [null, even],
      [ids, even],
    ] as const) {
      const got = written(q, i === null ? null : [...i], o);
      expect({ operators: got.operators.map((x) => x.count), operator_builds: got.operator_builds.map((x) => x.count) }).toEqual(
        expected(q, i === null ? null : [...i], o),
      );
      expect(got.operators.map((x) => [x.operator, x.display])).toEqual([
        ['casino-a', 'A'],
        ['casino-b', 'B "quoted"'],
        ['casino-c', 'C'],
      ]);
    }
  });

  it('a registry no operator observed counts 0 everywhere, whatever the filters', () => {
    const none = new OperatorFacets({ total: 4, operatorKeys: ['casino-a'], operatorDisplay: ['A'], operatorBuilds: new Uint32Array(4) });
    const target = new Uint8Array(none.maxBytes + 1);
    target[0] = 0x7b;
    const end = none.write({ operator: null, operator_build: null }, [0, 2], (i) => i > 0, target, 1);
    expect(JSON.parse(Buffer.from(target.subarray(0, end)).toString('utf8').replace('{,', '{'))).toEqual({
      operators: [{ operator: 'casino-a', display: 'A', count: 0 }],
      operator_builds: OPERATOR_BUILDS.map((b) => ({ operator_build: b, count: 0 })),
    });
  });
});
