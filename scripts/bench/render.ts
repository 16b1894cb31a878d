// BENCHMARKS.md from the result files (bench/results/*.json): where the project stands (the latest
// run of each list scenario against the runs before it), then the newest figures of each phase in
// full; and the run log (bench/runs.md), one line per run, so before and after sit side by side.

import type { ListPayload } from './payload.ts';
import type { BenchResult, BuildRow, MemoryRow, ScenarioRow, Summary } from './results.ts';

/** A number with thousands separators and `digits` decimals. */
export function num(x: number, digits = 0): string {
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "median (min–max)", or just the median for a single sample. */
export function band(s: Summary, digits = 0, unit = ''): string {
  const one = (x: number) => `${num(x, digits)}${unit}`;
  return s.n > 1 && s.min !== s.max ? `${one(s.median)} (${one(s.min)}–${one(s.max)})` : one(s.median);
}

/** A Markdown table; cells have `|` escaped. */
export function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const cell = (c: string) => c.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [`| ${head.map(cell).join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

/** `f(x)`, or a dash when there is no `x`. */
const withDefault = <T>(x: T | undefined, f: (x: T) => string) => (x === undefined ? '—' : f(x));
const ratioOf = (r: BenchResult, id: string) => r.list?.ratios.find((x) => x.id === id)?.ratio;
const ratioText = (s: Summary | undefined) => (s === undefined ? '—' : `${band(s, 2)}x`);
/** A ratio to a ceiling by req/s, and by server CPU per request when the run measured it. */
const ceilingText = (r: BenchResult, id: string, cpuId: string) => {
  const cpu = ratioOf(r, cpuId);
  return `${ratioText(ratioOf(r, id))}${cpu === undefined ? '' : `; by CPU ${band(cpu, 2)}x`}`;
};

/** A Markdown table of one row per item and one column per [heading, cell] pair. */
export function tableOf<T>(items: readonly T[], columns: ReadonlyArray<readonly [string, (x: T) => string]>): string {
  return table(
    columns.map(([head]) => head),
    items.map((x) => columns.map(([, cell]) => cell(x))),
  );
}

const scenarioOf = (r: BenchResult, id: string) => r.list?.scenarios.find((s) => s.id === id);
const largestBuild = (r: BenchResult) =>
  r.build?.rows.filter((b) => b.error === undefined).reduce<BuildRow | undefined>((m, b) => (m === undefined || b.games > m.games ? b : m), undefined);

/** A scenario's throughput, and its server CPU per request when measured. */
const throughputText = (u: ScenarioRow) => `${band(u.reqPerSec)} req/s${u.cpuUsPerRequest ? `, ${band(u.cpuUsPerRequest, 1)} µs CPU/req` : ''}`;
const payloadText = (games: number, p: ListPayload) =>
  `${num(games)} games: page of 50 ${num(p.defaultPage.answerBytes)} B, ${num(p.defaultPage.itemBytes)} B/item; mix ${band(p.mixItemBytes)} B/item, ${band(p.mixAnswerBytes)} B/answer`;

/** One line per run: what a before/after comparison reads (links relative to bench/). */
function runsTable(runs: ReadonlyArray<{ file: string; result: BenchResult }>): string {
  return tableOf<BenchResult & { file: string }>(
    runs.map(({ file, result }) => ({ ...result, file })),
    [
      ['run', (r) => `[${r.env.date.slice(0, 16).replace('T', ' ')}](results/${r.file})`],
      ['code measured', ({ env }) => (env.code === env.commit ? env.code : `${env.code} (bench ${env.commit})`)],
      ['mode', (r) => r.mode],
      ['build / baseline', (r) => withDefault(largestBuild(r), (b) => `${b.label}: ${band(b.ratio, 2)}x`)],
      ['mix / ceiling (e, else d)', (r) => (ratioOf(r, 'a/e') === undefined ? ratioText(ratioOf(r, 'a/d')) : ceilingText(r, 'a/e', 'cpu e/a'))],
      ['mix / caches off', (r) => ratioText(ratioOf(r, 'a/a0'))],
      ['uncached / ceiling', (r) => ceilingText(r, 'u/d', 'cpu d/u')],
      ['uncached', (r) => withDefault(scenarioOf(r, 'u'), throughputText)],
      ['repeated / ceiling', (r) => ceilingText(r, 'b/d', 'cpu d/b')],
      ['slug / ceiling', (r) => ceilingText(r, "c/d'", "cpu d'/c")],
      ['list bytes', (r) => withDefault(r.list?.payload, (p) => payloadText(r.list!.games, p))],
    ],
  );
}

/** The list runs' two sizes in the standing table: 50,000 synthetic games, and the shipped registry. */
function sizeOf(r: BenchResult): '50k' | 'shipped' | undefined {
  const games = r.list?.games;
  if (games === 50_000) return '50k';
  return r.data.some((d) => d.origin === 'shipped' && d.games === games) ? 'shipped' : undefined;
}

/** Runs before the latest that make a figure's band. */
const BAND_RUNS = 5;

/** A figure of the standing table: the route's CPU per request against a bare server's (higher is better). */
const byCpu = (name: string, id: string) => ({
  name,
  get: (r: BenchResult) => ratioOf(r, id)?.median,
  fmt: (x: number) => `${num(x, 2)}x`,
  higherIsBetter: true,
});
/** The standing table's figures: four ratios by CPU, and an uncached request's CPU. */
const STANDING: ReadonlyArray<ReturnType<typeof byCpu>> = [
  byCpu('mix (a), by CPU against its ceiling (e)', 'cpu e/a'),
  byCpu('uncached (u), by CPU against the ceiling (d)', 'cpu d/u'),
  byCpu('repeated query (b), by CPU against the ceiling (d)', 'cpu d/b'),
  byCpu("static slug JSON (c), by CPU against its ceiling (d')", "cpu d'/c"),
  { name: 'uncached (u), server CPU µs per request', get: (r) => scenarioOf(r, 'u')?.cpuUsPerRequest?.median, fmt: (x) => num(x, 1), higherIsBetter: false },
];

/** Where the project stands: per figure and size, the latest run's median against the band of the BAND_RUNS runs before it. */
function standingSection(runs: ReadonlyArray<{ file: string; result: BenchResult }>): string {
  const sizes = (['50k', 'shipped'] as const).map((size) => ({ size, runs: runs.filter((x) => sizeOf(x.result) === size) }));
  const rows = STANDING.map((f) => [
    f.name,
    ...sizes.flatMap(({ runs: those }) => {
      const latest = those.at(-1);
      const v = latest === undefined ? undefined : f.get(latest.result);
      const before = those
        .slice(0, -1)
        .map((x) => f.get(x.result))
        .filter((x) => x !== undefined)
        .slice(-BAND_RUNS);
      if (v === undefined) return ['—', '—'];
      if (before.length === 0) return [f.fmt(v), '—'];
      const [lo, hi] = [Math.min(...before), Math.max(...before)];
      const verdict = v >= lo && v <= hi ? 'within' : v > hi === f.higherIsBetter ? 'better' : 'worse';
      return [`${f.fmt(v)}, ${verdict}`, `${f.fmt(lo)}–${f.fmt(hi)}`];
    }),
  ]);
  const latest = sizes.map(({ size, runs: those }) => {
    const x = those.at(-1);
    const what = size === '50k' ? 'at 50,000 synthetic games' : `on the shipped registry${x ? ` (${num(x.result.list!.games)} games)` : ''}`;
    return x === undefined
      ? `- ${what}: no run yet (\`npm run bench -- --only list${size === 'shipped' ? ' --list-registry real' : ''}\`).`
      : `- ${what}: [${x.result.env.date.slice(0, 16).replace('T', ' ')}](bench/results/${x.file}), code ${x.result.env.code}.`;
  });
  const head = ['figure', '50k: latest', `50k: band of the ${BAND_RUNS} runs before`, 'shipped: latest', 'shipped: band'];
  return `## Where it stands\n\n${table(head, rows)}\n\nThe latest list run of each size, each median against the range of the medians of the ${BAND_RUNS} runs of that size before it (within it, better or worse). A ratio by CPU is the bare server's CPU per request over the route's: 1.00x is the bare server's cost, higher is better. Latest runs:\n\n${latest.join('\n')}`;
}

