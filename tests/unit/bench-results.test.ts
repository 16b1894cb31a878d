// Benchmark results as JSON files and BENCHMARKS.md rendered from them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { band, num, per10x, renderBenchmarks, renderRunLog, renderSummary, table } from '../../scripts/bench/render.ts';
import { type BenchResult, readResults, resultFileName, writeResult } from '../../scripts/bench/results.ts';
import { summarize } from '../../scripts/bench/stats.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-results-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const env = {
  cpu: 'Test CPU',
  cores: 2,
  memoryGiB: 24,
  node: 'v24.0.0',
  platform: 'Linux x64',
  date: '2026-11-21T10:20:30.000Z',
  commit: 'abc1234',
  code: 'abc1234',
};
const scenario = (id: string, rps: number[], server: 'server' | 'ceiling' = 'server') => ({
  id,
  title: `scenario ${id}`,
  server,
  what: `what ${id}`,
  reqPerSec: summarize(rps),
  p50Ms: summarize([1, 1, 1]),
  p99Ms: summarize([20, 21, 22]),
  requests: 100,
  non2xx: 0,
  errors: 0,
});

function result(over: Partial<BenchResult> = {}): BenchResult {
  return {
    format: 1,
    env,
    mode: 'full',
    elapsedS: 321.4,
    settings: { load: '10 connections' },
    data: [{ label: '50k', games: 50_000, origin: 'cached' }],
    build: {
      rows: [
        {
          label: '50k',
          games: 50_000,
          files: 150_012,
          bytes: 300 * 2 ** 20,
          buildS: summarize([20, 22, 24]),
          baselineS: summarize([10, 11, 12]),
          ratio: summarize([2, 2, 2]),
          peakRssMiB: summarize([500, 510, 520]),
        },
      ],
      notes: ['a build note'],
    },
    list: {
      games: 50_000,
      scenarios: [{ ...scenario('a', [3100, 3200, 3300]), cpuUsPerRequest: summarize([40, 42.5, 45]) }, scenario('d', [30000, 31000, 32000], 'ceiling')],
      ratios: [{ id: 'a/d', label: 'mix (a) / ceiling (d)', ratio: summarize([0.1, 0.11, 0.12]) }],
      serverRssAfterMiB: 240,
      notes: [],
    },
    problems: [],
    ...over,
  };
}

describe('formatting', () => {
  it('formats numbers, bands and tables', () => {
    expect(num(1234567.891, 1)).toBe('1,234,567.9');
    expect(band(summarize([3, 1, 2]), 1, ' ms')).toBe('2.0 ms (1.0 ms–3.0 ms)');
    expect(band(summarize([5]))).toBe('5');
    expect(table(['a', 'b'], [['1', 'x|y']])).toBe('| a | b |\n|---|---|\n| 1 | x\\|y |');
  });
});

describe('result files', () => {
  it('are named by date and measured commit, and read back validated, oldest first', async () => {
    expect(resultFileName(result())).toBe('2026-11-21-10-20-30-abc1234.json');
    expect(resultFileName(result({ mode: 'partial', env: { ...env, code: 'def5678+dirty' } }))).toBe('2026-11-21-10-20-30-def5678-dirty-partial.json');
    const dir = path.join(tmp, 'results');
    await writeResult(dir, result({ env: { ...env, date: '2026-11-22T00:00:00.000Z' } }));
    await writeResult(dir, result());
    expect(readResults(dir).map((r) => r.file)).toEqual(['2026-11-21-10-20-30-abc1234.json', '2026-11-22-00-00-00-abc1234.json']);
    expect(readResults(path.join(tmp, 'none'))).toEqual([]);
  });

  it('refuses a file that does not match the schema, naming it and the field', async () => {
    const dir = path.join(tmp, 'bad');
    const file = await writeResult(dir, result());
    const text = readFileSync(file, 'utf8').replace('"elapsedS": 321.4', '"elapsedS": "slow"');
    writeFileSync(file, text);
    expect(() => readResults(dir)).toThrow(`${file}: elapsedS: Invalid input: expected number, received string`);
    expect(() => writeResult(dir, { ...result(), mode: 'fast' as never })).toThrow();
  });

  it('refuses a file that is not JSON (an empty one, from a failed write), naming it', async () => {
    const dir = path.join(tmp, 'empty');
    const file = path.join(dir, '2026-11-23-00-00-00-abc1234.json');
    await writeResult(dir, result());
    writeFileSync(file, '');
    expect(() => readResults(dir)).toThrow(`${file}: not JSON (Unexpected end of JSON input): delete it, or run the bench again`);
  });
});

