// The bulk downloads, written by the build under dist/client (paths from src/routes/routes.ts `dumpFiles`):
//
//   api/rtp/dump/registry.json              every public game record with its sources
//   api/rtp/dump/registry.ndjson            the same records, one JSON object per line
//   api/rtp/dump/registry.csv               one row per game (RFC 4180, UTF-8 with a byte order mark)
//   api/rtp/dump/datapackage.json           a Frictionless Data Package describing the three
//   api/rtp/dump/changes/{version}.json     what each frozen version changed (src/registry/changes.ts)
//   api/rtp/removed                         removed games (GET /api/rtp/removed)
//   llms.txt                                the registry's summary for assistants (src/build/llms.ts)
//   api/feeds/rtp.atom                      the registry-wide Atom feed (src/build/feeds.ts)
import { createHash } from 'node:crypto';
import type { RegistryBundle } from '../registry/bundle.ts';
import { releaseChanges, removedGames } from '../registry/changes.ts';
import { dumpFiles } from '../routes/routes.ts';
import type { DataPackage, DumpMeta, TableField } from '../schemas/dump.ts';
import { GameRecordSchema, type GameRecord } from '../schemas/game-record.ts';
import { renderLlmsTxt } from './llms.ts';
import { feedIndex, registryFeed } from './feeds.ts';

/** One dump file: its path under dist/client and its exact bytes. */
export interface DumpFile {
  file: string;
  bytes: Buffer;
}

/** RFC 4180 line ends. */
const CRLF = '\r\n';
/** A UTF-8 byte order mark: spreadsheet programs read the file as UTF-8 only with it (names carry ™ and –). */
const BOM = '\uFEFF';

/** One CSV column: its Table Schema field and how a record fills it. */
interface Column extends TableField {
  cell: (r: GameRecord) => string | number | null;
}

const list = (values: readonly (string | number)[]) => values.join(';');

/** The CSV's columns, in order (variants, badges and source URLs joined with `;`). */
export const CSV_COLUMNS: readonly Column[] = [
  { name: 'canonical_slug', type: 'string', description: 'The game\'s slug: /api/rtp/{slug}.', constraints: { required: true, unique: true }, cell: (r) => r.canonical_slug },
  { name: 'canonical_name', type: 'string', description: 'The game\'s name.', constraints: { required: true }, cell: (r) => r.canonical_name },
  { name: 'provider', type: 'string', description: 'The provider\'s key.', constraints: { required: true }, cell: (r) => r.provider },
  { name: 'provider_display', type: 'string', description: 'The provider\'s name.', constraints: { required: true }, cell: (r) => r.provider_display },
  { name: 'stated_rtp', type: 'number', description: 'The provider-stated RTP, percent.', constraints: { required: true }, cell: (r) => r.stated_rtp },
  { name: 'rtp_variants', type: 'string', description: 'Every known RTP of the game, percent, ascending, separated by ";".', constraints: { required: true }, cell: (r) => list(r.rtp_variants) },
  { name: 'rtp_min', type: 'number', description: 'The lowest known RTP, percent.', constraints: { required: true }, cell: (r) => r.rtp_min },
  { name: 'rtp_max', type: 'number', description: 'The highest known RTP, percent.', constraints: { required: true }, cell: (r) => r.rtp_max },
  { name: 'variants_count', type: 'integer', description: 'How many RTP variants are known.', constraints: { required: true }, cell: (r) => r.variants_count },
  { name: 'volatility', type: 'string', description: 'The provider-stated volatility, empty when unknown.', cell: (r) => r.volatility },
  { name: 'max_win', type: 'number', description: 'The maximum win as a multiple of the stake, empty when unknown.', cell: (r) => r.max_win },
  { name: 'release_year', type: 'integer', description: 'The release year, empty when unknown.', cell: (r) => r.release_year },
  { name: 'game_type', type: 'string', description: 'slot, table, live, crash, instant, bingo or keno.', constraints: { required: true }, cell: (r) => r.game_type },
  { name: 'last_verified', type: 'datetime', description: 'When the figures were last checked against a source (UTC).', constraints: { required: true }, cell: (r) => r.last_verified },
  { name: 'snapshot_id', type: 'string', description: 'sha256 of the game\'s published facts.', constraints: { required: true }, cell: (r) => r.snapshot_id },
  { name: 'source_url', type: 'string', description: 'The source to cite for the stated RTP.', constraints: { required: true }, cell: (r) => r.source_url },
  { name: 'source_kind', type: 'string', description: 'provider_page or third_party.', constraints: { required: true }, cell: (r) => r.source_kind },
  { name: 'source_urls', type: 'string', description: 'Every source stating the figures, in precedence order, separated by ";".', constraints: { required: true }, cell: (r) => list(r.sources.map((s) => s.url)) },
  { name: 'badges', type: 'string', description: 'verified_rtp, variants_tracked, sources_disagree, separated by ";".', cell: (r) => list(r.badges) },
  { name: 'notes', type: 'string', description: 'Notes on the figures and their sources.', cell: (r) => r.notes },
];

