// `format=csv` on GET /api/rtp/list: the page's records as RFC 4180 CSV in UTF-8, a header row and
// the CSV dump's columns (src/schemas/csv.ts), one row per item: for a spreadsheet's IMPORTDATA.
// The list, a batch lookup (`slugs`) and a delta sync (`updated_since`) all answer in it.
import { CACHE_LIST } from '../routes/response-headers.ts';
import { CSV_COLUMN_NAMES, CSV_COLUMNS, type CsvColumn, csvRows } from '../schemas/csv.ts';
import type { GameRecord } from '../schemas/game-record.ts';
import { LIST_FORMATS, type ListFormat } from '../schemas/list.ts';
import type { ListEngine } from './engine.ts';
import { type HandlerResult, strongEtag } from './handler-result.ts';
import { collectParams, oneOf, type ParamError, type QueryInput } from './params.ts';
import { namesParam, readRecord } from './shape.ts';

/** RFC 4180 §3's media type, with its charset and header parameters. */
export const CSV_TYPE = 'text/csv; charset=utf-8; header=present';

/** The format a query asks for (`format=`, json when absent or empty), and its error when it names another. */
export function parseFormat(input: QueryInput): { format: ListFormat; errors: ParamError[] } {
  const errors: ParamError[] = [];
  const format = oneOf(collectParams(input, ['format']), 'format', errors, LIST_FORMATS) ?? 'json';
  return { format, errors };
}

/** Whether a query string may name `format` (a cheap test before parsing). */
export function mayNameFormat(input: QueryInput): boolean {
  return typeof input !== 'string' || input.includes('format');
}

/**
 * The columns a CSV answer has: the ones `fields=` names (CSV column names, in the table's order),
 * else every one. `include=` does not change them: a row always has the dump's columns (docs/api-list.md).
 */
export function csvColumns(input: QueryInput, errors: ParamError[]): readonly CsvColumn[] {
  const names = namesParam(collectParams(input, ['fields']), 'fields', errors, CSV_COLUMN_NAMES);
  return names === null ? CSV_COLUMNS : CSV_COLUMNS.filter((c) => names.includes(c.name));
}

/** The 200 CSV answer of the records `items` (record indexes, in order), with `columns`. */
export function csvAnswer(engine: ListEngine, items: ArrayLike<number>, columns: readonly CsvColumn[] = CSV_COLUMNS): HandlerResult {
  const records: GameRecord[] = [];
  const scratch = { buffer: Buffer.allocUnsafe(4096) };
  for (let k = 0; k < items.length; k++) records.push(readRecord(engine, items[k]!, scratch));
  const body = Buffer.from(csvRows(records, columns), 'utf8');
  const etag = strongEtag(body);
  return {
    status: 200,
    headers: { 'Content-Type': CSV_TYPE, 'Cache-Control': CACHE_LIST, ETag: etag, 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' },
    headerList: ['Content-Type', CSV_TYPE, 'Cache-Control', CACHE_LIST, 'ETag', etag, 'Access-Control-Allow-Origin', '*', 'X-Content-Type-Options', 'nosniff'],
    body,
  };
}
