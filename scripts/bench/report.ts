// Benchmark results model and the Markdown report (BENCHMARKS.md, or a temp file in quick mode); pure formatting only.
import { renderHistory, type EarlierRun } from './history.ts';
import type { Environment } from './env.ts';
import type { Summary } from './stats.ts';

/** A section that could not run, with the reason shown in the report. */
export interface Unavailable {
  status: 'not available';
  reason: string;
}

export interface BuildRow {
  label: string;
  games: number;
  files: number;
  bytes: number;
  /** Seconds. */
  build: Summary;
  baseline: Summary;
  /** build / baseline, paired per run. */
  ratio: Summary;
  peakRssMiB?: Summary;
  error?: string;
}

export interface MemoryRow {
  label: string;
  games: number;
  /** Milliseconds from spawn to the first answered list query. */
  startToReadyMs: Summary;
  rssMiB: Summary;
  error?: string;
}

export interface ScenarioRow {
  id: string;
  title: string;
  server: 'server' | 'ceiling' | 'peer';
  what: string;
  reqPerSec: Summary;
  p50Ms: Summary;
  p99Ms: Summary;
  requests: number;
  non2xx: number;
  errors: number;
  fail: boolean;
  statusCodes: Record<string, number>;
  note?: string;
}

export interface RatioRow {
  label: string;
  ratio: Summary;
}

export interface ListSection {
  status: 'ok';
  games: number;
  scenarios: ScenarioRow[];
  ratios: RatioRow[];
  serverRssAfterMiB?: number;
  peerRssAfterMiB?: number;
  peerRssLoadedMiB?: number;
  peerLoadMs?: number;
  peerDriver?: string;
  peerAgreement?: string;
  streamSize: number;
  streamSent: number;
  mixCount: number;
  notes: string[];
}

export interface SearchRow {
  label: string;
  games: number;
  queries: number;
  indexMs: number;
  searchP50Ms: number;
  searchP99Ms: number;
  listP50Ms?: number;
  listP99Ms?: number;
}

export interface SearchSection {
  status: 'ok';
  implementation: string;
  rows: SearchRow[];
  notes: string[];
}

export interface Target {
  issue: number;
  what: string;
  goal: string;
  measured: string;
  met: boolean | undefined;
}

export interface BenchResults {
  mode: 'full' | 'quick' | 'partial';
  env: Environment;
  elapsedS: number;
  settings: Record<string, string>;
  data: Array<{ label: string; games: number; origin: string }>;
  build: { status: 'ok'; rows: BuildRow[]; notes: string[] } | Unavailable | undefined;
  memory: { status: 'ok'; rows: MemoryRow[]; notes: string[] } | Unavailable | undefined;
  list: ListSection | Unavailable | undefined;
  search: SearchSection | Unavailable | undefined;
  targets: Target[];
  /** Errors: something that exists failed (the run exits non-zero). */
  problems: string[];
  /** Pieces of the project that do not exist yet (reported, not failed). */
  missing: string[];
}

