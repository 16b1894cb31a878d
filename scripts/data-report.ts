// npm run data:report [-- --data <dir>] [--out <file>]: writes docs/DATA.md, the report of what
// the registry holds and where it comes from: games per provider and per source, badges, every
// disagreement between sources, every game left out, every source line not mapped. Deterministic
// (no timestamps beyond the data's own), so it is reviewed in diffs with the data.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ingestSources } from '../src/ingest/ingest.ts';
import { dataDir, loadRegistryOrThrow } from '../src/registry/load.ts';
import { makeBundle } from '../src/registry/bundle.ts';
import { BADGES } from '../src/schemas/game-record.ts';

const { values } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string', default: 'docs/DATA.md' } } });
const dir = path.resolve(values.data ?? dataDir());
const registry = await loadRegistryOrThrow(dir);
const bundle = makeBundle(registry);
const records = bundle.records;
const ingest = await ingestSources(dir, registry.games);

const n = (x: number) => x.toLocaleString('en-US');
const table = (header: string[], rows: Array<Array<string | number>>) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map((c) => (typeof c === 'number' ? n(c) : c.replace(/\|/g, '\\|'))).join(' | ')} |`)].join('\n');
const pct = (x: number) => `${x.toFixed(2)}%`;

const display = new Map(registry.providers.map((p) => [p.provider, p.display]));
const providerRows = registry.providers
  .map((p) => {
    const mine = records.filter((r) => r.provider === p.provider);
    return [p.display, `\`${p.provider}\``, mine.length, mine.filter((r) => r.badges.includes('verified_rtp')).length, mine.filter((r) => r.badges.includes('sources_disagree')).length, p.website ?? '—'] as Array<string | number>;
  })
  .sort((a, b) => (b[2] as number) - (a[2] as number) || String(a[0]).localeCompare(String(b[0])));

const stating = new Map<string, number>();
const listing = new Map<string, number>();
for (const g of registry.games) {
  stating.set(g.sources[0]!.file, (stating.get(g.sources[0]!.file) ?? 0) + 1);
  for (const f of new Set(g.sources.map((x) => x.file))) listing.set(f, (listing.get(f) ?? 0) + 1);
}
const sourceRows = ingest.perSource.map((s) => [`\`sources/${s.file}\``, s.format, s.facts + s.unmapped, s.unmapped, listing.get(`sources/${s.file}`) ?? 0, stating.get(`sources/${s.file}`) ?? 0]);

const disagreements = records
  .filter((r) => r.badges.includes('sources_disagree'))
  .map((r) => [`[${r.canonical_name}](../data/games/${r.provider}/${r.canonical_slug}.json)`, display.get(r.provider) ?? r.provider, pct(r.stated_rtp), r.sources.map((s) => `${s.kind} ${pct(s.stated_rtp)}`).join('; ')]);

const kinds = new Map<string, number>();
for (const r of records) for (const v of r.rtp_variant_details) kinds.set(v.kind, (kinds.get(v.kind) ?? 0) + 1);
const types = new Map<string, number>();
for (const r of records) types.set(r.game_type, (types.get(r.game_type) ?? 0) + 1);

const text = `# What the registry holds

Written by \`npm run data:report\` from \`data/\` (data version ${registry.meta.data_version}, frozen ${registry.meta.frozen_at}) and the
pinned sources in \`data/sources/\`; how they are combined: [data-model.md](data-model.md).

**${n(records.length)} games from ${n(registry.providers.length)} providers.** ${n(ingest.excluded.length)} game(s) the sources name are left out and
${n(ingest.unmapped.length)} source line(s) could not be mapped (both listed below).

## Games per provider

${table(['provider', 'key', 'games', 'verified RTP', 'sources disagree', 'website'], providerRows)}

## Games per source

"Lines" are the lines of the file, "not mapped" those no game could be made of, "games" the games the
file states figures for, "states the RTP" the games whose published figure it sets (precedence: provider
page, hand-checked, catalogue, aggregator; within one kind the higher figure).

${table(['file', 'format', 'lines', 'not mapped', 'games', 'states the RTP'], sourceRows)}

## Badges, game types, variant kinds

${table(['badge', 'games'], BADGES.map((b) => [`\`${b}\``, records.filter((r) => r.badges.includes(b)).length]))}

${table(['game type', 'games'], [...types.entries()].sort().map(([t, c]) => [`\`${t}\``, c]))}

${table(['variant kind', 'variants'], [...kinds.entries()].sort().map(([k, c]) => [`\`${k}\``, c]))}

## Where sources disagree

The published figure is the first source's; every source and its figure is in the record's \`sources\`.

${disagreements.length === 0 ? 'None.' : table(['game', 'provider', 'published', 'sources'], disagreements)}

## Left out

${ingest.excluded.length === 0 ? 'None.' : table(['game', 'provider', 'why', 'source lines'], ingest.excluded.map((x) => [x.name, display.get(x.provider) ?? x.provider, x.reason, x.facts.map((f) => `${f.file}:${f.line}`).join(', ')]))}

## Lines not mapped

${ingest.unmapped.length === 0 ? 'None: every line of every source file became a fact.' : table(['line', 'name', 'why'], ingest.unmapped.map((u) => [`${u.file}:${u.line}`, u.name ?? '—', u.reason]))}
`;

await writeFile(path.resolve(values.out!), text);
console.log(`data:report: wrote ${values.out} (${records.length} games, ${registry.providers.length} providers, ${disagreements.length} disagreement(s), ${ingest.excluded.length} left out)`);