/** A CSV field per RFC 4180 §2: quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV dump: a header row, then one row per record, CRLF after every row. */
export function registryCsv(records: readonly GameRecord[]): string {
  const rows = [CSV_COLUMNS.map((c) => csvField(c.name)).join(',')];
  for (const r of records) rows.push(CSV_COLUMNS.map((c) => csvField(c.cell(r))).join(','));
  return `${BOM}${rows.join(CRLF)}${CRLF}`;
}

/** The JSON record fields as Table Schema fields (for the JSON and NDJSON resources). */
function jsonFields(): TableField[] {
  const type = (name: string): TableField['type'] => {
    const csv = CSV_COLUMNS.find((c) => c.name === name);
    if (name === 'rtp_variants' || name === 'badges' || name === 'variants' || name === 'rtp_variant_details' || name === 'sources') return 'array';
    return csv?.type ?? 'string';
  };
  return Object.keys(GameRecordSchema.shape).map((name) => ({ name, type: type(name), description: CSV_COLUMNS.find((c) => c.name === name)?.description ?? `See docs/data-model.md (${name}).` }));
}

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The descriptor of the three record dumps, with each file's size and hash. */
export function dataPackage(meta: DumpMeta, site: string, csv: Buffer, json: Buffer, ndjson: Buffer): DataPackage {
  const resource = (name: string, path: string, format: string, mediatype: string, bytes: Buffer) => ({ name, path, format, mediatype, encoding: 'utf-8' as const, bytes: bytes.length, hash: sha256(bytes) });
  const fields = jsonFields();
  return {
    profile: 'data-package',
    name: 'rtp-registry',
    title: 'RTP Registry',
    description: `Provider-stated RTP (return to player) of ${meta.games} casino games, their RTP variants, provider and the source to cite. Data version ${meta.data_version}, frozen ${meta.frozen_at}.`,
    version: meta.data_version,
    created: meta.frozen_at,
    homepage: `${site}/`,
    licenses: [{ name: meta.license, path: meta.license_url, title: meta.attribution }],
    resources: [
      {
        ...resource('registry-csv', 'registry.csv', 'csv', 'text/csv', csv),
        profile: 'tabular-data-resource',
        title: 'Game records, one row per game',
        dialect: { delimiter: ',', lineTerminator: CRLF, quoteChar: '"', doubleQuote: true, header: true },
        schema: { fields: CSV_COLUMNS.map(({ name, type, description, constraints }) => ({ name, type, description, ...(constraints === undefined ? {} : { constraints }) })), primaryKey: 'canonical_slug' },
      },
      { ...resource('registry-json', 'registry.json', 'json', 'application/json', json), profile: 'data-resource', title: 'Game records with their sources, as one JSON document ({meta, records})', schema: { fields, primaryKey: 'canonical_slug' } },
      { ...resource('registry-ndjson', 'registry.ndjson', 'ndjson', 'application/x-ndjson', ndjson), profile: 'data-resource', title: 'Game records with their sources, one JSON object per line', schema: { fields, primaryKey: 'canonical_slug' } },
    ],
  };
}

/** Every static data file of the bundle, in a fixed order (the data package after the three it hashes). */
export function renderDumps(bundle: RegistryBundle, site: string): DumpFile[] {
  const { meta: m, records, history } = bundle;
  const meta: DumpMeta = { data_version: m.data_version, frozen_at: m.frozen_at, games: records.length, license: m.license, license_url: m.license_url, attribution: m.attribution };
  const json = Buffer.from(JSON.stringify({ meta, records }));
  const ndjson = Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const csv = Buffer.from(registryCsv(records));
  const out: DumpFile[] = [
    { file: dumpFiles.json, bytes: json },
    { file: dumpFiles.ndjson, bytes: ndjson },
    { file: dumpFiles.csv, bytes: csv },
    { file: dumpFiles.dataPackage, bytes: Buffer.from(JSON.stringify(dataPackage(meta, site, csv, json, ndjson))) },
  ];
  for (const c of releaseChanges(history)) out.push({ file: dumpFiles.changes(c.data_version), bytes: Buffer.from(JSON.stringify(c)) });
  out.push({ file: dumpFiles.removed, bytes: Buffer.from(JSON.stringify(removedGames(history, m))) });
  out.push({ file: dumpFiles.llms, bytes: Buffer.from(renderLlmsTxt(bundle, site)) });
  out.push({ file: dumpFiles.feed, bytes: Buffer.from(registryFeed(feedIndex(bundle, site))) });
  return out;
}
