// npm run data:report [-- --data <dir>] [--out <file>]: writes docs/DATA.md, the report of what
// the registry holds and where it comes from: games per provider (with their confidence levels) and
// per source, badges, every provider label and where it went, every disagreement between sources,
// every game held back, every published slug merged into the record of the same game, every source
// line not mapped. Deterministic
// (no timestamps beyond the data's own), so it is reviewed in diffs with the data.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ingestSources } from '../src/ingest/ingest.ts';
import { PLACEHOLDER_MIN, PLACEHOLDER_SHARE } from '../src/ingest/placeholders.ts';
import { percent } from '../src/lib/percent.ts';
import { makeBundle } from '../src/registry/bundle.ts';
import { type ConfidenceBasis, confidenceBasis } from '../src/registry/derive.ts';
import { dataDir, loadRegistryOrThrow } from '../src/registry/load.ts';
import { BADGES, CONFIDENCE_LEVELS } from '../src/schemas/game-record.ts';
import { operatorRows } from './lib/operator-report.ts';

const { values } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string', default: 'docs/DATA.md' } } });
const dir = path.resolve(values.data ?? dataDir());
const registry = await loadRegistryOrThrow(dir);
const bundle = makeBundle(registry);
const records = bundle.records;
// Each record's branch of the evidence rule (registry/derive.ts), so the report says what stands behind each label.
const bases = records.map((r) => confidenceBasis(r.stated_rtp, r.sources).basis);
const EVIDENCE_BRANCHES: Array<[string, ConfidenceBasis['basis'], string]> = [
  ['verified', 'provider_page', 'a provider page read here states it'],
  ['verified', 'operator', 'a licensed casino and a source of another origin state it, none higher'],
  ['corroborated', 'origins', 'sources of two or more origins state it'],
  ['single_source', 'one_origin', 'sources of one origin only'],
];
const ingest = await ingestSources(dir, registry.games);

const n = (x: number) => x.toLocaleString('en-US');
const table = (header: string[], rows: Array<Array<string | number>>) =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map((c) => (typeof c === 'number' ? n(c) : c.replace(/\|/g, '\\|'))).join(' | ')} |`),
  ].join('\n');
// Figures as stated: two decimals at least, a third one kept (95.299%), never rounded.
const pct = (x: number) => percent(x);

const display = new Map(registry.providers.map((p) => [p.provider, p.display]));
const providerRows = registry.providers
  .map((p) => {
    const mine = records.filter((r) => r.provider === p.provider);
    return [
      p.display,
      `\`${p.provider}\``,
      p.group ?? '—',
      mine.length,
      ...CONFIDENCE_LEVELS.map((c) => mine.filter((r) => r.confidence === c).length),
      mine.filter((r) => r.badges.includes('sources_disagree')).length,
      p.website ?? '—',
    ] as Array<string | number>;
  })
  .filter((row) => (row[3] as number) > 0)
  .sort((a, b) => (b[3] as number) - (a[3] as number) || String(a[0]).localeCompare(String(b[0])));

const stating = new Map<string, number>();
const listing = new Map<string, number>();
for (const g of registry.games) {
  stating.set(g.sources[0]!.file, (stating.get(g.sources[0]!.file) ?? 0) + 1);
  for (const f of new Set(g.sources.map((x) => x.file))) listing.set(f, (listing.get(f) ?? 0) + 1);
}
const sourceRows = ingest.perSource.map((s) => [
  `\`sources/${s.file}\``,
  s.format,
  s.facts + s.unmapped,
  s.unmapped,
  listing.get(`sources/${s.file}`) ?? 0,
  stating.get(`sources/${s.file}`) ?? 0,
]);

const disagreements = records
  .filter((r) => r.badges.includes('sources_disagree'))
  .map((r) => [
    `[${r.canonical_name}](../data/games/${r.provider}/${r.canonical_slug}.json)`,
    display.get(r.provider) ?? r.provider,
    pct(r.stated_rtp),
    r.sources.map((s) => `${s.kind} ${pct(s.stated_rtp)}`).join('; '),
  ]);
