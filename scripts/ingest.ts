// npm run data:ingest [-- --data <dir>]: rebuilds the games and providers of a data folder (default
// RTP_DATA_DIR or data/) from its pinned sources (data/sources, src/ingest). Deterministic: the same
// sources give byte-identical files. Every file is built and validated in memory first; then the
// new games folder replaces the old one in one rename, so a failure leaves the data as it was.
// Published slugs are kept; a published game the sources no longer hold stops the run, unless it is
// held back (sources of one rank conflict) or merged into the record of the same game (a studio's and
// its distributor's): then it leaves, and data/held-back.json or data/merged.json names the reason
// its tombstone will carry (npm run data:freeze).
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import fg from 'fast-glob';
import { heldBackFile } from '../src/ingest/held-back.ts';
import { ingestSources } from '../src/ingest/ingest.ts';
import { mergedFile } from '../src/ingest/merged.ts';
import { gameFileOf, providerFiles } from '../src/ingest/records.ts';
import { toDataJson } from '../src/lib/write.ts';
import { dataDir } from '../src/registry/load.ts';
import { GameFileSchema, type ProviderFile, ProviderFileSchema } from '../src/schemas/authoring.ts';
import { HELD_BACK_FILE } from '../src/schemas/held-back.ts';
import { MERGED_FILE } from '../src/schemas/merged.ts';

const { values } = parseArgs({ options: { data: { type: 'string' } } });
const dir = path.resolve(values.data ?? dataDir());

// Published games, read as they are (older files may predate today's schema).
const publishedGames = await Promise.all(
  (await fg('games/*/*.json', { cwd: dir })).map(
    async (rel) => JSON.parse(await readFile(path.join(dir, rel), 'utf8')) as { canonical_slug: string; canonical_name: string; provider: string },
  ),
);

const result = await ingestSources(dir, publishedGames);
const pinnedAt = new Map(result.perSource.map((s) => [`sources/${s.file}`, s.pinned_at]));
const problems: string[] = [];
const files = new Map<string, string>();
for (const game of result.games) {
  const parsed = GameFileSchema.safeParse(gameFileOf(game, pinnedAt, result.titles, (p) => result.table.row(p)?.display ?? p));
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      problems.push(`${game.winner.file}:${game.winner.line}: ${game.provider}/${game.slug}: ${issue.path.join('.')}: ${issue.message}`);
    continue;
  }
  files.set(`games/${game.provider}/${game.slug}.json`, toDataJson(parsed.data));
}
const kept = new Set(result.games.map((g) => g.slug));
const heldBack = new Set(result.excluded.flatMap((x) => [...(x.slug === null ? [] : [x.slug]), ...x.alsoPublishedAs]));
const merged = new Set(result.merged.map((m) => m.slug));
for (const { canonical_slug: slug } of publishedGames) {
  if (!kept.has(slug) && !heldBack.has(slug) && !merged.has(slug))
    problems.push(`published game ${slug} is in no source any more (a removal needs a data_version bump and a look at why)`);
}
files.set(HELD_BACK_FILE, heldBackFile(result.excluded));
files.set(MERGED_FILE, mergedFile(result.merged));

// Existing provider files, read as they are (older ones may predate the group and aliases fields).
const existingProviders = new Map<string, ProviderFile>();
for (const rel of await fg('providers/*.json', { cwd: dir })) {
  const p = JSON.parse(await readFile(path.join(dir, rel), 'utf8')) as ProviderFile;
  existingProviders.set(p.provider, p);
}
for (const p of providerFiles(result.games, existingProviders, result.table)) {
  const parsed = ProviderFileSchema.safeParse(p);
  if (!parsed.success) problems.push(`providers/${p.provider}.json: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  else files.set(`providers/${p.provider}.json`, toDataJson(parsed.data));
}

if (problems.length > 0) {
  console.error(`data:ingest: nothing written: ${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}

// Write the new games folder beside the old one, then swap them.
const staging = path.join(dir, `.ingest-${process.pid}`);
await rm(staging, { recursive: true, force: true });
for (const [rel, text] of files) {
  const target = rel.startsWith('games/') ? path.join(staging, rel) : path.join(dir, rel);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, text);
}
const old = path.join(dir, `.games-old-${process.pid}`);
if (existsSync(path.join(dir, 'games'))) await rename(path.join(dir, 'games'), old);
await rename(path.join(staging, 'games'), path.join(dir, 'games'));
await rm(old, { recursive: true, force: true });
await rm(staging, { recursive: true, force: true });

const providers = new Set(result.games.map((g) => g.provider));
console.log(`data:ingest: ${result.games.length} games from ${providers.size} providers written to ${path.join(dir, 'games')}`);
for (const s of result.perSource) console.log(`  sources/${s.file} (${s.format}): ${s.facts} line(s) read, ${s.unmapped} not mapped`);
console.log(
  `  left out: ${result.excluded.length} game(s) (${heldBack.size} of them published before); merged into another record: ${merged.size} slug(s); not mapped: ${result.unmapped.length} line(s); sources disagree on ${result.games.filter((g) => g.disagree).length} game(s) (npm run data:report lists them)`,
);
