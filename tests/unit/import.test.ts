// Seed import: variant kinds, row problems, and the round trip from the hand-checked seed (kept in
// data/sources with its README) to the shipped data/ files.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertRows, parseCsv, variantKinds, type CsvRow } from '../../src/registry/import.ts';
import { loadRegistry, type Registry } from '../../src/registry/load.ts';
import { toDataJson } from '../../src/registry/write.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The hand-checked seed the shipped data/ was imported from (data/sources/seed-README.md says where it comes from). */
const SEED_DIR = path.join(repoRoot, 'data/sources');

const HEADER = 'canonical_slug,canonical_name,provider,provider_display,game_type,stated_rtp,rtp_variants,volatility,max_win_x,release_year,source_url,evidence_url,checked_at,notes';
const PROVIDERS: CsvRow[] = [{ provider: 'playngo', provider_display: "Play'n GO", website: 'https://www.playngo.com' }];
const row = (over: Partial<CsvRow> = {}): CsvRow => ({
  canonical_slug: 'book-of-dead',
  canonical_name: 'Book of Dead',
  provider: 'playngo',
  provider_display: "Play'n GO",
  game_type: 'slot',
  stated_rtp: '96.21',
  rtp_variants: '84.18;94.25;96.21',
  volatility: 'high',
  max_win_x: '5000',
  release_year: '2016',
  source_url: 'https://www.playngo.com/games/book-of-dead',
  evidence_url: 'https://slotsscience.com/lab-book-of-dead.html',
  checked_at: '2026-11-21T00:00:00Z',
  notes: '',
  ...over,
});

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
    expect(games).toEqual([
      {
        canonical_slug: 'book-of-dead',
        canonical_name: 'Book of Dead',
        provider: 'playngo',
        game_type: 'slot',
        stated_rtp: 96.21,
        rtp_variants: [
          { rtp: 84.18, kind: 'operator_ladder' },
          { rtp: 94.25, kind: 'operator_ladder' },
          { rtp: 96.21, kind: 'standard' },
        ],
        volatility: 'high',
        max_win_x: 5000,
        release_year: null,
        source_url: 'https://www.playngo.com/games/book-of-dead',
        evidence_url: 'https://slotsscience.com/x.html',
        last_verified: '2026-11-21T00:00:00Z',
        notes: 'Ladder from slotsscience; "quoted", with comma',
      },
    ]);
  });

  it('uses the stated RTP as the only variant when none are listed', () => {
    const { games } = convertRows([row({ rtp_variants: '' })], PROVIDERS);
    expect(games[0]!.rtp_variants).toEqual([{ rtp: 96.21, kind: 'standard' }]);
  });

  it('reports every bad row with its CSV line and imports nothing from it', () => {
    const { games, problems } = convertRows([row(), row({ canonical_slug: 'Bad Slug', stated_rtp: '101' }), row({ release_year: '16', source_url: 'n/a' })], PROVIDERS);
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

describe('round trip: the seed CSVs → shipped data/', () => {
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

  it('matches the shipped files byte for byte', async () => {
    expect(shipped.games.map((g) => g.canonical_slug)).toEqual(converted.games.map((g) => g.canonical_slug).sort());
    for (const g of converted.games) {
      const text = await readFile(path.join(repoRoot, 'data/games', g.provider, `${g.canonical_slug}.json`), 'utf8');
      expect(text, g.canonical_slug).toBe(toDataJson(g));
    }
    for (const p of converted.providers) {
      expect(await readFile(path.join(repoRoot, 'data/providers', `${p.provider}.json`), 'utf8')).toBe(toDataJson(p));
    }
  });

  it('keeps stated_rtp, variants, volatility, max win, year, URLs, check date and notes of every row', () => {
    const bySlug = new Map(shipped.games.map((g) => [g.canonical_slug, g]));
    const displays = new Map(shipped.providers.map((p) => [p.provider, p.display]));
    for (const r of gameRows) {
      const g = bySlug.get(r.canonical_slug!);
      expect(g, r.canonical_slug).toBeDefined();
      if (g === undefined) continue;
      expect(g.canonical_name).toBe(r.canonical_name);
      expect(g.provider).toBe(r.provider);
      expect(displays.get(g.provider)).toBe(r.provider_display);
      expect(g.game_type).toBe(r.game_type);
      expect(String(g.stated_rtp)).toBe(String(Number(r.stated_rtp)));
      expect(g.rtp_variants.map((v) => v.rtp).join(';')).toBe(r.rtp_variants!.split(';').map((x) => String(Number(x))).join(';'));
      expect(g.rtp_variants.filter((v) => v.kind === 'standard').map((v) => v.rtp)).toEqual([g.stated_rtp]);
      expect(g.volatility ?? '').toBe(r.volatility);
      expect(g.max_win_x === null ? '' : String(g.max_win_x)).toBe(r.max_win_x);
      expect(g.release_year === null ? '' : String(g.release_year)).toBe(r.release_year);
      expect(g.source_url).toBe(r.source_url);
      expect(g.evidence_url).toBe(r.evidence_url);
      expect(g.last_verified).toBe(r.checked_at);
      expect(g.notes).toBe(r.notes);
    }
  });

  it('matches the seed README coverage counts', () => {
    const games = shipped.games;
    expect(games.filter((g) => g.rtp_variants.length > 1)).toHaveLength(50);
    expect(games.filter((g) => g.volatility !== null)).toHaveLength(90);
    expect(games.filter((g) => g.max_win_x !== null)).toHaveLength(109);
    expect(games.filter((g) => g.release_year !== null)).toHaveLength(77);
    const perProvider = Object.fromEntries(shipped.providers.map((p) => [p.provider, games.filter((g) => g.provider === p.provider).length]));
    expect(perProvider).toEqual({
      belatra: 1,
      bgaming: 16,
      endorphina: 15,
      hacksaw: 14,
      netent: 3,
      'nolimit-city': 6,
      playngo: 4,
      'pragmatic-play': 10,
      'push-gaming': 27,
      'relax-gaming': 3,
      wazdan: 33,
      yggdrasil: 1,
    });
  });

  it('ships a proper frozen 1.0.0: every game first recorded at 1.0.0, with from null', () => {
    expect(shipped.meta).toMatchObject({ data_version: '1.0.0', frozen_at: '2026-11-21T00:00:00Z' });
    expect(shipped.frozen?.data_version).toBe('1.0.0');
    expect(Object.keys(shipped.frozen?.games ?? {})).toHaveLength(133);
    expect(shipped.history).toHaveLength(266);
    expect(shipped.history.every((h) => h.data_version === '1.0.0' && h.frozen_at === '2026-11-21T00:00:00Z' && h.from === null)).toBe(true);
    const starburst = shipped.history.filter((h) => h.slug === 'starburst').map((h) => [h.field, h.to]);
    expect(starburst).toEqual([
      ['stated_rtp', 96.09],
      ['rtp_variants', [90.05, 96.09]],
    ]);
  });
});