const fileOf = (f: string) => `\`${f.replace(/^sources\//, '')}\``;
const labelRows = ingest.labels.map((l) => [
  `\`${l.label}\``,
  l.to.includes(' ') ? l.to : `\`${l.to}\``,
  Object.entries(l.lines)
    .map(([f, c]) => `${fileOf(f)} ${c}`)
    .join(', '),
]);
const mergedRows = ingest.merged.map((m) => [
  `\`${m.slug}\``,
  display.get(m.provider) ?? m.provider,
  `[\`${m.merged_into}\`](../data/games/${m.into_provider}/${m.merged_into}.json)`,
  display.get(m.into_provider) ?? m.into_provider,
  m.reason,
]);
const heldRows = ingest.excluded.map((x) => [
  x.name,
  display.get(x.provider) ?? x.provider,
  x.slug === null ? '—' : [x.slug, ...x.alsoPublishedAs].map((s) => `\`${s}\``).join(', '),
  x.reason,
  x.facts.map((f) => `${pct(f.stated_rtp)} ${f.file}:${f.line}`).join('; '),
]);

const ops = operatorRows(registry.games);
const opCount = (st: string) => ops.filter((o) => o.standing === st).length;
const opLink = (g: (typeof ops)[number]['game']) => `[${g.canonical_name}](../data/games/${g.provider}/${g.canonical_slug}.json)`;
const opTable = (st: string) => {
  const rows = ops
    .filter((o) => o.standing === st)
    .map((o) => [
      opLink(o.game),
      display.get(o.game.provider) ?? o.game.provider,
      pct(o.figure),
      pct(o.game.stated_rtp),
      o.game.sources
        .filter((x) => x.kind !== 'operator')
        .map((x) => `${x.kind} ${pct(x.stated_rtp)}`)
        .join('; '),
      o.line,
    ]);
  return rows.length === 0 ? 'None.' : table(['game', 'provider', 'the casino runs', 'published', 'other sources', 'line'], rows);
};

const placeholderRows = [...ingest.placeholders.values()]
  .sort((a, b) => b.games - a.games)
  .map((p) => [display.get(p.provider) ?? p.provider, pct(p.figure), p.games, p.of, p.origin]);

const kinds = new Map<string, number>();
for (const r of records) for (const v of r.variants) kinds.set(v.kind, (kinds.get(v.kind) ?? 0) + 1);
const types = new Map<string, number>();
for (const r of records) types.set(r.game_type, (types.get(r.game_type) ?? 0) + 1);

const text = `# What the registry holds

Written by \`npm run data:report\` from \`data/\` (data version ${registry.meta.data_version}, frozen ${registry.meta.frozen_at}) and the
pinned sources in \`data/sources/\`; how they are combined: [data-model.md](data-model.md).

**${n(records.length)} games from ${n(providerRows.length)} providers.** ${n(ingest.excluded.length)} game(s) the sources name are held back,
${n(ingest.merged.length)} published slug(s) were merged into the record of the same game, and ${n(ingest.unmapped.length)} source line(s)
could not be mapped (all listed below).

${table(
  ['confidence', 'by which branch of the rule', 'games'],
  EVIDENCE_BRANCHES.map(([c, basis, words]) => [`\`${c}\``, words, bases.filter((b) => b === basis).length]),
)}

## Games per provider

"verified": a provider page read here states the figure, or a licensed casino and a source of another origin
state it and no source states a higher one; "corroborated": sources of two or more origins state it; "single
source": otherwise (docs/data-model.md, confidence).

${table(['provider', 'key', 'group', 'games', 'verified', 'corroborated', 'single source', 'sources disagree', 'website'], providerRows)}

## Games per source

"Lines" are the lines of the file, "not mapped" those no game could be made of, "games" the games the
file states figures for, "states the RTP" the games whose published figure it sets (precedence: provider
page, hand-checked, catalogue, aggregator; within one kind the higher figure).

${table(['file', 'format', 'lines', 'not mapped', 'games', 'states the RTP'], sourceRows)}

## Badges, game types, variant kinds

