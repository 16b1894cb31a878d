// Reads the pinned sources of a data folder (data/sources/sources.json lists each file with its
// line format), runs each through its adapter in the listed order, gives each fact its provider key
// from the alias table (data/provider-aliases.json), and merges the facts into candidate games
// (src/ingest/merge.ts). Pure reading: writing data/ is scripts/ingest.ts's job.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { TimestampSchema } from '../schemas/authoring.ts';
import { HELD_BACK_FILE, HeldBackFileSchema } from '../schemas/held-back.ts';
import type { MergedEntry } from '../schemas/merged.ts';
import { catalogueAdapter } from './adapters/catalogue.ts';
import { igtSlotsAdapter } from './adapters/igt-slots.ts';
import { operatorAdapter } from './adapters/operator.ts';
import { seedCsvAdapter } from './adapters/seed-csv.ts';
import { slotcatalogAdapter } from './adapters/slotcatalog.ts';
import { cleanName, gameTypeOf } from './clean.ts';
import { type Excluded, type MergedGame, mergeFacts, type ScopeOf } from './merge.ts';
import { mergedEntries, readMerged } from './merged.ts';
import { movesAsMerges, slugMoves } from './moves.ts';
import { nameKey, withoutProviderSuffix } from './normalise.ts';
import { type PlaceholderStudio, placeholderNote, placeholderStudios } from './placeholders.ts';
import { type ProviderTable, readProviderTable } from './providers.ts';
import type { SourceAdapter, SourceFact, Unmapped } from './source.ts';

/** Every line format the ingest can read, by name. */
export const ADAPTERS: Readonly<Record<string, SourceAdapter>> = Object.fromEntries(
  [seedCsvAdapter, igtSlotsAdapter, catalogueAdapter, slotcatalogAdapter, operatorAdapter].map((a) => [a.format, a]),
);