/** A number with thousands separators and a fixed number of decimals. */
export function num(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "median (min–max)", or just the median when there is one sample. */
export function fmt(s: Summary | undefined, digits = 0, unit = ''): string {
  if (s === undefined) return 'n/a';
  const u = unit === '' ? '' : ` ${unit}`;
  if (s.n <= 1 || s.min === s.max) return `${num(s.median, digits)}${u}`;
  return `${num(s.median, digits)}${u} (${num(s.min, digits)}–${num(s.max, digits)})`;
}

/** A ratio as "1.23x (1.10–1.30)". */
export function fmtRatio(s: Summary | undefined): string {
  if (s === undefined) return 'n/a';
  const d = s.median >= 10 ? 1 : 2;
  if (s.n <= 1 || s.min === s.max) return `${num(s.median, d)}x`;
  return `${num(s.median, d)}x (${num(s.min, d)}–${num(s.max, d)})`;
}

/** A Markdown table; cells have pipes escaped. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const esc = (c: string) => c.replaceAll('|', '\\|');
  const lines = [`| ${header.map(esc).join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${r.map(esc).join(' | ')} |`);
  return lines.join('\n');
}

function mib(bytes: number): string {
  return `${num(bytes / 2 ** 20, 1)} MiB`;
}

function unavailable(section: { status: string } | undefined, what: string): string | undefined {
  if (section === undefined) return `_${what}: not run (filtered out with --only)._`;
  if (section.status === 'not available') return `**Not available:** ${(section as Unavailable).reason}`;
  return undefined;
}

function renderBuild(r: BenchResults): string {
  const out = ['## Build: full build vs. a plain file-writing baseline', ''];
  const na = unavailable(r.build, 'Build');
  if (na !== undefined || r.build === undefined || r.build.status !== 'ok') return [...out, na ?? ''].join('\n');
  out.push(
    'Full `astro build` (child process, `RTP_DATA_DIR`/`RTP_OUT_DIR`, fresh output folder) against `scripts/bench/baseline-writer.ts`, a plain Node script that writes the same relative paths with the same sizes into a fresh folder. Each build run is followed by its baseline run; the ratio is taken per pair, then summarised. Times in seconds; peak RSS is the largest process of the build (GNU `time -v`).',
    '',
  );
  out.push(
    table(
      ['registry', 'games', 'files', 'output', 'build s', 'baseline s', 'build / baseline', 'build peak RSS'],
      r.build.rows.map((b) => [
        b.label,
        num(b.games),
        num(b.files),
        mib(b.bytes),
        b.error ? `FAIL: ${b.error}` : fmt(b.build, 2),
        fmt(b.baseline, 2),
        fmtRatio(b.ratio),
        fmt(b.peakRssMiB, 0, 'MiB'),
      ]),
    ),
  );
  for (const n of r.build.notes) out.push('', `- ${n}`);
  return out.join('\n');
}

function renderMemory(r: BenchResults): string {
  const out = ['## Server memory and start-up', ''];
  const na = unavailable(r.memory, 'Memory');
  if (na !== undefined || r.memory === undefined || r.memory.status !== 'ok') return [...out, na ?? ''].join('\n');
  out.push(
    'The real server (`node src/server/main.ts`) on each built registry. Start-to-ready: from spawning the process to the first 200 answer of `GET /api/rtp/list?limit=1` (polled every 5 ms). RSS: `VmRSS` of the server process right after that first answer.',
    '',
  );
  out.push(
    table(
      ['registry', 'games', 'start to ready', 'RSS when ready'],
      r.memory.rows.map((m) => [m.label, num(m.games), m.error ? `FAIL: ${m.error}` : fmt(m.startToReadyMs, 0, 'ms'), fmt(m.rssMiB, 0, 'MiB')]),
    ),
  );
  for (const n of r.memory.notes) out.push('', `- ${n}`);
  return out.join('\n');
}

function renderList(r: BenchResults): string {
  const out = ['## List route under load', ''];
  const na = unavailable(r.list, 'List');
  if (na !== undefined || r.list === undefined || r.list.status !== 'ok') return [...out, na ?? ''].join('\n');
  const l = r.list;
  out.push(
    `Registry: ${num(l.games)} games. ${r.settings.load ?? ''} Latency percentiles are over every response of the timed rounds (ms, sub-millisecond precision). A scenario with any non-2xx answer or socket error is marked FAIL.`,
    '',
  );
  out.push(
    table(
      ['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-2xx / errors', 'status'],
      l.scenarios.map((s) => [
        `${s.id} ${s.title}`,
        s.server,
        fmt(s.reqPerSec),
        fmt(s.p50Ms, 2),
        fmt(s.p99Ms, 2),
        num(s.requests),
        `${num(s.non2xx)} / ${num(s.errors)}`,
        s.fail ? `FAIL (${Object.entries(s.statusCodes).map(([c, n]) => `${c}: ${n}`).join(', ')})` : 'ok',
      ]),
    ),
  );
  out.push('', '### Ratios (paired per round, same run)', '');
  out.push(table(['ratio', 'median (min–max)'], l.ratios.map((x) => [x.label, fmtRatio(x.ratio)])));
  out.push('', '### What each scenario sends', '');
  for (const s of l.scenarios) out.push(`- **${s.id}** (${s.server}): ${s.what}${s.note ? ` ${s.note}` : ''}`);
  out.push('', '### Memory after the load runs', '');
  const mem: string[][] = [];
  if (l.serverRssAfterMiB !== undefined) mem.push(['list server (MiniSearch design)', `${num(l.serverRssAfterMiB)} MiB`]);
  if (l.peerRssLoadedMiB !== undefined) mem.push(['SQLite FTS5 peer, after loading', `${num(l.peerRssLoadedMiB)} MiB`]);
  if (l.peerRssAfterMiB !== undefined) mem.push(['SQLite FTS5 peer, after the load runs', `${num(l.peerRssAfterMiB)} MiB`]);
  out.push(table(['process', 'VmRSS'], mem));
  out.push('', '### The SQLite FTS5 peer', '');
  out.push(
    `\`scripts/bench/sqlite-peer.ts\` (${l.peerDriver ?? 'n/a'}): the same list semantics on an in-memory SQLite database: a narrow table of the columns queries filter and sort on, with one B-tree index per sort order and two covering indexes for the facet counts; the records' JSON in a table of its own, fetched by id for the page; an FTS5 table over name, slug, provider key and display name (the route's tokenizer applied to both sides; every query word a prefix term, all required). It reads parameters with the route's own parser. Per request: the page query, a count, one GROUP BY per facet; no response cache.${l.peerLoadMs !== undefined ? ` Start to ready (loading ${num(l.games)} records, building the indexes): ${num(l.peerLoadMs)} ms.` : ''}`,
  );
  if (l.peerAgreement) out.push('', l.peerAgreement);
  for (const n of l.notes) out.push('', `- ${n}`);
  return out.join('\n');
}

function renderSearch(r: BenchResults): string {
  const out = ['## Search alone (in-process)', ''];
  const na = unavailable(r.search, 'Search');
  if (na !== undefined || r.search === undefined || r.search.status !== 'ok') return [...out, na ?? ''].join('\n');
  out.push(`${r.search.implementation}`, '');
  const withList = r.search.rows.some((x) => x.listP50Ms !== undefined);
  out.push(
    table(
      ['registry', 'games', 'queries with q', 'index build', 'search p50', 'search p99', ...(withList ? ['whole list query p50', 'whole list query p99'] : [])],
      r.search.rows.map((x) => [
        x.label,
        num(x.games),
        num(x.queries),
        `${num(x.indexMs)} ms`,
        `${num(x.searchP50Ms, 3)} ms`,
        `${num(x.searchP99Ms, 3)} ms`,
        ...(withList ? [x.listP50Ms === undefined ? 'n/a' : `${num(x.listP50Ms, 3)} ms`, x.listP99Ms === undefined ? 'n/a' : `${num(x.listP99Ms, 3)} ms`] : []),
      ]),
    ),
  );
  for (const n of r.search.notes) out.push('', `- ${n}`);
  return out.join('\n');
}

function renderTargets(r: BenchResults): string {
  const out = ['## Targets', ''];
  if (r.targets.length === 0) return [...out, '_No target could be evaluated in this run._'].join('\n');
  out.push(
    table(
      ['issue', 'target', 'goal', 'measured (median)', 'met'],
      r.targets.map((t) => [`#${t.issue}`, t.what, t.goal, t.measured, t.met === undefined ? 'n/a' : t.met ? 'yes' : 'no']),
    ),
  );
  return out.join('\n');
}

/** The whole report as Markdown; `history`: earlier full runs to list (history.ts). */
export function renderReport(r: BenchResults, history: readonly EarlierRun[] = []): string {
  const title = r.mode === 'full' ? '# Benchmarks' : `# Benchmarks (${r.mode} run: not representative)`;
  const head = [
    title,
    '',
    'Written by `npm run bench` (scripts/bench/run.ts); how to read and rerun it: [docs/benchmarks.md](docs/benchmarks.md). Absolute times drift between runs and machines: quote medians and the ratios, which compare figures measured in the same run.',
    '',
    table(
      ['', ''],
      [
        ['machine', `${r.env.cpu}, ${r.env.cores} cores, ${num(r.env.memoryGiB, 1)} GiB memory (${r.env.platform})`],
        ['Node', r.env.node],
        ['date', r.env.date],
        ['commit', r.env.commit],
        ['suite run time', `${num(r.elapsedS)} s`],
        ...Object.entries(r.settings).map(([k, v]) => [k, v]),
        ['data', r.data.map((d) => `${d.label}: ${num(d.games)} games (${d.origin})`).join('; ')],
      ],
    ),
    '',
    'Figures are "median (min–max)" over the runs stated in each section.',
  ];
  const problems = r.problems.length > 0 ? ['', '## Problems in this run', '', ...r.problems.map((p) => `- ${p}`)] : [];
  if (r.missing.length > 0) problems.push('', '## Not available in this run', '', ...r.missing.map((p) => `- ${p}`));
  const earlier = renderHistory(history, r.targets.map((t) => `#${t.issue} ${t.what}`), table);
  return [...head, ...problems, '', renderTargets(r), '', ...(earlier === '' ? [] : [earlier, '']), renderBuild(r), '', renderList(r), '', renderMemory(r), '', renderSearch(r), ''].join('\n');
}

/** A few lines for the console. */
export function renderSummary(r: BenchResults): string {
  const lines: string[] = [`bench (${r.mode}) finished in ${num(r.elapsedS)} s`];
  if (r.build?.status === 'ok') for (const b of r.build.rows) lines.push(`  build ${b.label}: ${fmt(b.build, 2)} s, baseline ${fmt(b.baseline, 2)} s, ratio ${fmtRatio(b.ratio)}`);
  else if (r.build) lines.push(`  build: not available (${r.build.reason})`);
  if (r.list?.status === 'ok') for (const s of r.list.scenarios) lines.push(`  ${s.id} ${s.title} [${s.server}]: ${fmt(s.reqPerSec)} req/s, p99 ${fmt(s.p99Ms, 2)} ms${s.fail ? ' FAIL' : ''}`);
  else if (r.list) lines.push(`  list: not available (${r.list.reason})`);
  if (r.memory?.status === 'ok') for (const m of r.memory.rows) lines.push(`  memory ${m.label}: ready ${fmt(m.startToReadyMs)} ms, RSS ${fmt(m.rssMiB)} MiB`);
  else if (r.memory) lines.push(`  memory: not available (${r.memory.reason})`);
  if (r.search?.status === 'ok') for (const x of r.search.rows) lines.push(`  search ${x.label}: p50 ${num(x.searchP50Ms, 3)} ms, p99 ${num(x.searchP99Ms, 3)} ms`);
  else if (r.search) lines.push(`  search: not available (${r.search.reason})`);
  for (const p of r.missing) lines.push(`  NOT AVAILABLE: ${p}`);
  for (const p of r.problems) lines.push(`  PROBLEM: ${p}`);
  return lines.join('\n');
}
