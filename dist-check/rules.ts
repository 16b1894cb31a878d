// Pure rules of dist-check: each compares what a built dist holds with what the data says it must hold.

import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { z } from 'zod';
import type { DumpFile } from '../src/emit/dumps.ts';
import type { EmitFamily, OutputFile } from '../src/emit/emit.ts';
import { HEADER_RULES, HEADERS_FILE, parseHeadersFile, staticHeaders } from '../src/emit/headers.ts';
import { dumpFiles } from '../src/routes/paths.ts';
import { DataPackageSchema, RegistryDumpSchema, ReleaseChangesSchema, RemovedResponseSchema } from '../src/schemas/dump.ts';
import { OperatorRecordSchema } from '../src/schemas/operator.ts';
import { ProviderRecordSchema } from '../src/schemas/provider.ts';
import { SlotRecordSchema } from '../src/schemas/slot.ts';
import { WidgetDataSchema } from '../src/schemas/widget.ts';

/** One problem in a dist: the file (relative to the out dir) and what is wrong with it. */
export interface DistProblem {
  file: string;
  problem: string;
}

/** The widget page budget: at most 6 KB gzip (issue 3). */
export const WIDGET_GZIP_BUDGET = 6 * 1024;

const SCHEMAS: Record<Exclude<EmitFamily, 'widget' | 'badge' | 'game_feed' | 'provider_feed' | 'operator_feed'>, z.ZodType> = {
  slot: SlotRecordSchema,
  widget_data: WidgetDataSchema,
  provider: ProviderRecordSchema,
  operator: OperatorRecordSchema,
};

/** Gzip size of a text (default level, as CDNs commonly compress). */
export function gzipSize(text: string): number {
  return gzipSync(text).length;
}

/**
 * Checks one emitted file against what the build would write now: present, (JSON) parses and
 * matches its public schema, byte-identical (else stale), widget within its gzip budget.
 * `file` in problems is prefixed with `prefix` (e.g. `client/`).
 */
export function checkFile(expected: OutputFile, actual: string | undefined, prefix = 'client/'): DistProblem[] {
  const file = prefix + expected.file;
  if (actual === undefined) return [{ file, problem: 'is missing' }];
  const out: DistProblem[] = [];
  if (expected.family === 'badge') {
    if (!actual.startsWith('<svg ') || !actual.includes('<title>')) out.push({ file, problem: 'is not an SVG badge with a title' });
  } else if (expected.family === 'game_feed' || expected.family === 'provider_feed' || expected.family === 'operator_feed') {
    if (!actual.startsWith('<?xml') || !actual.includes('<feed xmlns="http://www.w3.org/2005/Atom">')) out.push({ file, problem: 'is not an Atom feed' });
  } else if (expected.family !== 'widget') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(actual);
    } catch (err) {
      return [{ file, problem: `is not valid JSON (${(err as Error).message})` }];
    }
    const result = SCHEMAS[expected.family].safeParse(parsed);
    if (!result.success) {
      for (const i of result.error.issues)
        out.push({ file, problem: `does not match its schema at ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}` });
    }
  } else {
    const size = gzipSize(actual);
    if (size > WIDGET_GZIP_BUDGET) out.push({ file, problem: `is ${size} bytes gzip, over the ${WIDGET_GZIP_BUDGET}-byte widget budget` });
  }
  if (actual !== expected.text) out.push({ file, problem: 'is stale: its content differs from what the data produces now' });
  return out;
}

/** The JSON schema of each JSON dump file, by its path under dist/client. */
function dumpSchema(file: string): z.ZodType | null {
  if (file === dumpFiles.json) return RegistryDumpSchema;
  if (file === dumpFiles.dataPackage) return DataPackageSchema;
  if (file === dumpFiles.removed) return RemovedResponseSchema;
  if (file.startsWith(path.posix.dirname(dumpFiles.changes('0.0.0')))) return ReleaseChangesSchema;
  return null;
}

/** Checks one dump file: present, byte-identical to what the data produces now, and (JSON) matching its public schema. */
export function checkDump(expected: DumpFile, actual: Buffer | undefined, prefix = 'client/'): DistProblem[] {
  const file = prefix + expected.file;
  if (actual === undefined) return [{ file, problem: 'is missing' }];
  const out: DistProblem[] = [];
  const schema = dumpSchema(expected.file);
  if (schema !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(actual.toString('utf8'));
    } catch (err) {
      return [{ file, problem: `is not valid JSON (${(err as Error).message})` }];
    }
    const result = schema.safeParse(parsed);
    if (!result.success)
      for (const i of result.error.issues)
        out.push({ file, problem: `does not match its schema at ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}` });
  }
  if (!actual.equals(expected.bytes)) out.push({ file, problem: 'is stale: its content differs from what the data produces now' });
  return out;
}

/** Files present in a family's directory that the data does not produce (e.g. a removed slug). */
export function strayFiles(expected: ReadonlySet<string>, present: readonly string[], prefix = 'client/'): DistProblem[] {
  return present
    .filter((f) => !expected.has(f))
    .sort()
    .map((f) => ({ file: prefix + f, problem: 'is stray: the data has no game or provider for it' }));
}

/** The header file must exist and carry, for every static family's pattern, every header with its exact value. */
export function checkHeadersFile(text: string | undefined, prefix = 'client/'): DistProblem[] {
  const file = prefix + HEADERS_FILE;
  if (text === undefined) return [{ file, problem: 'is missing' }];
  const rules = parseHeadersFile(text);
  const out: DistProblem[] = [];
  for (const rule of HEADER_RULES) {
    const headers = rules.get(rule.pattern);
    if (headers === undefined) {
      out.push({ file, problem: `has no rule for ${rule.pattern}` });
      continue;
    }
    for (const [name, value] of staticHeaders(rule.family, rule.contentType)) {
      const got = headers.get(name.toLowerCase());
      if (got !== value) out.push({ file, problem: `rule ${rule.pattern}: ${name} is ${got === undefined ? 'missing' : `"${got}"`}, expected "${value}"` });
    }
  }
  return out;
}

/** Counts of the emitted files per family (families whose folder is missing are left out) against the data's counts. */
export function checkCounts(
  counts: ReadonlyMap<EmitFamily, number>,
  games: number,
  providers: number,
  dirs: Record<EmitFamily, string>,
  prefix = 'client/',
  operators = 0,
): DistProblem[] {
  const want: Record<EmitFamily, number> = {
    slot: games,
    widget_data: games,
    widget: games,
    badge: games,
    game_feed: games,
    provider: providers,
    provider_feed: providers,
    operator: operators,
    operator_feed: operators,
  };
  const out: DistProblem[] = [];
  for (const [family, count] of counts) {
    if (count !== want[family])
      out.push({
        file: `${prefix}${dirs[family]}/`,
        problem: `holds ${count} files, the data has ${want[family]} ${family === 'provider' || family === 'provider_feed' ? 'providers' : family === 'operator' || family === 'operator_feed' ? 'operators' : 'games'}`,
      });
  }
  return out;
}

/** Formats problems one per line with the fix command. */
export function formatDistProblems(problems: readonly DistProblem[], fix: string): string {
  return problems.map((p) => `${p.file}: ${p.problem} (fix: ${fix})`).join('\n');
}
