// Cells a spreadsheet would run as formulas, served for real: a fixture registry (tests/fixtures/csv-formula)
// whose names, provider name and notes begin with =, +, -, @ and tab is built and served; the list
// route's `format=csv` and the CSV dump both come out of the shared encoder, each such cell prefixed with '.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRows, FORMULA_START } from '../../src/schemas/csv.ts';
import { RegistryDumpSchema } from '../../src/schemas/dump.ts';
import type { GameRecord } from '../../src/schemas/game-record.ts';
import { ListResponseSchema } from '../../src/schemas/list.ts';
import { buildRegistry, removeTemp, tempDir } from '../helpers/browser.ts';
import { type Server, startServer } from '../helpers/server.ts';

let out: string | undefined;
let server: Server;
let records: Map<string, GameRecord>;

beforeAll(async () => {
  out = await tempDir('rtp-e2e-csv-formula-');
  await buildRegistry('tests/fixtures/csv-formula', out);
  server = await startServer({ outDir: out, env: { RATE_LIMIT: '1000000' } });
  const dump = RegistryDumpSchema.parse(await (await fetch(`${server.url}/api/rtp/dump/registry.json`)).json());
  records = new Map(dump.records.map((r) => [r.canonical_slug, r]));
});

afterAll(async () => {
  await server?.stop();
  await removeTemp(out);
});

const text = async (p: string) => {
  const res = await fetch(server.url + p);
  expect(res.status, p).toBe(200);
  expect(res.headers.get('content-type'), p).toBe('text/csv; charset=utf-8; header=present');
  // Buffer's decoding keeps a byte order mark (fetch's text() would drop it).
  return Buffer.from(await res.arrayBuffer()).toString('utf8');
};

const rowsOf = (csv: string) => parse(csv, { bom: true, columns: true }) as Array<Record<string, string>>;

/** What each hostile cell of the fixture must read as once parsed: the source text behind a '. */
function expectNeutralised(rows: Array<Record<string, string>>): void {
  expect(rows.map((r) => r.canonical_slug).sort()).toEqual(['hyperlink', 'minus-game', 'plain-sum']);
  for (const row of rows) {
    const r = records.get(row.canonical_slug!)!;
    for (const [column, value] of [
      ['canonical_name', r.canonical_name],
      ['provider_display', r.provider_display],
      ['notes', r.notes],
    ] as const) {
      expect(row[column], `${r.canonical_slug} ${column}`).toBe(FORMULA_START.test(value!) ? `'${value}` : value);
    }
    expect(Number(row.stated_rtp)).toBe(r.stated_rtp);
    expect(
      Object.values(row).filter((v) => FORMULA_START.test(v)),
      r.canonical_slug,
    ).toEqual([]);
  }
  // The fixture holds every kind: the proof is not vacuous.
  const hostile = rows
    .flatMap((row) => [row.canonical_name, row.provider_display, row.notes])
    .filter((v) => v!.startsWith("'"))
    .map((v) => v![1]);
  expect(new Set(hostile)).toEqual(new Set(['=', '+', '-', '@', '\t']));
}

describe('CSV cells that begin as formulas', () => {
  it('format=csv on the list route writes them behind a quote mark, through the shared encoder', async () => {
    const csv = await text('/api/rtp/list?limit=200&format=csv');
    expectNeutralised(rowsOf(csv));
    const page = ListResponseSchema.parse(await (await fetch(`${server.url}/api/rtp/list?limit=200`)).json());
    expect(csv).toBe(csvRows(page.items.map((i) => records.get(i.canonical_slug)!)));
  });

  it('the CSV dump writes them the same way, through the same encoder', async () => {
    const csv = await text('/api/rtp/dump/registry.csv');
    expectNeutralised(rowsOf(csv));
    expect(csv).toBe(`\uFEFF${csvRows([...records.values()])}`);
    const list = rowsOf(await text('/api/rtp/list?limit=200&format=csv'));
    const dump = new Map(rowsOf(csv).map((r) => [r.canonical_slug, r]));
    for (const row of list) expect(row).toEqual(dump.get(row.canonical_slug));
  });
});
