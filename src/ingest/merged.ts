// data/merged.json: the published slugs merged into another record (src/ingest/merge.ts `sameGame`),
// read before a run (they stay merged, and their slugs are never given again) and written after it
// with the merges of the run added; data:freeze gives each a tombstone naming the slug it went into.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { toDataJson } from '../lib/write.ts';
import { MERGED_FILE, type MergedEntry, MergedFileSchema } from '../schemas/merged.ts';
import type { MergedAway } from './merge.ts';

/** The merges recorded in `<dataDir>/merged.json` (none when the file is absent); throws naming every problem. */
export async function readMerged(dataDir: string): Promise<MergedEntry[]> {
  const file = path.join(dataDir, MERGED_FILE);
  if (!existsSync(file)) return [];
  const parsed = MergedFileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data.games;
}

/** The recorded merges and those of this run, by slug (a slug merged before keeps its first entry). */
export function mergedEntries(before: readonly MergedEntry[], now: readonly MergedAway[]): MergedEntry[] {
  const out = new Map(before.map((e) => [e.slug, e]));
  for (const m of now) {
    if (out.has(m.slug)) continue;
    out.set(m.slug, {
      provider: m.provider,
      name: m.name,
      slug: m.slug,
      merged_into: m.mergedInto,
      into_provider: m.intoProvider,
      reason: m.reason,
      sources: m.facts.map((f) => ({ file: f.file, line: f.line, stated_rtp: f.stated_rtp })),
    });
  }
  return [...out.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

/** The merged file's text. */
export function mergedFile(entries: readonly MergedEntry[]): string {
  return toDataJson(MergedFileSchema.parse({ format: 1, games: entries }));
}