export const SourcesManifestSchema = z.strictObject({
  format: z.literal(1),
  sources: z
    .array(
      z.strictObject({
        file: z.string().regex(/^[\w.-]+$/, 'must be a file name in data/sources'),
        format: z.string(),
        /** What the file is, as a reader knows it (shown in a source's \`via\`). */
        title: z.string().trim().min(1),
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
  /** Every published slug merged into another record: those recorded in data/merged.json, and this run's. */
  merged: MergedEntry[];
  /** Facts per source file, in manifest order. */
  perSource: Array<{ file: string; format: string; title: string; pinned_at: string; facts: number; unmapped: number }>;
  /** Every provider label the sources write, where it went, and on how many lines of each file. */
  labels: Array<{ label: string; to: string; lines: Record<string, number> }>;
  table: ProviderTable;
  /** Where names are matched: the provider's group, else the provider. */
  scopeOf: ScopeOf;
  /** Each source file (`sources/<file>`) with its title. */
  titles: Map<string, string>;
  /** Studios whose games share one figure from one origin (src/ingest/placeholders.ts). */
  placeholders: Map<string, PlaceholderStudio>;
}

/**
 * Gives each fact its provider key from the alias table; a fact of the hand-checked seed keeps its
 * own key (the registry's). Lines whose label the table refuses or lacks are not mapped.
 */
function resolveProviders(facts: SourceFact[], table: ProviderTable, unmapped: Unmapped[], labels: IngestResult['labels']): SourceFact[] {
  const seen = new Map<string, IngestResult['labels'][number]>();
  const out: SourceFact[] = [];
  for (const f of facts) {
    const found = f.tier === 'hand_checked' ? { provider: f.provider, group: table.groupOf(f.provider) } : table.resolve(f.providerName);
    const to =
      found === undefined ? 'not in the alias table: line not mapped' : 'refused' in found ? `refused (${found.refused}): line not mapped` : found.provider;
    let entry = seen.get(f.providerName);
    if (entry === undefined) {
      entry = { label: f.providerName, to, lines: {} };
      seen.set(f.providerName, entry);
    }
    entry.lines[f.file] = (entry.lines[f.file] ?? 0) + 1;
    if (found === undefined || 'refused' in found) {
      unmapped.push({
        file: f.file,
        line: f.line,
        name: f.name,
        reason: `provider label ${JSON.stringify(f.providerName)} ${found === undefined ? 'is not in data/provider-aliases.json' : `is refused: ${found.refused}`}`,
      });
      continue;
    }
    const row = table.row(found.provider);
    const labels = row === undefined ? [f.providerName] : [...row.labels, row.display];
    const clean = cleanName(withoutProviderSuffix(f.name, labels), labels);
    out.push({
      ...f,
      provider: found.provider,
      name: clean.name,
      ...(clean.name === f.name ? {} : { nameAsWritten: f.name }),
      ...(clean.build === null ? {} : { build: clean.build }),
      game_type: gameTypeOf(clean.name, f.game_type, f.stated_rtp),
    });
  }
  labels.push(...[...seen.values()].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)));
  return out;
}

/**
 * An operator's studio file may hold a hub's partner studios (the alias table's `partners`): a line
 * of it whose name no other source gives its own provider, and that another source gives one of the
 * partners (the first in the table's order), is that partner's game. Other lines stay the file's own.
 */
export function assignPartners(facts: readonly SourceFact[], table: ProviderTable, scopeOf: ScopeOf): SourceFact[] {
  const known = new Set(facts.filter((f) => f.tier !== 'operator').map((f) => `${scopeOf(f.provider)}/${nameKey(f.name)}`));
  return facts.map((f) => {
    if (f.tier !== 'operator') return f;
    const key = nameKey(f.name);
    if (known.has(`${scopeOf(f.provider)}/${key}`)) return f;
    const partner = table.partnersOf(f.provider).find((p) => known.has(`${scopeOf(p)}/${key}`));
    return partner === undefined ? f : { ...f, provider: partner };
  });
}

/**
 * Reads `<dataDir>/sources`; throws naming the problem when the manifest or a format is unknown.
 * `published`: the games published so far, whose slugs are kept (and those data/held-back.json names);
 * the slugs data/merged.json names stay merged and are never given again.
 */
export async function ingestSources(
  dataDir: string,
  published: Iterable<{ provider: string; canonical_name: string; canonical_slug: string }> = [],
): Promise<IngestResult> {
  const dir = path.join(dataDir, 'sources');
  // Games held back earlier keep the slug they were published under (a slug is never reused for another game).
  const held = existsSync(path.join(dataDir, HELD_BACK_FILE))
    ? HeldBackFileSchema.parse(JSON.parse(await readFile(path.join(dataDir, HELD_BACK_FILE), 'utf8'))).games
    : [];
  const heldSlugs = held.flatMap((g) =>
    [g.slug, ...g.also_published_as].flatMap((slug) => (slug === null ? [] : [{ provider: g.provider, canonical_name: g.name, canonical_slug: slug }])),
  );
  const mergedBefore = await readMerged(dataDir);
  const manifestFile = path.join(dir, 'sources.json');
  const parsed = SourcesManifestSchema.safeParse(JSON.parse(await readFile(manifestFile, 'utf8')));
  if (!parsed.success) throw new Error(`${manifestFile}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const facts: SourceFact[] = [];
  const unmapped: Unmapped[] = [];
  const perSource: IngestResult['perSource'] = [];
  const table = await readProviderTable(dataDir);
  const titles = new Map<string, string>();
  for (const { file, format, title, pinned_at } of parsed.data.sources) {
    const adapter = ADAPTERS[format];
    if (adapter === undefined)
      throw new Error(`${manifestFile}: ${file}: no adapter reads the format ${JSON.stringify(format)} (known: ${Object.keys(ADAPTERS).join(', ')})`);
    const result = adapter.read(await readFile(path.join(dir, file), 'utf8'), `sources/${file}`);
    titles.set(`sources/${file}`, title);
    facts.push(...result.facts);
    unmapped.push(...result.unmapped);
    perSource.push({ file, format, title, pinned_at, facts: result.facts.length, unmapped: result.unmapped.length });
  }
  const labels: IngestResult['labels'] = [];
  const before = unmapped.length;
  const scopeOf: ScopeOf = (p) => table.groupOf(p) ?? p;
  const resolved = assignPartners(resolveProviders(facts, table, unmapped, labels), table, scopeOf);
  // Lines refused for their label count as not mapped in their file.
  for (const u of unmapped.slice(before)) {
    const s = perSource.find((p) => `sources/${p.file}` === u.file)!;
    s.facts--;
    s.unmapped++;
  }
  const reserved = mergedBefore.map((m) => m.slug);
  const { slugs, moves } = slugMoves([...published, ...heldSlugs], table, scopeOf, reserved, new Set(heldSlugs.map((h) => h.canonical_slug)));
  const run = mergeFacts(resolved, slugs, scopeOf, table.distributorOf, reserved);
  const { games, excluded } = run;
  // A slug moving into a held-back game is held back with it: one game, listed once.
  for (const m of moves) {
    const held = excluded.find((x) => x.slug === m.into);
    if (held !== undefined) held.alsoPublishedAs = [...held.alsoPublishedAs, m.slug].sort();
  }
  const merged = mergedEntries(mergedBefore, [...run.merged, ...movesAsMerges(moves, games)]);
  const placeholders = placeholderStudios(games);
  for (const g of games) {
    const note = placeholderNote(g, placeholders);
    if (note !== '') g.note = [g.note, note].filter((n) => n !== '').join(' ');
  }
  return { facts: resolved, unmapped, games, excluded, merged, perSource, labels, table, scopeOf, titles, placeholders };
}