describe('BENCHMARKS.md', () => {
  const before = {
    file: '2026-11-21-10-20-30-abc1234-partial.json',
    result: result({
      mode: 'partial',
      build: undefined,
      list: { ...result().list!, ratios: [{ id: 'a/d', label: 'mix (a) / ceiling (d)', ratio: summarize([0.09, 0.1, 0.11]) }] },
    }),
  };
  const after = {
    file: '2026-11-22-10-20-30-def5678.json',
    result: result({ env: { ...env, date: '2026-11-22T10:20:30.000Z', commit: 'def5678', code: 'def5678' } }),
  };
  const md = renderBenchmarks([before, after]);

  it('lists every run on one line of the run log, before and after side by side', () => {
    const log = renderRunLog([before, after]);
    expect(log).toContain('| [2026-11-21 10:20](results/2026-11-21-10-20-30-abc1234-partial.json) | abc1234 | partial | — | 0.10 (0.09–0.11)x |');
    expect(log).toContain('| [2026-11-22 10:20](results/2026-11-22-10-20-30-def5678.json) | def5678 | full | 50k: 2.00x | 0.11 (0.10–0.12)x |');
    expect(md).not.toContain('](bench/results/2026-11-21-10-20-30-abc1234-partial.json) |');
  });

  it('renders each phase from the newest run that has it, with machine, date and commit', () => {
    expect(md).toContain('| 50k | 50,000 | 150,012 | 300 MiB | 22.00 (20.00–24.00) | 11.00 (10.00–12.00) | 2.00x | 510 (500–520) |  |');
    expect(md).toContain('- a build note');
    expect(md).toContain('| a | scenario a | 3,200 (3,100–3,300) | 42.5 (40.0–45.0) | 1.00 | 21.00 (20.00–22.00) | 100 | none |');
    expect(md).toContain('| d | scenario d | 31,000 (30,000–32,000) | — |');
    expect(md).toContain('From [2026-11-22-10-20-30-def5678.json](bench/results/2026-11-22-10-20-30-def5678.json)');
    expect(md).toContain('| machine | Test CPU, 2 cores, 24 GiB (Linux x64) |');
    expect(md).toContain('| commit | def5678 |');
    expect(md).not.toContain('## Search');
  });

  it('gives a ratio to a ceiling by server CPU per request beside the one by req/s, when the run has it', () => {
    const ratios = [
      { id: 'b/d', label: 'repeated query (b) / ceiling (d)', ratio: summarize([0.95, 1, 1.05]) },
      { id: 'cpu d/b', label: 'server CPU per request: ceiling (d) / repeated query (b)', ratio: summarize([0.84, 0.86, 0.88]) },
      { id: "c/d'", label: "static slug JSON (c) / ceiling (d')", ratio: summarize([0.97, 0.98, 0.99]) },
    ];
    const withCpu = result({ list: { ...result().list!, ratios } });
    const line = renderRunLog([{ file: 'y.json', result: withCpu }])
      .split('\n')
      .find((l) => l.startsWith('| [2026'));
    expect(line).toContain('| 1.00 (0.95–1.05)x; by CPU 0.86 (0.84–0.88)x | 0.98 (0.97–0.99)x |');
    expect(renderSummary(withCpu)).toContain('server CPU per request: ceiling (d) / repeated query (b): 0.86 (0.84–0.88)x');
  });

  it('names the measured code apart from the bench when they differ, and prints a console summary', () => {
    const other = result({ env: { ...env, code: '28cfafb' } });
    expect(renderRunLog([{ file: 'x.json', result: other }])).toContain('| 28cfafb (bench abc1234) |');
    expect(renderSummary(other)).toContain('a scenario a: 3,200 (3,100–3,300) req/s, 42.5 (40.0–45.0) µs CPU/req');
  });
});

