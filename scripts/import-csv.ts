// npm run data:import -- <seed-games.csv> [--providers <providers.csv>] [--out <dir>]
// Converts the hand-checked seed CSVs into the registry folder (games/<provider>/<slug>.json, providers/<key>.json).
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type CsvRow, convertRows, parseCsv } from '../src/ingest/seed-import.ts';
import { toDataJson, writeFileAtomic } from '../src/lib/write.ts';
import { loadRegistry, REGISTRY_FILE } from '../src/registry/load.ts';
import { formatProblems } from '../src/registry/problems.ts';
import { RegistryFileSchema } from '../src/schemas/authoring.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { providers: { type: 'string' }, out: { type: 'string', default: 'data' } },
});
const gamesCsv = positionals[0];
if (!gamesCsv) {
  console.error('usage: npm run data:import -- <seed-games.csv> [--providers <providers.csv>] [--out <dir>]');
  process.exit(2);
}
const providersCsv = values.providers ?? path.join(path.dirname(gamesCsv), 'providers.csv');
const out = path.resolve(values.out);

const readCsv = async (file: string): Promise<CsvRow[]> => parseCsv(await readFile(file, 'utf8'));

const result = convertRows(await readCsv(gamesCsv), await readCsv(providersCsv));
if (result.problems.length > 0) {
  console.error(`data:import: ${result.problems.length} problem(s), nothing written:\n${formatProblems(result.problems)}`);
  process.exit(1);
}

// Replace games/ and providers/ wholesale: the CSV is the whole registry.
await rm(path.join(out, 'games'), { recursive: true, force: true });
await rm(path.join(out, 'providers'), { recursive: true, force: true });
for (const p of result.providers) await writeFileAtomic(path.join(out, 'providers', `${p.provider}.json`), toDataJson(p));
for (const g of result.games) await writeFileAtomic(path.join(out, 'games', g.provider, `${g.canonical_slug}.json`), toDataJson(g));
if (!existsSync(path.join(out, REGISTRY_FILE))) {
  await writeFileAtomic(path.join(out, REGISTRY_FILE), toDataJson(RegistryFileSchema.parse(result.registry)));
}

const check = await loadRegistry(out);
if (!check.ok) {
  console.error(`data:import: the written folder does not validate:\n${formatProblems(check.problems)}`);
  process.exit(1);
}
console.log(`data:import: ${result.games.length} games from ${result.providers.length} providers written to ${path.relative(process.cwd(), out) || '.'}`);
