// Seed import: variant kinds, row problems, and the round trip from the hand-checked seed (kept in
// data/sources with its README) to the shipped data/ files.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CsvRow, convertRows, parseCsv, variantKinds } from '../../src/ingest/seed-import.ts';
import { loadRegistry, type Registry } from '../../src/registry/load.ts';
import { BOOK_OF_DEAD, BOOK_OF_DEAD_PROVIDER, BOOK_OF_DEAD_ROW } from '../fixtures/registry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The hand-checked seed the shipped data/ was imported from (data/sources/seed-README.md says where it comes from). */
const SEED_DIR = path.join(repoRoot, 'data/sources');

const HEADER =
  'canonical_slug,canonical_name,provider,provider_display,game_type,stated_rtp,rtp_variants,volatility,max_win_x,release_year,source_url,evidence_url,checked_at,notes';
const PROVIDERS: CsvRow[] = [
  { provider: BOOK_OF_DEAD_PROVIDER.provider, provider_display: BOOK_OF_DEAD_PROVIDER.display, website: BOOK_OF_DEAD_PROVIDER.website ?? '' },
];
const row = (over: Partial<CsvRow> = {}): CsvRow => ({ ...BOOK_OF_DEAD_ROW, ...over }) as CsvRow;

describe('variantKinds', () => {
  it('marks the stated value standard and lower values operator_ladder', () => {
    expect(variantKinds(96.21, [84.18, 94.25, 96.21], '')).toEqual([
      { rtp: 84.18, kind: 'operator_ladder' },
      { rtp: 94.25, kind: 'operator_ladder' },
      { rtp: 96.21, kind: 'standard' },
    ]);
  });

  it('marks a value the notes name as the German build as jurisdiction DE', () => {
    expect(variantKinds(96.4, [90, 96.4], 'Current page only lists the German 90% build')).toEqual([
      { rtp: 90, kind: 'jurisdiction', jurisdiction: 'DE' },
      { rtp: 96.4, kind: 'standard' },
    ]);
  });

  it('marks a value above the stated one unknown', () => {
    expect(variantKinds(96, [96, 96.5], '')).toEqual([
      { rtp: 96, kind: 'standard' },
      { rtp: 96.5, kind: 'unknown' },
    ]);
  });
});

describe('convertRows', () => {
  it('parses CRLF CSV with quoted fields and keeps every figure', () => {
    const csv = `${HEADER}\r\nbook-of-dead,Book of Dead,playngo,Play'n GO,slot,96.21,84.18;94.25;96.21,high,5000,,https://www.playngo.com/games/book-of-dead,https://slotsscience.com/x.html,2026-11-21T00:00:00Z,"Ladder from slotsscience; ""quoted"", with comma"\r\n`;
    const { games, problems } = convertRows(parseCsv(csv), PROVIDERS);
    expect(problems).toEqual([]);
    // The seed's Book of Dead, but for what this row says otherwise: no release year, its own evidence URL and notes.
    const evidence = 'https://slotsscience.com/x.html';
    expect(games).toEqual([
      {
        ...BOOK_OF_DEAD,
        release_year: null,
        evidence_url: evidence,
        notes: 'Ladder from slotsscience; "quoted", with comma',
        sources: [{ ...BOOK_OF_DEAD.sources[0]!, url: evidence }],
      },
    ]);
  });

  it('imports the seed row of Book of Dead to its game file', () => {
    const { games, problems, providers } = convertRows([row()], PROVIDERS);
    expect(problems).toEqual([]);
    expect(games).toEqual([BOOK_OF_DEAD]);
    expect(providers).toEqual([BOOK_OF_DEAD_PROVIDER]);
  });

  it('uses the stated RTP as the only variant when none are listed', () => {
    const { games } = convertRows([row({ rtp_variants: '' })], PROVIDERS);
    expect(games[0]!.rtp_variants).toEqual([{ rtp: 96.21, kind: 'standard' }]);
  });

  it('reports every bad row with its CSV line and imports nothing from it', () => {
    const { games, problems } = convertRows(
      [row(), row({ canonical_slug: 'Bad Slug', stated_rtp: '101' }), row({ release_year: '16', source_url: 'n/a' })],
      PROVIDERS,
    );
    expect(games).toHaveLength(1);
    expect(problems).toEqual([
      { file: 'seed-games.csv:3', field: 'canonical_slug', reason: 'must be lowercase ASCII letters and digits joined by single hyphens' },
      { file: 'seed-games.csv:3', field: 'stated_rtp', reason: 'must be at most 100' },
      { file: 'seed-games.csv:4', field: 'release_year', reason: 'must be a four-digit year' },
      { file: 'seed-games.csv:4', field: 'source_url', reason: 'must be an absolute http(s) URL' },
    ]);
  });

  it('reports a bad provider row', () => {
    const { problems } = convertRows([], [{ provider: 'playngo', provider_display: '', website: 'playngo.com' }]);
    expect(problems).toEqual([
      { file: 'providers.csv:2', field: 'display', reason: 'must not be empty' },
      { file: 'providers.csv:2', field: 'website', reason: 'must be an absolute http(s) URL' },
    ]);
  });
});