function header(r: BenchResult): string {
  const e = r.env;
  return table(
    ['', ''],
    [
      ['machine', `${e.cpu}, ${e.cores} cores, ${e.memoryGiB} GiB (${e.platform})`],
      ['Node', e.node],
      ['date', e.date],
      ['commit', e.code === e.commit ? e.commit : `${e.code} measured with the bench of ${e.commit}`],
      ['run time', `${num(r.elapsedS)} s (${r.mode})`],
      ...Object.entries(r.settings),
      ['data', r.data.map((d) => `${d.label}: ${num(d.games)} games (${d.origin})`).join('; ')],
    ],
  );
}

const notes = (list: readonly string[]) => (list.length === 0 ? '' : `\n\n${list.map((n) => `- ${n}`).join('\n')}`);

const error = (x: { error?: string }) => x.error ?? '';

function buildSection(r: BenchResult): string {
  const b = r.build!;
  return `## Build: full build against a plain file-writing baseline\n\n${tableOf(b.rows, [
    ['registry', (x) => x.label],
    ['games', (x) => num(x.games)],
    ['files', (x) => num(x.files)],
    ['size', (x) => `${num(x.bytes / 2 ** 20)} MiB`],
    ['build s', (x) => band(x.buildS, 2)],
    ['baseline s', (x) => band(x.baselineS, 2)],
    ['ratio', (x) => `${band(x.ratio, 2)}x`],
    ['peak RSS MiB', (x) => withDefault(x.peakRssMiB, band)],
    ['error', error],
  ])}${notes(b.notes)}`;
}

