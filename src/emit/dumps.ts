// The bulk downloads, written by the build under dist/client (paths from src/routes/routes.ts `dumpFiles`):
//
//   api/rtp/dump/registry.json              every public game record with its sources
//   api/rtp/dump/registry.ndjson            the same records, one JSON object per line
//   api/rtp/dump/registry.csv               one row per game (RFC 4180, UTF-8 with a byte order mark)
//   api/rtp/dump/datapackage.json           a Frictionless Data Package describing the three
//   api/rtp/dump/changes/{version}.json     what each frozen version changed (src/registry/changes.ts)
//   api/rtp/removed                         removed games (GET /api/rtp/removed)
//   llms.txt                                the registry's summary for assistants (src/emit/llms.ts)
//   api/feeds/rtp.atom                      the registry-wide Atom feed (src/emit/feeds.ts)
import { createHash } from 'node:crypto';
import type { RegistryBundle } from '../registry/bundle.ts';
import { releaseChanges, removedGames } from '../registry/changes.ts';
import { dumpFiles } from '../routes/paths.ts';
import { CRLF, CSV_COLUMNS, csvField, csvRows } from '../schemas/csv.ts';
import type { DataPackage, DumpMeta, TableField } from '../schemas/dump.ts';
import { type GameRecord, GameRecordSchema } from '../schemas/game-record.ts';
import { feedIndex, registryFeed } from './feeds.ts';
import { renderLlmsTxt } from './llms.ts';

/** One dump file: its path under dist/client and its exact bytes. */
export interface DumpFile {
  file: string;
  bytes: Buffer;
}

/** A UTF-8 byte order mark: spreadsheet programs read the file as UTF-8 only with it (names carry ™ and –). */
const BOM = '\uFEFF';

export { CSV_COLUMNS, csvField };

/** The CSV dump: a header row, then one row per record, CRLF after every row. */
export function registryCsv(records: readonly GameRecord[]): string {
  return `${BOM}${csvRows(records)}`;
}

/** The JSON record fields as Table Schema fields (for the JSON and NDJSON resources). */
function jsonFields(): TableField[] {
  const type = (name: string): TableField['type'] => {
    const csv = CSV_COLUMNS.find((c) => c.name === name);
    if (name === 'rtp_variants' || name === 'badges' || name === 'variants' || name === 'sources') return 'array';
    return csv?.type ?? 'string';
  };
  return Object.keys(GameRecordSchema.shape).map((name) => ({
    name,
    type: type(name),
    description: CSV_COLUMNS.find((c) => c.name === name)?.description ?? `See docs/data-model.md (${name}).`,
  }));
}

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The descriptor of the three record dumps, with each file's size and hash. */
export function dataPackage(meta: DumpMeta, site: string, csv: Buffer, json: Buffer, ndjson: Buffer): DataPackage {
  const resource = (name: string, path: string, format: string, mediatype: string, bytes: Buffer) => ({
    name,
    path,
    format,
    mediatype,
    encoding: 'utf-8' as const,
    bytes: bytes.length,
    hash: sha256(bytes),
  });
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
        schema: {
          fields: CSV_COLUMNS.map(({ name, type, description, constraints }) => ({
            name,
            type,
            description,
            ...(constraints === undefined ? {} : { constraints }),
          })),
          primaryKey: 'canonical_slug',
        },
      },
      {
        ...resource('registry-json', 'registry.json', 'json', 'application/json', json),
        profile: 'data-resource',
        title: 'Game records with their sources, as one JSON document ({meta, records})',
        schema: { fields, primaryKey: 'canonical_slug' },
      },
      {
        ...resource('registry-ndjson', 'registry.ndjson', 'ndjson', 'application/x-ndjson', ndjson),
        profile: 'data-resource',
        title: 'Game records with their sources, one JSON object per line',
        schema: { fields, primaryKey: 'canonical_slug' },
      },
    ],
  };
}

/** Every static data file of the bundle, in a fixed order (the data package after the three it hashes). */
export function renderDumps(bundle: RegistryBundle, site: string): DumpFile[] {
  const { meta: m, records, history } = bundle;
  const meta: DumpMeta = {
    data_version: m.data_version,
    frozen_at: m.frozen_at,
    games: records.length,
    license: m.license,
    license_url: m.license_url,
    attribution: m.attribution,
  };
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
