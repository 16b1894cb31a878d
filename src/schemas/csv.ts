// The CSV form of game records (RFC 4180): the one column table of the CSV dump (src/emit/dumps.ts)
// and of the list route's `format=csv` (src/list/csv.ts), with how a record fills each column.
import type { TableField } from './dump.ts';
import type { GameRecord } from './game-record.ts';

/** RFC 4180 line ends. */
export const CRLF = '\r\n';

/** One CSV column: its Table Schema field and how a record fills it. */
export interface CsvColumn extends TableField {
  cell: (r: GameRecord) => string | number | null;
}

const list = (values: readonly (string | number)[]) => values.join(';');

/** The CSV's columns, in order (variants, badges and source URLs joined with `;`). */
export const CSV_COLUMNS: readonly CsvColumn[] = [
  {
    name: 'canonical_slug',
    type: 'string',
    description: "The game's slug: its key in the registry's URLs (its record, page, widget and badge).",
    constraints: { required: true, unique: true },
    cell: (r) => r.canonical_slug,
  },
  { name: 'canonical_name', type: 'string', description: "The game's name.", constraints: { required: true }, cell: (r) => r.canonical_name },
  { name: 'provider', type: 'string', description: "The provider's key.", constraints: { required: true }, cell: (r) => r.provider },
  { name: 'provider_display', type: 'string', description: "The provider's name.", constraints: { required: true }, cell: (r) => r.provider_display },
  { name: 'stated_rtp', type: 'number', description: 'The provider-stated RTP, percent.', constraints: { required: true }, cell: (r) => r.stated_rtp },
  {
    name: 'rtp_variants',
    type: 'string',
    description: 'Every known RTP of the game, percent, ascending, separated by ";".',
    constraints: { required: true },
    cell: (r) => list(r.rtp_variants),
  },
  { name: 'rtp_min', type: 'number', description: 'The lowest known RTP, percent.', constraints: { required: true }, cell: (r) => r.rtp_min },
  { name: 'rtp_max', type: 'number', description: 'The highest known RTP, percent.', constraints: { required: true }, cell: (r) => r.rtp_max },
  { name: 'variants_count', type: 'integer', description: 'How many RTP variants are known.', constraints: { required: true }, cell: (r) => r.variants_count },
  { name: 'volatility', type: 'string', description: 'The provider-stated volatility, empty when unknown.', cell: (r) => r.volatility },
  { name: 'max_win', type: 'number', description: 'The maximum win as a multiple of the stake, empty when unknown.', cell: (r) => r.max_win },
  { name: 'release_year', type: 'integer', description: 'The release year, empty when unknown.', cell: (r) => r.release_year },
  {
    name: 'game_type',
    type: 'string',
    description: 'slot, table, live, crash, instant, bingo or keno.',
    constraints: { required: true },
    cell: (r) => r.game_type,
  },
  {
    name: 'last_verified',
    type: 'datetime',
    description: 'When the figures were last checked against a source (UTC).',
    constraints: { required: true },
    cell: (r) => r.last_verified,
  },
  { name: 'snapshot_id', type: 'string', description: "sha256 of the game's published facts.", constraints: { required: true }, cell: (r) => r.snapshot_id },
  { name: 'source_url', type: 'string', description: 'The source to cite for the stated RTP.', constraints: { required: true }, cell: (r) => r.source_url },
  { name: 'source_kind', type: 'string', description: 'provider_page or third_party.', constraints: { required: true }, cell: (r) => r.source_kind },
  {
    name: 'source_urls',
    type: 'string',
    description: 'Every source stating the figures, in precedence order, separated by ";".',
    constraints: { required: true },
    cell: (r) => list(r.sources.map((s) => s.url)),
  },
  { name: 'badges', type: 'string', description: 'verified_rtp, variants_tracked, sources_disagree, separated by ";".', cell: (r) => list(r.badges) },
  { name: 'notes', type: 'string', description: 'Notes on the figures and their sources.', cell: (r) => r.notes },
];

/** The first characters that make a spreadsheet read a text cell as a formula (OWASP, CSV injection). */
export const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV field per RFC 4180 §2: quoted when it holds a comma, a quote or a line break; quotes doubled.
 * A text cell that begins with `=`, `+`, `-`, `@`, tab or CR is first prefixed with `'`, as OWASP
 * recommends, so that a spreadsheet shows it as text; numbers are written as they are (a minus sign
 * there is a number's, not a formula's).
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The columns' names, in order (what the list route's `fields=` may name with `format=csv`). */
export const CSV_COLUMN_NAMES: readonly string[] = CSV_COLUMNS.map((c) => c.name);

/** The header row, then one row per record, CRLF after every row (no byte order mark); `columns`: CSV_COLUMNS or some of them. */
export function csvRows(records: readonly GameRecord[], columns: readonly CsvColumn[] = CSV_COLUMNS): string {
  const rows = [columns.map((c) => csvField(c.name)).join(',')];
  for (const r of records) rows.push(columns.map((c) => csvField(c.cell(r))).join(','));
  return `${rows.join(CRLF)}${CRLF}`;
}