${table(
  ['badge', 'games'],
  BADGES.map((b) => [`\`${b}\``, records.filter((r) => r.badges.includes(b)).length]),
)}

${table(
  ['game type', 'games'],
  [...types.entries()].sort().map(([t, c]) => [`\`${t}\``, c]),
)}

${table(
  ['variant kind', 'variants'],
  [...kinds.entries()].sort().map(([k, c]) => [`\`${k}\``, c]),
)}

## What a licensed casino runs

\`sources/operator-711nl.jsonl\`: the RTP a Dutch-licensed casino (711.nl) shows for the build it offers. ${n(new Set(ops.map((o) => o.game.canonical_slug)).size)} published
games carry one of its figures: it agrees with the published figure on ${n(opCount('agrees'))}, shows a lower build on ${n(opCount('lower'))} (a
variant of kind \`operator\`), a higher one on ${n(opCount('higher'))} (a variant; the record's notes say why the stated RTP stays), states the
published figure alone on ${n(opCount('sets'))} (the other sources give a lower rung of the provider's ladder, or conflict), and is the only
source of ${n(opCount('only'))} games (their records say so).

### Higher builds: the stated RTP stays

${opTable('higher')}

### The casino's figure is the published one, the other sources' are not

${opTable('sets')}

### Lower builds

${opTable('lower')}

## Placeholder-like studios

A studio at least ${PLACEHOLDER_MIN} of whose games, and at least ${PLACEHOLDER_SHARE * 100}% of them, publish one and the same figure that one origin
alone states: the figure may be that source's placeholder for the studio, not each game's. Each such record's notes
say so.

${placeholderRows.length === 0 ? 'None.' : table(['provider', 'figure', 'games', 'of', 'the one origin'], placeholderRows)}

## Provider labels

Every provider label the sources write, the provider key \`data/provider-aliases.json\` maps it to (or why its
lines are not mapped), and the lines that carry it per file.

${table(['label', 'goes to', 'lines'], labelRows)}

## Where sources disagree

The published figure is the first source's; every source and its figure is in the record's \`sources\`.

${disagreements.length === 0 ? 'None.' : table(['game', 'provider', 'published', 'sources'], disagreements)}

## Held back

Games the sources name that are not published (\`data/held-back.json\`): sources of one rank that state defaults
more than 0.5 points apart with no configuration rule to explain it, or only a lower build of a provider's ladder.
A game published before leaves with a tombstone naming the reason (its slug is listed).

${heldRows.length === 0 ? 'None.' : table(['game', 'provider', 'published as', 'why', 'figures and source lines'], heldRows)}

## Merged

A studio's published record that is the same game as its distributor's published record (\`distributor\` in
\`data/provider-aliases.json\`: Reel Kingdom's games are published by Pragmatic Play) is merged into it: the
surviving record keeps its slug, lists the sources of both, names the studio in \`studio\`, and its confidence is
recomputed from all of them; the studio's slug leaves with a tombstone naming the reason and \`merged_into\`, and
each of its URLs answers a 301 to the same URL of the survivor (from the server, from nginx at the edge, and
from a CDN through the build's \`_redirects\`). The data must prove it: one name key, and the same stated RTP
on each side and together (neither held back); names that differ ("Floating Dragon Ultra Megaways" beside
"Floating Dragon Megaways", both 96.70) or figures that differ keep both records. Merged slugs stay merged (\`data/merged.json\`) and are never given to another game.

${mergedRows.length === 0 ? 'None.' : table(['slug that left', 'studio', 'merged into', 'provider', 'why the same game'], mergedRows)}

## Lines not mapped

${
  ingest.unmapped.length === 0
    ? 'None: every line of every source file became a fact.'
    : table(
        ['line', 'name', 'why'],
        ingest.unmapped.map((u) => [`${u.file}:${u.line}`, u.name ?? '—', u.reason]),
      )
}
`;

await writeFile(path.resolve(values.out!), text);
console.log(
  `data:report: wrote ${values.out} (${records.length} games, ${providerRows.length} providers, ${disagreements.length} disagreement(s), ${ingest.excluded.length} held back)`,
);
