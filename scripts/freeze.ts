// npm run data:freeze -- (--version X.Y.Z | --bump patch|minor|major) [--at <ISO timestamp>]
// Stamps data_version and frozen_at in registry.json, writes frozen.json and appends RTP changes to history.jsonl (RTP_DATA_DIR or data/).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readMerged } from '../src/ingest/merged.ts';
import { toDataJson, writeFileAtomic } from '../src/lib/write.ts';
import { appendHistory, frozenJson, planFreeze } from '../src/registry/freeze.ts';
import { dataDir, FROZEN_FILE, HISTORY_FILE, loadRegistry, REGISTRY_FILE } from '../src/registry/load.ts';
import { formatProblems } from '../src/registry/problems.ts';
import { HELD_BACK_FILE, HeldBackFileSchema } from '../src/schemas/held-back.ts';
import { citationCff } from '../src/site/dataset.ts';
import { CITATION_FILE, CITED_DATA } from './citation.ts';

const USAGE = 'usage: npm run data:freeze -- (--version X.Y.Z | --bump patch|minor|major) [--at <ISO 8601 timestamp>]';

let values: { version?: string | undefined; bump?: string | undefined; at?: string | undefined };
try {
  ({ values } = parseArgs({ options: { version: { type: 'string' }, bump: { type: 'string' }, at: { type: 'string' } } }));
} catch (err) {
  console.error(`data:freeze: ${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}

const dir = dataDir();
const loaded = await loadRegistry(dir);
if (!loaded.ok) {
  console.error(
    `${formatProblems(loaded.problems)}\ndata:freeze: refused: ${loaded.problems.length} problem(s) in the data (run npm run data:check); nothing written`,
  );
  process.exit(1);
}

// Default time: now, to the second (data:freeze --at makes a freeze reproducible).
const at = values.at ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
// Games held back by the ingest leave with the reason data/held-back.json gives.
const reasons = new Map<string, string>();
try {
  const held = HeldBackFileSchema.parse(JSON.parse(await readFile(path.join(dir, HELD_BACK_FILE), 'utf8')));
  for (const g of held.games) for (const slug of [g.slug, ...g.also_published_as]) if (slug !== null) reasons.set(slug, `held back: ${g.reason}`);
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
}
// Games merged into another record leave naming it (data/merged.json).
const mergedInto = new Map<string, string>();
for (const m of await readMerged(dir)) {
  reasons.set(m.slug, `merged into ${m.merged_into}: the same game; ${m.reason}`);
  mergedInto.set(m.slug, m.merged_into);
}
const result = planFreeze(loaded.registry, { version: values.version, bump: values.bump, at, reasons, mergedInto });
if (!result.ok) {
  console.error(`data:freeze: refused: ${result.error}; nothing written\n${USAGE}`);
  process.exit(1);
}
const { meta, frozen, entries, counts, warnings } = result.plan;
for (const w of warnings) console.error(`data:freeze: note: ${w}`);

let existing = '';
try {
  existing = await readFile(path.join(dir, HISTORY_FILE), 'utf8');
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
}

// Order matters if the process dies midway: each earlier write leaves a state data:check rejects
// (history newer than registry.json, or frozen.json not matching it), never a silently wrong one.
await writeFileAtomic(path.join(dir, HISTORY_FILE), appendHistory(existing, entries));
await writeFileAtomic(path.join(dir, FROZEN_FILE), frozenJson(frozen));
await writeFileAtomic(path.join(dir, REGISTRY_FILE), toDataJson(meta));
// CITATION.cff names the repository's data version: renewed with it.
if (path.resolve(dir) === CITED_DATA) await writeFileAtomic(CITATION_FILE, citationCff(meta));

const previous = loaded.registry.meta.data_version;
console.log(
  `data:freeze: ${previous} -> ${meta.data_version} at ${meta.frozen_at}: ${entries.length} history entr${entries.length === 1 ? 'y' : 'ies'} ` +
    `(${counts.added} added, ${counts.removed} removed, ${counts.changed} changed games; ${Object.keys(frozen.games).length} games frozen)`,
);
