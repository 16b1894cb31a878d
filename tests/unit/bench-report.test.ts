import { describe, expect, it } from 'vitest';
import { fmt, fmtRatio, num, renderReport, renderSummary, table, type BenchResults } from '../../scripts/bench/report.ts';
import { summarize } from '../../scripts/bench/stats.ts';
import { evaluateTargets, RATIO } from '../../scripts/bench/targets.ts';
import { carryHistory } from '../../scripts/bench/history.ts';

const env = { cpu: 'Test CPU', cores: 2, memoryGiB: 24, node: 'v24.0.0', platform: 'Linux x64', date: '2026-11-21T00:00:00.000Z', commit: 'abc1234+dirty' };

function results(overrides: Partial<BenchResults> = {}): BenchResults {
  return {
    mode: 'full',
    env,
    elapsedS: 321.4,
    settings: { load: '10 connections.' },
    data: [{ label: '50k', games: 50_000, origin: 'cached' }],
    build: {
      status: 'ok',
      rows: [
        {
          label: '50k',
          games: 50_000,
          files: 150_012,
          bytes: 300 * 2 ** 20,
          build: summarize([20, 22, 24]),
          baseline: summarize([10, 11, 12]),
          ratio: summarize([2, 2, 2]),
          peakRssMiB: summarize([500, 510, 520]),
        },
      ],
      notes: [],
    },
    memory: { status: 'not available', reason: 'src/server/main.ts does not exist yet.' },
    list: {
      status: 'ok',
      games: 50_000,
      scenarios: [
        { id: 'a', title: 'mix', server: 'server', what: 'w', reqPerSec: summarize([3100, 3200, 3300]), p50Ms: summarize([1, 1, 1]), p99Ms: summarize([20, 21, 22]), requests: 100, non2xx: 0, errors: 0, fail: false, statusCodes: { 200: 100 } },
        { id: 'u', title: 'uncached', server: 'server', what: 'w', reqPerSec: summarize([900]), p50Ms: summarize([2]), p99Ms: summarize([9]), requests: 10, non2xx: 3, errors: 0, fail: true, statusCodes: { 200: 7, 429: 3 } },
      ],
      ratios: [{ label: RATIO.repeatedCeiling, ratio: summarize([0.6, 0.7, 0.8]) }],
      serverRssAfterMiB: 240,
      streamSize: 1000,
      streamSent: 10,
      mixCount: 2000,
      notes: [],
    },
    search: undefined,
    targets: [],
    problems: [],
    missing: [],
    ...overrides,
  };
}

describe('formatting', () => {
  it('formats numbers with separators and fixed decimals', () => {
    expect(num(1234567.891, 1)).toBe('1,234,567.9');
    expect(num(Number.NaN)).toBe('n/a');
  });
  it('shows median with min–max, or the median alone for one sample', () => {
    expect(fmt(summarize([3, 1, 2]), 1, 'ms')).toBe('2.0 ms (1.0–3.0)');
    expect(fmt(summarize([5]))).toBe('5');
    expect(fmt(undefined)).toBe('n/a');
  });
  it('formats ratios', () => {
    expect(fmtRatio(summarize([0.5, 0.6, 0.7]))).toBe('0.60x (0.50–0.70)');
    expect(fmtRatio(summarize([12.34]))).toBe('12.3x');
  });
  it('builds Markdown tables, escaping pipes', () => {
    expect(table(['a', 'b'], [['1', 'x|y']])).toBe('| a | b |\n|---|---|\n| 1 | x\\|y |');
  });
});

describe('renderReport', () => {
  const r = results();
  r.targets = evaluateTargets(r, 50_000);
  const md = renderReport(r);

  it('states machine, Node, date and commit', () => {
    expect(md).toContain('| machine | Test CPU, 2 cores, 24.0 GiB memory (Linux x64) |');
    expect(md).toContain('| Node | v24.0.0 |');
    expect(md).toContain('| date | 2026-11-21T00:00:00.000Z |');
    expect(md).toContain('| commit | abc1234+dirty |');
  });
  it('quotes medians with min–max and the build ratio', () => {
    expect(md).toContain('| 50k | 50,000 | 150,012 | 300.0 MiB | 22.00 (20.00–24.00) | 11.00 (10.00–12.00) | 2.00x | 510 MiB (500–520) |');
  });
  it('flags a failing scenario and says what was not available', () => {
    expect(md).toContain('FAIL (200: 7, 429: 3)');
    expect(md).toContain('**Not available:** src/server/main.ts does not exist yet.');
    expect(md).toContain('_Search: not run (filtered out with --only)._');
  });
  it('evaluates targets against the medians', () => {
    expect(md).toContain('| #3 | full build at 50k / plain baseline | <= 2.0x | 2.00x | yes |');
    expect(md).toContain('| #4 | (a) mix of distinct queries | >= 3,000 req/s, p99 <= 25 ms | 3,200 req/s, p99 21.00 ms | yes |');
    expect(md).toContain('| #8 | (b) repeated query / ceiling | >= 0.9x | 0.70x | no |');
    expect(md).toContain('| #8 | uncached distinct queries | >= 10,000 req/s, p99 <= 5 ms | 900 req/s, p99 9.00 ms | n/a |');
  });
  it('marks a quick run as not representative and leaves targets unjudged', () => {
    const q = results({ mode: 'quick' });
    q.targets = evaluateTargets(q, 200);
    expect(renderReport(q)).toContain('# Benchmarks (quick run: not representative)');
    expect(q.targets.filter((t) => t.issue !== 3).every((t) => t.met === undefined)).toBe(true);
  });
  it('prints a console summary', () => {
    const s = renderSummary(r);
    expect(s).toContain('bench (full) finished in 321 s');
    expect(s).toContain('u uncached [server]: 900 req/s, p99 9.00 ms FAIL');
  });
});

describe('earlier full runs (before/after)', () => {
  const withTargets = (commit: string, measured: string) => {
    const r = results({ env: { ...env, commit } });
    r.targets = evaluateTargets(r, 50_000).map((t) => (t.what.startsWith('full build') ? { ...t, measured } : t));
    return r;
  };

  it('carries the previous full report forward, newest first, and keeps listing older runs', () => {
    const first = renderReport(withTargets('aaa1111', '2.50x'));
    const one = carryHistory(first);
    expect(one).toEqual([{ commit: 'aaa1111', date: '2026-11-21', measured: expect.objectContaining({ '#3 full build at 50k / plain baseline': '2.50x' }) }]);
    const second = renderReport(withTargets('bbb2222', '1.90x'), one);
    expect(second).toContain('## Earlier full runs');
    const two = carryHistory(second);
    expect(two.map((r) => [r.commit, r.measured['#3 full build at 50k / plain baseline']])).toEqual([
      ['bbb2222', '1.90x'],
      ['aaa1111', '2.50x'],
    ]);
  });

  it('carries nothing from a partial or missing report', () => {
    expect(carryHistory(renderReport(results({ mode: 'partial' })))).toEqual([]);
    expect(carryHistory('')).toEqual([]);
  });
});
