// The shared CSV encoder (src/schemas/csv.ts) neutralises text cells a spreadsheet would read as a
// formula (OWASP, CSV injection): a leading `'`, then RFC 4180 quoting; numbers are left as they are.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvField, csvRows } from '../../src/schemas/csv.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';

describe('csvField', () => {
  it('prefixes a text cell that begins with =, +, -, @, tab or CR with a quote mark', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    // CR is a line break too: prefixed, then quoted.
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
  });

  it('applies RFC 4180 quoting after the prefix', () => {
    expect(csvField('=HYPERLINK("https://evil.example","x")')).toBe(`"'=HYPERLINK(""https://evil.example"",""x"")"`);
    expect(csvField('@a,b')).toBe(`"'@a,b"`);
    expect(csvField('-x\r\ny')).toBe(`"'-x\r\ny"`);
  });

  it('leaves numbers, and text that only holds those characters later, as they are', () => {
    expect(csvField(-3.5)).toBe('-3.5');
    expect(csvField(96.21)).toBe('96.21');
    expect(csvField(0)).toBe('0');
    expect(csvField('Book of Dead')).toBe('Book of Dead');
    expect(csvField('a=b+c-d@e')).toBe('a=b+c-d@e');
    expect(csvField('https://x.example/?a=1')).toBe('https://x.example/?a=1');
    expect(csvField('')).toBe('');
    expect(csvField(null)).toBe('');
  });
});

describe('csvRows', () => {
  it('writes hostile names, provider names and notes as text a parser reads back with the prefix', () => {
    const base = fixtureBundle(12).records[0]!;
    const r = { ...base, canonical_name: '=HYPERLINK("https://evil.example","Book")', provider_display: '@Evil, Games', notes: "-1+cmd|' /C calc'!A0" };
    const [row] = parse(csvRows([r]), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(row!)).toEqual(CSV_COLUMNS.map((c) => c.name));
    expect(row!.canonical_name).toBe(`'${r.canonical_name}`);
    expect(row!.provider_display).toBe(`'${r.provider_display}`);
    expect(row!.notes).toBe(`'${r.notes}`);
    expect(row!.canonical_slug).toBe(r.canonical_slug);
    expect(Number(row!.stated_rtp)).toBe(r.stated_rtp);
    // No cell of the row, after parsing, begins as a formula.
    expect(Object.values(row!).filter((v) => /^[=+\-@\t\r]/.test(v))).toEqual([]);
  });
});