function memorySection(r: BenchResult): string {
  const m = r.memory!;
  const u = (f: (v: NonNullable<MemoryRow['uncached']>) => string) => (x: MemoryRow) => withDefault(x.uncached, f);
  const rows = tableOf(m.rows, [
    ['registry', (x) => x.label],
    ['games', (x) => num(x.games)],
    ['start to first list answer, ms', (x) => band(x.readyMs)],
    ['same, no compile cache, ms', (x) => withDefault(x.coldReadyMs, num)],
    ['RSS after start, MiB', (x) => band(x.rssMiB)],
    ['uncached req/s', u((v) => band(v.reqPerSec))],
    ['server CPU µs/req', u((v) => band(v.cpuUsPerRequest, 1))],
    ['p99 ms', u((v) => band(v.p99Ms, 2))],
    ['RSS after, MiB', u((v) => num(v.rssAfterMiB))],
    ['error', error],
  ]);
  return `## Server start, memory and the uncached stream per registry\n\n${rows}${notes(m.notes)}${scalePoints(r).length > 1 ? `\n\n${scaleSection(r)}` : ''}`;
}

/** The scale curve's points: each registry with an uncached stream, with its build when it has one, by size. */
const scalePoints = (r: BenchResult) =>
  (r.memory?.rows ?? [])
    .filter((m) => m.uncached !== undefined)
    .map((m) => ({ m, b: r.build?.rows.find((x) => x.label === m.label && x.error === undefined) }))
    .sort((x, y) => x.m.games - y.m.games);

/** `ratio` as a factor per 10x of games between `g1` and `g2` games. */
export function per10x(ratio: number, g1: number, g2: number): number {
  return ratio ** (1 / Math.log10(g2 / g1));
}

/** The scale curve: per synthetic registry, build, dist size, start, RSS and the uncached stream; then the growth per 10x of games. */
function scaleSection(r: BenchResult): string {
  const points = scalePoints(r);
  const metrics: Array<[string, (p: (typeof points)[number]) => number | undefined, (x: number) => string]> = [
    ['build s', (p) => p.b?.buildS.median, (x) => num(x, 1)],
    ['build / baseline', (p) => p.b?.ratio.median, (x) => `${num(x, 2)}x`],
    ['dist MiB', (p) => (p.b === undefined ? undefined : p.b.bytes / 2 ** 20), (x) => num(x)],
    ['ready ms', (p) => p.m.readyMs.median, (x) => num(x)],
    ['ready ms, no compile cache', (p) => p.m.coldReadyMs, (x) => num(x)],
    ['RSS after start MiB', (p) => p.m.rssMiB.median, (x) => num(x)],
    ['uncached req/s', (p) => p.m.uncached!.reqPerSec.median, (x) => num(x)],
    ['uncached server CPU µs/req', (p) => p.m.uncached!.cpuUsPerRequest.median, (x) => num(x, 1)],
    ['uncached p99 ms', (p) => p.m.uncached!.p99Ms.median, (x) => num(x, 2)],
    ['RSS after the stream MiB', (p) => p.m.uncached!.rssAfterMiB, (x) => num(x)],
  ];
  const steps = points.slice(1).map((p, k) => [points[k]!, p] as const);
  const head = ['', ...points.map((p) => `${num(p.m.games)} games`), ...steps.map(([a, b]) => `per 10x, ${a.m.label} → ${b.m.label}`)];
  const rows = metrics.map(([name, get, fmt]) => [
    name,
    ...points.map((p) => withDefault(get(p), fmt)),
    ...steps.map(([a, b]) => {
      const [x, y] = [get(a), get(b)];
      return x === undefined || y === undefined || x <= 0 ? '—' : `${num(per10x(y / x, a.m.games, b.m.games), 2)}x`;
    }),
  ]);
  return `## Scale: ${points.map((p) => p.m.label).join(', ')} games

${table(head, rows)}

- Medians from the build and memory phases of one run (their bands are in those sections). A growth factor per 10x of 10.00x is linear in the number of games; 1.00x is flat.`;
}

