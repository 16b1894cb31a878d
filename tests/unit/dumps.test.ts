// The bulk downloads (src/emit/dumps.ts) and release diffs (src/registry/changes.ts): computed from
// the shipped registry and from small hand-made histories; the data package validated against the
// published Frictionless profiles, every hash and size checked, every CSV row cast by its table schema.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvField, type DumpFile, registryCsv, renderDumps } from '../../src/emit/dumps.ts';
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { releaseChanges, removedGames } from '../../src/registry/changes.ts';
import { classify, dumpFiles } from '../../src/routes/paths.ts';
import { dumpFile } from '../../src/routes/routes.ts';
import type { HistoryEntry } from '../../src/schemas/authoring.ts';
import { DataPackageSchema, RegistryDumpSchema, ReleaseChangesSchema, RemovedResponseSchema } from '../../src/schemas/dump.ts';
import { shippedBundle } from '../helpers/shipped.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SITE = 'https://rtp.example.org';
let bundle: RegistryBundle;
let dumps: DumpFile[];
const text = (file: string) => dumps.find((d) => d.file === file)!.bytes.toString('utf8');

beforeAll(async () => {
  bundle = shippedBundle();
  dumps = renderDumps(bundle, SITE);
});

const entry = (data_version: string, slug: string, field: HistoryEntry['field'], from: HistoryEntry['from'], to: HistoryEntry['to']): HistoryEntry => ({
  data_version,
  frozen_at: `2026-0${data_version[2]}-01T00:00:00Z`,
  slug,
  provider: 'acme',
  field,
  from,
  to,
});

describe('release diffs from the history log', () => {
  const history: HistoryEntry[] = [
    entry('1.0.0', 'beta', 'stated_rtp', null, 96),
    entry('1.0.0', 'beta', 'rtp_variants', null, [94, 96]),
    entry('1.0.0', 'alpha', 'stated_rtp', null, 95.5),
    entry('1.0.0', 'alpha', 'rtp_variants', null, [95.5]),
    entry('1.1.0', 'alpha', 'stated_rtp', 95.5, 96.1),
    entry('1.1.0', 'beta', 'stated_rtp', 96, null),
    entry('1.1.0', 'beta', 'rtp_variants', [94, 96], null),
    entry('1.1.0', 'gamma', 'stated_rtp', null, 97),
    entry('1.1.0', 'gamma', 'rtp_variants', null, [97]),
    entry('1.2.0', 'gamma', 'rtp_variants', [97], [92, 97]),
    entry('1.2.0', 'gamma', 'stated_rtp', 97, 92),
  ];

  it('gives each frozen version its added, removed and changed games, by slug, with old and new figures', () => {
    const [v1, v2, v3] = releaseChanges(history);
    expect(v1).toMatchObject({ data_version: '1.0.0', previous_version: null, counts: { added: 2, removed: 0, changed: 0 } });
    expect(v1!.added).toEqual([
      { slug: 'alpha', provider: 'acme', stated_rtp: 95.5, rtp_variants: [95.5] },
      { slug: 'beta', provider: 'acme', stated_rtp: 96, rtp_variants: [94, 96] },
    ]);
    expect(v2).toMatchObject({ data_version: '1.1.0', previous_version: '1.0.0', counts: { added: 1, removed: 1, changed: 1 } });
    expect(v2!.removed).toEqual([{ slug: 'beta', provider: 'acme', stated_rtp: 96, rtp_variants: [94, 96], merged_into: null }]);
    expect(v2!.changed).toEqual([{ slug: 'alpha', provider: 'acme', changes: [{ field: 'stated_rtp', from: 95.5, to: 96.1 }] }]);
    // Field order in a change is fixed (stated_rtp, then rtp_variants), whatever the log's order.
    expect(v3!.changed[0]!.changes.map((c) => c.field)).toEqual(['stated_rtp', 'rtp_variants']);
    for (const c of releaseChanges(history)) expect(ReleaseChangesSchema.safeParse(c).success).toBe(true);
  });

  it('lists removed games not added back as tombstones, with the version that removed them', () => {
    const meta = { data_version: '1.2.0', frozen_at: '2026-02-01T00:00:00Z' };
    const removed = removedGames(history, meta);
    expect(removed).toEqual({
      meta: { ...meta, total: 1 },
      items: [
        { slug: 'beta', provider: 'acme', removed_in: '1.1.0', removed_at: '2026-01-01T00:00:00Z', last_stated_rtp: 96, reason: null, merged_into: null },
      ],
    });
    // A removal the freeze recorded a reason for (a held-back game) carries it on its tombstone.
    const why = 'held back: sources of one rank state defaults 96 and 94.5';
    const withReason = history.map((e) => (e.slug === 'beta' && e.to === null ? { ...e, reason: why } : e));
    expect(removedGames(withReason, meta).items[0]!.reason).toBe(why);
    // A game merged into the record of the same game names that record, on its tombstone and in its version's diff.
    const merged = history.map((e) => (e.slug === 'beta' && e.to === null ? { ...e, reason: 'merged into alpha: the same game', merged_into: 'alpha' } : e));
    expect(removedGames(merged, meta).items[0]).toMatchObject({ slug: 'beta', reason: 'merged into alpha: the same game', merged_into: 'alpha' });
    expect(releaseChanges(merged)[1]!.removed).toEqual([{ slug: 'beta', provider: 'acme', stated_rtp: 96, rtp_variants: [94, 96], merged_into: 'alpha' }]);
    const readded = removedGames([...history, entry('1.3.0', 'beta', 'stated_rtp', null, 96), entry('1.3.0', 'beta', 'rtp_variants', null, [96])], meta);
    expect(readded.items).toEqual([]);
    expect(RemovedResponseSchema.safeParse(removed).success).toBe(true);
  });

  it('writes one changes file per frozen version of the shipped history', () => {
    const versions = [...new Set(bundle.history.map((e) => e.data_version))];
    for (const v of versions) expect(ReleaseChangesSchema.parse(JSON.parse(text(dumpFiles.changes(v)))).data_version).toBe(v);
    const added = versions.map((v) => (JSON.parse(text(dumpFiles.changes(v))) as { counts: { added: number; removed: number } }).counts);
    // Every game frozen last was added by some frozen version and not removed since.
    const frozen = JSON.parse(readFileSync(path.join(ROOT, 'data/frozen.json'), 'utf8')) as { games: Record<string, unknown> };
    expect(added.reduce((n, c) => n + c.added - c.removed, 0)).toBe(Object.keys(frozen.games).length);
  });
});

