// One benchmark run as data: the zod schema of bench/results/<date>-<commit>.json, the machine it
// ran on, and reading and writing those files. BENCHMARKS.md is rendered from them (render.ts);
// nothing reads Markdown back.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../src/lib/write.ts';

/** Median, extremes and sample count of a set of measurements. */
const Summary = z.strictObject({ median: z.number(), min: z.number(), max: z.number(), n: z.int() });

const BuildRow = z.strictObject({
  label: z.string(),
  games: z.int(),
  files: z.int(),
  bytes: z.int(),
  buildS: Summary,
  baselineS: Summary,
  ratio: Summary,
  peakRssMiB: Summary.optional(),
  error: z.string().optional(),
});

const MemoryRow = z.strictObject({
  label: z.string(),
  games: z.int(),
  readyMs: Summary,
  rssMiB: Summary,
  coldReadyMs: z.number().optional(),
  /** The uncached stream on this registry (the scale curve): throughput, server CPU per request, p99, and RSS after it. */
  uncached: z.strictObject({ reqPerSec: Summary, cpuUsPerRequest: Summary, p99Ms: Summary, rssAfterMiB: z.number() }).optional(),
  error: z.string().optional(),
});

const Scenario = z.strictObject({
  id: z.string(),
  title: z.string(),
  server: z.enum(['server', 'ceiling', 'peer']),
  what: z.string(),
  reqPerSec: Summary,
  /** CPU time (user + system) of the answering process per response, µs. */
  cpuUsPerRequest: Summary.optional(),
  p50Ms: Summary,
  p99Ms: Summary,
  requests: z.int(),
  non2xx: z.int(),
  errors: z.int(),
});

const BenchResultSchema = z.strictObject({
  format: z.literal(1),
  env: z.strictObject({
    cpu: z.string(),
    cores: z.int(),
    memoryGiB: z.number(),
    node: z.string(),
    platform: z.string(),
    date: z.string(),
    /** The bench's own commit; `code` is the commit of the code measured (--root), when another. */
    commit: z.string(),
    code: z.string(),
  }),
  mode: z.enum(['full', 'partial', 'quick']),
  elapsedS: z.number(),
  settings: z.record(z.string(), z.string()),
  data: z.array(z.strictObject({ label: z.string(), games: z.int(), origin: z.string() })),
  build: z.strictObject({ rows: z.array(BuildRow), notes: z.array(z.string()) }).optional(),
  memory: z.strictObject({ rows: z.array(MemoryRow), notes: z.array(z.string()) }).optional(),
  list: z
    .strictObject({
      games: z.int(),
      scenarios: z.array(Scenario),
      ratios: z.array(z.strictObject({ id: z.string(), label: z.string(), ratio: Summary })),
      /** Bytes per answer and per item (payload.ts); absent in runs before it was measured. */
      payload: z
        .strictObject({
          defaultPage: z.strictObject({ answerBytes: z.int(), itemBytes: z.int(), items: z.int() }),
          mixAnswerBytes: Summary,
          mixItemBytes: Summary,
        })
        .optional(),
      serverRssAfterMiB: z.number().optional(),
      notes: z.array(z.string()),
    })
    .optional(),
  /** The search phase of runs before it was dropped: kept in their files, read by nothing. */
  search: z.unknown().optional(),
  problems: z.array(z.string()),
});
export type BenchResult = z.output<typeof BenchResultSchema>;
/** What one phase adds to a result. */
export type PhaseResult<K extends 'build' | 'memory' | 'list'> = NonNullable<BenchResult[K]>;
export type BuildRow = z.output<typeof BuildRow>;
export type Summary = z.output<typeof Summary>;
export type MemoryRow = z.output<typeof MemoryRow>;
export type ScenarioRow = z.output<typeof Scenario>;

/** Short commit hash of `cwd`, with "+dirty" when its tracked files have changes; "unknown" outside git. */
function gitCommit(cwd: string): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8', timeout: 10_000 }).trim();
    // The bench's own outputs (the previous run's report and results) do not make the code dirty.
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!BENCHMARKS.md', ':!bench/results'], {
      cwd,
      encoding: 'utf8',
      timeout: 30_000,
    });
    return status.trim().length > 0 ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}

/** The machine, Node, date and commits (the bench's in `root`, the measured code's in `codeRoot`). */
export function environment(root: string, codeRoot: string, now = new Date()): BenchResult['env'] {
  const commit = gitCommit(root);
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    date: now.toISOString(),
    commit,
    code: path.resolve(codeRoot) === path.resolve(root) ? commit : gitCommit(codeRoot),
  };
}

/** The results folder of the repository at `root`. */
export const resultsDir = (root: string) => path.join(root, 'bench', 'results');

/** `<date>-<code commit>[-<mode>].json`: one file per run, sorting by date. */
export function resultFileName(r: BenchResult): string {
  const stamp = r.env.date.slice(0, 19).replace(/[:T]/g, '-');
  return `${stamp}-${r.env.code.replace(/[^a-z0-9]+/gi, '-')}${r.mode === 'full' ? '' : `-${r.mode}`}.json`;
}

/** Writes a result (validated at once: a bad one throws before anything is written) into `dir`; resolves to its path. */
export function writeResult(dir: string, r: BenchResult): Promise<string> {
  const file = path.join(dir, resultFileName(BenchResultSchema.parse(r)));
  // Written beside it and renamed: a failed write (a full disk) leaves no half-written result.
  return writeFileAtomic(file, `${JSON.stringify(r, null, 2)}\n`).then(() => file);
}

/** Every result file in `dir`, validated, oldest first; throws naming the file that is not JSON or does not match the schema. */
export function readResults(dir: string): Array<{ file: string; result: BenchResult }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = path.join(dir, name);
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        throw new Error(`${file}: not JSON (${(err as Error).message}): delete it, or run the bench again`);
      }
      const parsed = BenchResultSchema.safeParse(json);
      if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`);
      return { file: name, result: parsed.data };
    });
}