function listSection(r: BenchResult): string {
  const l = r.list!;
  const rows = tableOf(l.scenarios, [
    ['', (s) => s.id],
    ['scenario', (s) => s.title],
    ['req/s', (s) => band(s.reqPerSec)],
    ['server CPU µs/req', (s) => withDefault(s.cpuUsPerRequest, (c) => band(c, 1))],
    ['p50 ms', (s) => band(s.p50Ms, 2)],
    ['p99 ms', (s) => band(s.p99Ms, 2)],
    ['requests', (s) => num(s.requests)],
    ['failures', (s) => (s.non2xx + s.errors > 0 ? `${s.non2xx} non-2xx, ${s.errors} errors` : 'none')],
  ]);
  const ratios = tableOf(l.ratios, [
    ['ratio', (x) => x.label],
    ['value', (x) => `${band(x.ratio, 2)}x`],
  ]);
  const what = l.scenarios.map((s) => `- (${s.id}) ${s.what}`).join('\n');
  const rss = l.serverRssAfterMiB === undefined ? '' : `\n\nServer RSS after all scenarios: ${num(l.serverRssAfterMiB)} MiB.`;
  const p = l.payload;
  const payload =
    p === undefined
      ? ''
      : `\n\nPayload (bytes; the mix's over its ${num(p.mixAnswerBytes.n)} answers, median (min–max)):\n\n${table(
          ['', 'per answer', 'per item'],
          [
            ['default page, `limit=50`', num(p.defaultPage.answerBytes), `${num(p.defaultPage.itemBytes)} (${num(p.defaultPage.items)} items)`],
            ['mix (a)', band(p.mixAnswerBytes), band(p.mixItemBytes)],
          ],
        )}`;
  return `## List route at ${num(l.games)} games\n\n${rows}${payload}\n\nRatios, per round (each pair measured back to back), median (min–max):\n\n${ratios}\n\n${what}${rss}${notes(l.notes)}`;
}

const SECTIONS = [
  ['build', buildSection],
  ['memory', memorySection],
  ['list', listSection],
] as const;

/** BENCHMARKS.md for the runs (oldest first): where it stands, then each phase from the newest run that has it. */
export function renderBenchmarks(runs: ReadonlyArray<{ file: string; result: BenchResult }>): string {
  const parts = [
    '# Benchmarks',
    'Rendered by `npm run bench` (scripts/bench/render.ts) from the result files in bench/results/, one per run; how to read and rerun them: [docs/benchmarks.md](docs/benchmarks.md); every run on one line: [bench/runs.md](bench/runs.md). Absolute figures drift between runs and machines: compare the ratios, which pair figures measured in the same run.',
    standingSection(runs),
  ];
  for (const [key, render] of SECTIONS) {
    const newest = [...runs].reverse().find((x) => x.result[key] !== undefined);
    if (newest === undefined) continue;
    parts.push(`${render(newest.result)}\n\nFrom [${newest.file}](bench/results/${newest.file}):\n\n${header(newest.result)}`);
  }
  const problems = runs.at(-1)?.result.problems ?? [];
  if (problems.length > 0) parts.push(`## Problems in the newest run\n\n${problems.map((p) => `- ${p}`).join('\n')}`);
  return `${parts.join('\n\n')}\n`;
}

/** bench/runs.md: the run log, one line per run (oldest first). */
export function renderRunLog(runs: ReadonlyArray<{ file: string; result: BenchResult }>): string {
  return `# Benchmark runs\n\nOne line per result file in results/, oldest first, rendered by scripts/bench/render.ts; where the project stands and the newest figures in full: [BENCHMARKS.md](../BENCHMARKS.md).\n\n${runsTable(runs)}\n`;
}

/** A few lines for the console after a run. */
export function renderSummary(r: BenchResult): string {
  const lines = [`bench ${r.mode} run, ${num(r.elapsedS)} s, code ${r.env.code}`];
  for (const b of r.build?.rows ?? [])
    lines.push(`  build ${b.label}: ${band(b.buildS, 2)} s, ${band(b.ratio, 2)}x the baseline${b.error ? ` (${b.error})` : ''}`);
  for (const m of r.memory?.rows ?? []) lines.push(`  start ${m.label}: ready ${band(m.readyMs)} ms, RSS ${band(m.rssMiB)} MiB`);
  for (const s of r.list?.scenarios ?? []) lines.push(`  ${s.id} ${s.title}: ${throughputText(s)}, p99 ${band(s.p99Ms, 2)} ms`);
  for (const x of r.list?.ratios ?? []) lines.push(`  ${x.label}: ${band(x.ratio, 2)}x`);
  for (const p of r.problems) lines.push(`  problem: ${p.split('\n')[0]}`);
  return lines.join('\n');
}