describe('CSV (RFC 4180)', () => {
  it('quotes fields with commas, quotes or line breaks, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField(96.21)).toBe('96.21');
    expect(csvField(null)).toBe('');
  });

  it('has a byte order mark, a header row, CRLF after every row, and round-trips through a CSV parser', () => {
    const csv = registryCsv(bundle.records);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv.replaceAll('\r\n', '').includes('\n')).toBe(false);
    const rows = parse(csv, { bom: true, columns: true, record_delimiter: '\r\n', relax_quotes: false }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(bundle.records.length);
    expect(Object.keys(rows[0]!)).toEqual(CSV_COLUMNS.map((c) => c.name));
    rows.forEach((row, k) => {
      const r = bundle.records[k]!;
      expect(row.canonical_slug).toBe(r.canonical_slug);
      expect(row.canonical_name).toBe(r.canonical_name);
      expect(row.rtp_variants!.split(';').map(Number)).toEqual(r.rtp_variants);
      expect(Number(row.stated_rtp)).toBe(r.stated_rtp);
      expect(row.source_urls!.split(';')).toEqual(r.sources.map((s) => s.url));
    });
  });

  it('keeps a name with a comma and quotes intact', () => {
    const r = { ...bundle.records[0]!, canonical_name: 'Book of "Dead", Deluxe', notes: 'line one\nline two' };
    const [row] = parse(registryCsv([r]), { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(row!.canonical_name).toBe('Book of "Dead", Deluxe');
    expect(row!.notes).toBe('line one\nline two');
  });
});

describe('the dumps of the shipped registry', () => {
  it('hold every record with its sources, in JSON and NDJSON, with the licence', () => {
    const json = RegistryDumpSchema.parse(JSON.parse(text(dumpFiles.json)));
    expect(json.records).toEqual(bundle.records);
    expect(json.meta).toEqual({
      data_version: bundle.meta.data_version,
      frozen_at: bundle.meta.frozen_at,
      games: bundle.records.length,
      license: 'CC-BY-4.0',
      license_url: bundle.meta.license_url,
      attribution: bundle.meta.attribution,
    });
    const lines = text(dumpFiles.ndjson).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(bundle.records);
    expect(json.records.every((r) => r.sources.length > 0)).toBe(true);
  });

  it('describe themselves in a data package valid against the published Frictionless profiles', () => {
    const profile = (name: string) => JSON.parse(readFileSync(path.join(ROOT, 'tests/fixtures/frictionless', `${name}.json`), 'utf8')) as object;
    // The package is CommonJS: its class is the default export's `default`.
    const ajv = new AjvDraft04.default({ allErrors: true, strict: false });
    const pkg = DataPackageSchema.parse(JSON.parse(text(dumpFiles.dataPackage)));
    const validPackage = ajv.compile(profile('data-package'));
    expect(validPackage(pkg), JSON.stringify(validPackage.errors)).toBe(true);
    const validTabular = ajv.compile(profile('tabular-data-resource'));
    const validResource = ajv.compile(profile('data-resource'));
    for (const r of pkg.resources) {
      const valid = r.profile === 'tabular-data-resource' ? validTabular : validResource;
      expect(valid(r), `${r.name}: ${JSON.stringify(valid.errors)}`).toBe(true);
    }
    // The profiles do reject what breaks the specification.
    expect(validPackage({ ...pkg, name: 'RTP Registry' })).toBe(false);
    expect(validTabular({ ...pkg.resources[0]!, schema: { fields: [{ name: 'x', type: 'percent' }] } })).toBe(false);
    expect(pkg).toMatchObject({
      profile: 'data-package',
      name: 'rtp-registry',
      version: bundle.meta.data_version,
      created: bundle.meta.frozen_at,
      licenses: [{ name: 'CC-BY-4.0', path: bundle.meta.license_url, title: bundle.meta.attribution }],
    });
  });

  it('give each resource its exact size and sha256, and a path beside the package', () => {
    const pkg = DataPackageSchema.parse(JSON.parse(text(dumpFiles.dataPackage)));
    expect(pkg.resources.map((r) => r.path)).toEqual(['registry.csv', 'registry.json', 'registry.ndjson']);
    for (const r of pkg.resources) {
      const bytes = dumps.find((d) => d.file === `${path.posix.dirname(dumpFiles.dataPackage)}/${r.path}`)!.bytes;
      expect(r.bytes).toBe(bytes.length);
      expect(r.hash).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    }
  });

  it('give CSV values that cast to their table schema types', () => {
    const pkg = DataPackageSchema.parse(JSON.parse(text(dumpFiles.dataPackage)));
    const fields = pkg.resources[0]!.schema.fields;
    const rows = parse(text(dumpFiles.csv), { bom: true, columns: true }) as Array<Record<string, string>>;
    const seen = new Set<string>();
    for (const row of rows) {
      for (const f of fields) {
        const v = row[f.name]!;
        if (v === '') {
          expect(f.constraints?.required, `${f.name} is required`).not.toBe(true);
          continue;
        }
        if (f.type === 'number') expect(Number.isFinite(Number(v)), `${f.name}=${v}`).toBe(true);
        if (f.type === 'integer') expect(/^-?[0-9]+$/.test(v), `${f.name}=${v}`).toBe(true);
        if (f.type === 'datetime') expect(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(v), `${f.name}=${v}`).toBe(true);
      }
      expect(seen.has(row.canonical_slug!)).toBe(false);
      seen.add(row.canonical_slug!);
    }
  });

  it('are the same bytes on every build of one snapshot', () => {
    const again = renderDumps(bundle, SITE);
    expect(again.map((d) => d.file)).toEqual(dumps.map((d) => d.file));
    again.forEach((d, k) => {
      expect(d.bytes.equals(dumps[k]!.bytes)).toBe(true);
    });
  });
});

describe('/llms.txt', () => {
  it('says what the registry is, links every route under the site, and shows how to cite', () => {
    const txt = text(dumpFiles.llms);
    const lines = txt.split('\n');
    expect(lines[0]).toBe('# RTP Registry');
    expect(lines[2]).toMatch(
      new RegExp(`^> An open registry .* ${bundle.records.length.toLocaleString('en-US')} casino games from ${bundle.providers.length} providers`),
    );
    expect(txt).toContain(`CC BY 4.0 (${bundle.meta.license_url})`);
    expect(txt).toContain(`Attribution: "${bundle.meta.attribution}"`);
    expect(txt).toMatch(/^> .+: stated RTP [0-9.]+%\. Source: https?:\/\/.+, CC BY 4\.0\.$/m);
    const links = [...txt.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThanOrEqual(12);
    for (const link of links) {
      expect(link.startsWith(`${SITE}/`), link).toBe(true);
      const pathname = new URL(link).pathname;
      expect(['list', 'slot', 'provider', 'operator', 'history', 'openapi', 'dump', 'page', 'widget'], pathname).toContain(classify(pathname));
    }
  });
});

describe('dump URLs', () => {
  it('map to their files and content types, and nothing else under /api/rtp/dump/ does', () => {
    expect(dumpFile('/api/rtp/dump/registry.csv')).toEqual({ file: dumpFiles.csv, contentType: 'text/csv; charset=utf-8; header=present' });
    expect(dumpFile('/api/rtp/dump/registry.ndjson')?.contentType).toBe('application/x-ndjson');
    expect(dumpFile('/api/rtp/dump/changes/1.10.0.json')?.file).toBe(dumpFiles.changes('1.10.0'));
    expect(dumpFile('/api/rtp/removed')?.file).toBe('api/rtp/removed');
    for (const bad of [
      '/api/rtp/dump/',
      '/api/rtp/dump/registry.xml',
      '/api/rtp/dump/changes/1.0.json',
      '/api/rtp/dump/changes/01.0.0.json',
      '/api/rtp/dump/../registry.json',
      '/api/rtp/dump/changes/1.0.0.json/x',
    ]) {
      expect(dumpFile(bad), bad).toBeNull();
    }
  });
});
