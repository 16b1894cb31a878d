// Reads the pinned sources of a data folder (data/sources/sources.json lists each file with its
// line format), runs each through its adapter in the listed order, and merges the facts into
// candidate games (src/ingest/merge.ts). Pure reading: writing data/ is scripts/ingest.ts's job.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { TimestampSchema } from '../schemas/authoring.ts';
import { catalogueAdapter } from './adapters/catalogue.ts';
import { igtSlotsAdapter } from './adapters/igt-slots.ts';
import { seedCsvAdapter } from './adapters/seed-csv.ts';
import { mergeFacts, type Excluded, type MergedGame } from './merge.ts';
import type { SourceAdapter, SourceFact, Unmapped } from './source.ts';

/** Every line format the ingest can read, by name. */
export const ADAPTERS: Readonly<Record<string, SourceAdapter>> = Object.fromEntries([seedCsvAdapter, igtSlotsAdapter, catalogueAdapter].map((a) => [a.format, a]));

export const SourcesManifestSchema = z.strictObject({
  format: z.literal(1),
  sources: z
    .array(
      z.strictObject({
        file: z.string().regex(/^[\w.-]+$/, 'must be a file name in data/sources'),
        format: z.string(),
        /** When the file was pinned here: the date its lines were last read against their origin. */
        pinned_at: TimestampSchema,
      }),
    )
    .min(1),
});

export interface IngestResult {
  facts: SourceFact[];
  unmapped: Unmapped[];
  games: MergedGame[];
  excluded: Excluded[];
  /** Facts per source file, in manifest order. */
  perSource: Array<{ file: string; format: string; pinned_at: string; facts: number; unmapped: number }>;
}

/** Reads `<dataDir>/sources`; throws naming the problem when the manifest or a format is unknown. */
export async function ingestSources(dataDir: string, publishedSlugs: ReadonlyMap<string, string> = new Map()): Promise<IngestResult> {
  const dir = path.join(dataDir, 'sources');
  const manifestFile = path.join(dir, 'sources.json');
  const parsed = SourcesManifestSchema.safeParse(JSON.parse(await readFile(manifestFile, 'utf8')));
  if (!parsed.success) throw new Error(`${manifestFile}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const facts: SourceFact[] = [];
  const unmapped: Unmapped[] = [];
  const perSource: IngestResult['perSource'] = [];
  for (const { file, format, pinned_at } of parsed.data.sources) {
    const adapter = ADAPTERS[format];
    if (adapter === undefined) throw new Error(`${manifestFile}: ${file}: no adapter reads the format ${JSON.stringify(format)} (known: ${Object.keys(ADAPTERS).join(', ')})`);
    const result = adapter.read(await readFile(path.join(dir, file), 'utf8'), `sources/${file}`);
    facts.push(...result.facts);
    unmapped.push(...result.unmapped);
    perSource.push({ file, format, pinned_at, facts: result.facts.length, unmapped: result.unmapped.length });
  }
  const { games, excluded } = mergeFacts(facts, publishedSlugs);
  return { facts, unmapped, games, excluded, perSource };
}