describe('the seed in the shipped data/', () => {
  let gameRows: CsvRow[];
  let converted: ReturnType<typeof convertRows>;
  let shipped: Registry;
  beforeAll(async () => {
    gameRows = parseCsv(await readFile(path.join(SEED_DIR, 'seed-games.csv'), 'utf8'));
    const providerRows = parseCsv(await readFile(path.join(SEED_DIR, 'seed-providers.csv'), 'utf8'));
    converted = convertRows(gameRows, providerRows);
    const loaded = await loadRegistry(path.join(repoRoot, 'data'));
    if (!loaded.ok) throw new Error(`shipped data/ is invalid: ${JSON.stringify(loaded.problems.slice(0, 5))}`);
    shipped = loaded.registry;
  });

  it('converts all 133 games and 12 providers without a problem', () => {
    expect(converted.problems).toEqual([]);
    expect(gameRows).toHaveLength(133);
    expect(converted.games).toHaveLength(133);
    expect(converted.providers).toHaveLength(12);
  });

  it('every seed game is published under its slug with its name, figures and hand-checked fields; its row is one of its sources', () => {
    const bySlug = new Map(shipped.games.map((g) => [g.canonical_slug, g]));
    for (const seed of converted.games) {
      const g = bySlug.get(seed.canonical_slug)!;
      expect(g, seed.canonical_slug).toBeDefined();
      // The notes are the row's, then what the ingest says of a licensed casino's figure, if anything.
      expect([g.canonical_name, g.provider, g.game_type, g.stated_rtp, g.volatility, g.max_win_x, g.release_year, g.notes.slice(0, seed.notes.length)]).toEqual(
        [seed.canonical_name, seed.provider, seed.game_type, seed.stated_rtp, seed.volatility, seed.max_win_x, seed.release_year, seed.notes],
      );
      expect(g.notes.slice(seed.notes.length), seed.canonical_slug).toMatch(/^(| ?A licensed casino's own catalogue \(711\.nl\) .*)$/);
      // Every figure of the row is kept (other sources that agree may add more).
      const rtps = new Set(g.rtp_variants.map((v) => v.rtp));
      for (const v of seed.rtp_variants) expect(rtps.has(v.rtp), `${seed.canonical_slug} ${v.rtp}`).toBe(true);
      expect(g.sources).toContainEqual({ ...seed.sources[0], via: null });
    }
  });

  it('keeps the seed providers as they were (the alias table adds their group and labels)', async () => {
    for (const p of converted.providers) {
      const file = JSON.parse(await readFile(path.join(repoRoot, 'data/providers', `${p.provider}.json`), 'utf8')) as Record<string, unknown>;
      expect(file).toMatchObject(p);
      expect(Object.keys(file)).toEqual(['provider', 'display', 'website', 'group', 'aliases']);
    }
  });

  it('matches the seed README coverage counts', () => {
    const games = converted.games;
    expect(games.filter((g) => g.rtp_variants.length > 1)).toHaveLength(50);
    expect(games.filter((g) => g.volatility !== null)).toHaveLength(90);
    expect(games.filter((g) => g.max_win_x !== null)).toHaveLength(109);
    expect(games.filter((g) => g.release_year !== null)).toHaveLength(77);
  });

  it("history: the 133 first recorded at 1.0.0, the games added by the first sources at 1.1.0, by the next two at 1.2.0; four merged away at 1.3.0; the licensed casino's games at 2.0.0", () => {
    expect(shipped.meta).toMatchObject({ data_version: '2.0.0' });
    const first = new Map<string, string>();
    for (const h of shipped.history) if (h.field === 'stated_rtp' && h.from === null && !first.has(h.slug)) first.set(h.slug, h.data_version);
    expect([...first.values()].filter((v) => v === '1.0.0')).toHaveLength(133);
    expect([...first.values()].filter((v) => v === '1.1.0')).toHaveLength(1525);
    // Every game shipped now was added at one of the three versions.
    const shippedFirst = shipped.games.map((g) => first.get(g.canonical_slug));
    expect(shippedFirst.filter((v) => v === undefined)).toEqual([]);
    expect(shippedFirst.filter((v) => v === '1.2.0').length).toBeGreaterThan(5000);
    // 1.3.0 added nothing: it removed the four Reel Kingdom records merged into Pragmatic Play's (data/merged.json).
    const at13 = shipped.history.filter((h) => h.data_version === '1.3.0' && h.field === 'stated_rtp');
    expect(at13.map((h) => [h.slug, h.to, h.merged_into])).toEqual([
      ['big-bass-amazon-xtreme-reel-kingdom', null, 'big-bass-amazon-xtreme'],
      ['big-bass-splash-reel-kingdom', null, 'big-bass-splash'],
      ['club-tropicana-reel-kingdom', null, 'club-tropicana'],
      ['pizza-pizza-pizza-reel-kingdom', null, 'pizza-pizza-pizza'],
    ]);
    // 2.0.0 added the games a licensed casino's catalogue lists; slugs moved or merged into the record of the same game; three held back (Wild Melon, a lower rung of Play'n GO's ladder; Feathered Frenzy's two records, 97.00 and 96.30 from one origin).
    const at20 = shipped.history.filter((h) => h.data_version === '2.0.0' && h.field === 'stated_rtp');
    expect(at20.filter((h) => h.from === null).length).toBeGreaterThan(3500);
    const left = at20.filter((h) => h.to === null);
    // Slugs moved by the cleaning rules and merges name the record they went into; held-back games leave without one.
    expect(left.filter((h) => h.merged_into === undefined).map((h) => h.slug)).toEqual(['feathered-frenzy', 'feathered-frenzy-slot', 'wild-melon']);
    // Floating Dragon stays under its slug, now Pragmatic Play's record of the game (a licensed casino's line names it there).
    expect(left.find((h) => h.slug === 'floating-dragon')).toBeUndefined();
    expect(shipped.games.find((g) => g.canonical_slug === 'floating-dragon')?.provider).toBe('pragmatic-play');
    expect(left.find((h) => h.slug === '5-frozen-charms-megawaystm')?.merged_into).toBe('5-frozen-charms-megaways');
    const starburst = shipped.history.filter((h) => h.slug === 'starburst' && h.data_version === '1.0.0').map((h) => [h.field, h.to]);
    expect(starburst).toEqual([
      ['stated_rtp', 96.09],
      ['rtp_variants', [90.05, 96.09]],
    ]);
  });
});