describe('where it stands', () => {
  /** A list run at `games` games whose mix costs `ceilingShare` of the ceiling's CPU (cpu e/a), on `day`. */
  const run = (day: number, games: number, ceilingShare: number) => {
    const date = `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`;
    const ratios = [{ id: 'cpu e/a', label: 'server CPU per request: its ceiling (e) / mix (a)', ratio: summarize([ceilingShare]) }];
    const data = [{ label: games === 50_000 ? '50k' : 'real', games, origin: games === 50_000 ? 'cached' : 'shipped' }];
    return { file: `${date.slice(0, 10)}.json`, result: result({ env: { ...env, date }, build: undefined, data, list: { ...result().list!, games, ratios } }) };
  };

  it('holds the latest run of each size against the runs of that size before it', () => {
    const runs = [run(1, 50_000, 0.9), ...[0.5, 0.6, 0.55, 0.52, 0.58].map((x, k) => run(k + 2, 50_000, x)), run(8, 7374, 0.7), run(9, 50_000, 0.45)];
    const md = renderBenchmarks(runs);
    expect(md.indexOf('## Where it stands')).toBeLessThan(md.indexOf('## List route'));
    // The band is the BAND_RUNS runs at 50k before the latest (0.9, older, is out of it); the shipped registry has one run, no band.
    expect(md).toContain('| mix (a), by CPU against its ceiling (e) | 0.45x, worse | 0.50x–0.60x | 0.70x | — |');
    expect(md).toContain('- on the shipped registry (7,374 games): [2026-11-08 10:00](bench/results/2026-11-08.json)');
    expect(renderBenchmarks([...runs, run(10, 50_000, 0.55)])).toContain('| 0.55x, within | 0.45x–0.60x |');
    expect(renderBenchmarks([...runs, run(10, 50_000, 0.61)])).toContain('| 0.61x, better |');
  });

  it('says when a size has no run yet, and how to make one', () => {
    expect(renderBenchmarks([run(1, 50_000, 0.5)])).toContain('- on the shipped registry: no run yet (`npm run bench -- --only list --list-registry real`).');
  });
});

describe('scale curve', () => {
  it('gives growth per 10x of games: linear is 10x whatever the step', () => {
    expect(per10x(10, 5000, 50_000)).toBeCloseTo(10, 10);
    expect(per10x(5, 50_000, 250_000)).toBeCloseTo(10, 10);
    expect(per10x(1, 5000, 250_000)).toBe(1);
  });

  it('renders one column per registry and the growth per 10x between them', () => {
    const uncached = (rps: number, rss: number) => ({
      reqPerSec: summarize([rps]),
      cpuUsPerRequest: summarize([100]),
      p99Ms: summarize([3]),
      rssAfterMiB: rss,
    });
    const row = (label: string, games: number, rps: number, rss: number) => ({
      label,
      games,
      readyMs: summarize([200]),
      rssMiB: summarize([rss]),
      coldReadyMs: 300,
      uncached: uncached(rps, rss),
    });
    const md = renderBenchmarks([
      { file: 'x.json', result: result({ memory: { rows: [row('5k', 5000, 12_000, 100), row('50k', 50_000, 10_000, 200)], notes: [] } }) },
    ]);
    expect(md).toContain('## Scale: 5k, 50k games');
    expect(md).toContain('| RSS after the stream MiB | 100 | 200 | 2.00x |');
    expect(md).toContain('| uncached req/s | 12,000 | 10,000 | 0.83x |');
  });
});
