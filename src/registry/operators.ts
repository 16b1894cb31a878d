// Operators (data/operators/<key>.json) and the builds their pinned catalogue lines show per game.
import path from 'node:path';
import fg from 'fast-glob';
import { type GameFile, type OperatorFile, OperatorFileSchema } from '../schemas/authoring.ts';
import type { OperatorBuild, OperatorBuildKind } from '../schemas/game-record.ts';
import { FAILED, type Problem, parseJson, readText, zodProblems } from './problems.ts';

export const OPERATORS_GLOB = 'operators/*.json';

/** Where a cited operator line points in its catalogue: the file and array index the line names. */
export interface CatalogueEntry {
  file: string;
  index: number;
}

/** What deriving a record's `operators` needs: each operator by the source file it is read from, and the lines' catalogue entries. */
export interface OperatorIndex {
  bySource: ReadonlyMap<string, { operator: OperatorFile; pinned_at: string }>;
  /** The catalogue entry of `sources/<file>` line `line` (1-based); absent where the folder holds no sources/. */
  entries: ReadonlyMap<string, CatalogueEntry>;
}

/** An index with no operators (fixtures, and registries without data/operators/). */
export const NO_OPERATORS: OperatorIndex = { bySource: new Map(), entries: new Map() };

const entryKey = (file: string, line: number) => `${file}:${line}`;

/** Makes the index from the operator files and the catalogue entries of the lines games cite. */
export function operatorIndex(operators: readonly OperatorFile[], entries: ReadonlyMap<string, CatalogueEntry> = new Map()): OperatorIndex {
  const bySource = new Map<string, { operator: OperatorFile; pinned_at: string }>();
  for (const operator of operators) for (const s of operator.sources) bySource.set(s.file, { operator, pinned_at: s.pinned_at });
  return { bySource, entries };
}

/**
 * Why the stated RTP stays below a higher build: the sentence of the record's notes that says so,
 * else the record's variant at that figure (an ante bet, a bonus buy: not the default build), else
 * the notes, else null.
 */
export function higherReason(notes: string, variant?: { rtp: number; kind: string }, stated?: number): string | null {
  const sentence = notes.split(/(?<=\.)\s+/).find((s) => /stated RTP stays/i.test(s));
  if (sentence !== undefined) return sentence;
  if (variant !== undefined && variant.kind !== 'standard')
    return `The record lists ${variant.rtp} as a build of kind ${variant.kind}; the stated RTP ${stated ?? ''} stays the default build.`.replace(
      ' RTP  stays',
      ' RTP stays',
    );
  return notes.trim() === '' ? null : notes.trim();
}

/** A game's operator builds, in its sources' order: each operator line's figure set against the stated RTP and variants. */
export function operatorBuilds(game: GameFile, index: OperatorIndex): OperatorBuild[] {
  const out: OperatorBuild[] = [];
  for (const s of game.sources) {
    const known = index.bySource.get(s.file);
    if (s.kind !== 'operator' || known === undefined) continue;
    const rtp = s.stated_rtp;
    const build: OperatorBuildKind = rtp === game.stated_rtp ? 'top' : rtp < game.stated_rtp ? 'lower' : 'higher';
    const variant = build === 'top' ? undefined : game.rtp_variants.find((v) => v.rtp === rtp);
    const entry = index.entries.get(entryKey(s.file, s.line));
    out.push({
      operator: known.operator.operator,
      display: known.operator.display,
      market: known.operator.market,
      rtp,
      build,
      variant: variant === undefined ? null : { rtp: variant.rtp, kind: variant.kind },
      reason: build === 'higher' ? higherReason(game.notes, variant, game.stated_rtp) : null,
      source: { file: s.file, line: s.line, catalogue_file: entry?.file ?? null, index: entry?.index ?? null, url: s.url, pinned_at: known.pinned_at },
    });
  }
  return out;
}

/** Each pinned file's date by file name, from sources/sources.json (empty where there is none). */
function pinnedDates(dir: string): Map<string, string> {
  const text = readText(dir, 'sources/sources.json');
  if (typeof text !== 'string') return new Map();
  try {
    const list = (JSON.parse(text) as { sources?: Array<{ file?: unknown; pinned_at?: unknown }> }).sources ?? [];
    return new Map(list.filter((s) => typeof s.file === 'string' && typeof s.pinned_at === 'string').map((s) => [s.file as string, s.pinned_at as string]));
  } catch {
    return new Map(); // the ingest reports a broken sources.json
  }
}

/** Reads and validates data/operators/*.json (key matching the file name, source files unique across operators). */
export async function loadOperators(dir: string, problems: Problem[]): Promise<OperatorFile[]> {
  const files = (await fg(OPERATORS_GLOB, { cwd: dir })).sort();
  const out: OperatorFile[] = [];
  const pinnedAt = pinnedDates(dir);
  const owner = new Map<string, string>();
  for (const file of files) {
    const raw = parseJson(file, readText(dir, file), problems);
    if (raw === FAILED) continue;
    const parsed = OperatorFileSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(...zodProblems(file, parsed.error));
      continue;
    }
    const expected = path.posix.basename(file, '.json');
    if (parsed.data.operator !== expected) {
      problems.push({ file, field: 'operator', reason: `"${parsed.data.operator}" does not match the file name (expected "${expected}")` });
      continue;
    }
    let clash = false;
    // The date a source was pinned is the one sources/sources.json gives it, where the folder has one.
    parsed.data.sources.forEach((s, i) => {
      const pinned = pinnedAt.get(s.file.slice('sources/'.length));
      if (pinned !== undefined && pinned !== s.pinned_at)
        problems.push({ file, field: `sources.${i}.pinned_at`, reason: `"${s.pinned_at}" is not the date sources/sources.json gives ${s.file} ("${pinned}")` });
    });
    parsed.data.sources.forEach((s, i) => {
      const other = owner.get(s.file);
      if (other !== undefined) {
        problems.push({ file, field: `sources.${i}.file`, reason: `${s.file} is already the source of ${other}` });
        clash = true;
      } else owner.set(s.file, file);
    });
    if (!clash) out.push(parsed.data);
  }
  return out;
}

/**
 * The catalogue entry (`file`, `index`) each operator line cited by `games` names, read from the
 * pinned files under `dir`; a cited line that names none is a problem. `lineOf` gives a pinned line's text.
 */
export function catalogueEntries(
  games: readonly GameFile[],
  operators: readonly OperatorFile[],
  lineOf: (file: string, line: number) => string | undefined,
  problems: Problem[],
): Map<string, CatalogueEntry> {
  const files = new Set(operators.flatMap((o) => o.sources.map((s) => s.file)));
  const out = new Map<string, CatalogueEntry>();
  for (const game of games) {
    for (const s of game.sources) {
      if (s.kind !== 'operator' || !files.has(s.file)) continue;
      const text = lineOf(s.file, s.line);
      if (text === undefined) continue; // provenance reports a missing line
      let row: { file?: unknown; index?: unknown } = {};
      try {
        row = JSON.parse(text) as typeof row;
      } catch {
        // reported below as naming no entry
      }
      if (typeof row.file !== 'string' || !Number.isInteger(row.index)) {
        problems.push({ file: `${game.provider}/${game.canonical_slug}`, field: 'sources', reason: `${s.file}:${s.line} names no catalogue file and index` });
        continue;
      }
      out.set(entryKey(s.file, s.line), { file: row.file, index: row.index as number });
    }
  }
  return out;
}
