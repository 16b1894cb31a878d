// Validation rules of loadRegistry (what npm run data:check reports): one failing fixture per rule, exact messages.
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { toDataJson } from '../../src/lib/write.ts';
import { frozenStateOf } from '../../src/registry/freeze.ts';
import { loadRegistry } from '../../src/registry/load.ts';
import { formatProblems } from '../../src/registry/problems.ts';
import type { HistoryEntry } from '../../src/schemas/authoring.ts';
import {
  FIXTURE_GAMES,
  FIXTURE_META,
  FIXTURE_PROVIDERS,
  type FixtureOptions,
  fixtureGame,
  makeFixtureRegistry,
  removeFixtureDir,
} from '../fixtures/registry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map(removeFixtureDir));
});

async function fixture(options: FixtureOptions = {}): Promise<string> {
  const dir = await makeFixtureRegistry(options);
  made.push(dir);
  return dir;
}

/** The problems loadRegistry reports for a fixture, one `file: field: reason` line each ([] when valid). */
async function problems(options: FixtureOptions): Promise<string[]> {
  const result = await loadRegistry(await fixture(options));
  return result.ok ? [] : formatProblems(result.problems).split('\n');
}

/** The default games with the first one replaced. */
const withFirst = (overrides: Record<string, unknown>) => ({ games: [fixtureGame(overrides), ...FIXTURE_GAMES.slice(1)] });
const FILE = 'games/aurora-games/book-of-aurora.json';

describe('the default fixture', () => {
  it('is a valid registry frozen at 1.0.0', async () => {
    const result = await loadRegistry(await fixture());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.registry.games.map((g) => g.canonical_slug)).toEqual([
      'blackjack-classic',
      'book-of-aurora',
      'deep-sea-bass',
      'fire-keno',
      'gem-mines',
      'lucky-scratch',
    ]);
    expect(result.registry.providers.map((p) => p.provider)).toEqual(['aurora-games', 'bluefin-studio', 'copper-reel']);
    expect(result.registry.history).toHaveLength(12);
    expect(result.registry.frozen?.data_version).toBe('1.0.0');
  });
});

describe('slug rules', () => {
  it('rejects a duplicate slug across providers', async () => {
    expect(await problems({ games: [...FIXTURE_GAMES, fixtureGame({ provider: 'bluefin-studio' })] })).toEqual([
      'games/bluefin-studio/book-of-aurora.json: canonical_slug: duplicate slug "book-of-aurora" (also in games/aurora-games/book-of-aurora.json)',
    ]);
  });

  it.each(['list', 'history', 'provider', 'providers', 'openapi', 'index'])('rejects the reserved slug %s', async (slug) => {
    expect(await problems(withFirst({ canonical_slug: slug }))).toEqual([
      `games/aurora-games/${slug}.json: canonical_slug: "${slug}" is reserved (it collides with a route)`,
    ]);
  });

  it.each(['Book-Of-Aurora', 'book_of_aurora', 'book--of-aurora', '-book-of-aurora', 'böok-of-aurora', 'book of aurora'])(
    'rejects the slug %j',
    async (slug) => {
      expect(await problems(withFirst({ canonical_slug: slug }))).toEqual([
        `games/aurora-games/${slug}.json: canonical_slug: must be lowercase ASCII letters and digits joined by single hyphens`,
      ]);
    },
  );

  it('rejects a provider key that is not lowercase-ascii-hyphen', async () => {
    expect(await problems({ providers: [...FIXTURE_PROVIDERS, { provider: 'Red_Fox', display: 'Red Fox', website: 'https://redfox.example' }] })).toEqual([
      'providers/Red_Fox.json: provider: must be lowercase ASCII letters and digits joined by single hyphens',
    ]);
  });
});

describe('RTP rules', () => {
  it('rejects a stated RTP of 0 or less', async () => {
    expect(await problems(withFirst({ stated_rtp: 0 }))).toEqual([`${FILE}: stated_rtp: must be greater than 0`]);
    expect(await problems(withFirst({ stated_rtp: -96.2 }))).toEqual([`${FILE}: stated_rtp: must be greater than 0`]);
  });

  it('rejects an RTP above 100, stated or variant', async () => {
    expect(await problems(withFirst({ stated_rtp: 100.5, rtp_variants: [{ rtp: 100.5, kind: 'standard' }] }))).toEqual([
      `${FILE}: stated_rtp: must be at most 100`,
      `${FILE}: rtp_variants.0.rtp: must be at most 100`,
    ]);
  });

  it('accepts exactly 100', async () => {
    expect(await problems(withFirst({ stated_rtp: 100, rtp_variants: [{ rtp: 100, kind: 'standard' }] }))).toEqual([]);
  });

  it('rejects a variant RTP of 0', async () => {
    expect(
      await problems(
        withFirst({
          rtp_variants: [
            { rtp: 0, kind: 'operator_ladder' },
            { rtp: 96.2, kind: 'standard' },
          ],
        }),
      ),
    ).toEqual([`${FILE}: rtp_variants.0.rtp: must be greater than 0`]);
  });

  it('rejects a non-numeric RTP', async () => {
    expect(await problems(withFirst({ stated_rtp: '96.2' }))).toEqual([`${FILE}: stated_rtp: Invalid input: expected number, received string`]);
  });

  it('rejects variants that are not strictly ascending', async () => {
    const rtp_variants = [
      { rtp: 94.2, kind: 'operator_ladder' },
      { rtp: 92.2, kind: 'operator_ladder' },
      { rtp: 96.2, kind: 'standard' },
    ];
    expect(await problems(withFirst({ rtp_variants }))).toEqual([`${FILE}: rtp_variants.1.rtp: variants must be strictly ascending (92.2 follows 94.2)`]);
    const repeated = [
      { rtp: 96.2, kind: 'operator_ladder' },
      { rtp: 96.2, kind: 'standard' },
    ];
    expect(await problems(withFirst({ rtp_variants: repeated }))).toEqual([
      `${FILE}: rtp_variants.1.rtp: variants must be strictly ascending (96.2 follows 96.2)`,
    ]);
  });

  it('rejects variants that do not contain the stated RTP', async () => {
    expect(await problems(withFirst({ stated_rtp: 96.3 }))).toEqual([`${FILE}: rtp_variants: must contain the stated RTP 96.3`]);
  });

  it('rejects an empty variant list', async () => {
    expect(await problems(withFirst({ rtp_variants: [] }))).toEqual([`${FILE}: rtp_variants: must list at least the stated RTP`]);
  });

  it('requires a jurisdiction code exactly on jurisdiction variants', async () => {
    const rtp_variants = [
      { rtp: 90, kind: 'jurisdiction' },
      { rtp: 92.2, kind: 'operator_ladder', jurisdiction: 'DE' },
      { rtp: 94.2, kind: 'jurisdiction', jurisdiction: 'de' },
      { rtp: 96.2, kind: 'standard' },
    ];
    expect(await problems(withFirst({ rtp_variants }))).toEqual([`${FILE}: rtp_variants.2.jurisdiction: must be an ISO 3166-1 alpha-2 code such as DE`]);
    expect(await problems(withFirst({ rtp_variants: [rtp_variants[0], rtp_variants[1], rtp_variants[3]] }))).toEqual([
      `${FILE}: rtp_variants.0.jurisdiction: is required when kind is "jurisdiction"`,
      `${FILE}: rtp_variants.1.jurisdiction: is only allowed when kind is "jurisdiction"`,
    ]);
  });

  it('rejects an unknown variant kind', async () => {
    expect(await problems(withFirst({ rtp_variants: [{ rtp: 96.2, kind: 'default' }] }))).toEqual([
      `${FILE}: rtp_variants.0.kind: Invalid option: expected one of "standard"|"operator_ladder"|"operator"|"bonus_buy"|"ante_bet"|"player_config"|"feature"|"jurisdiction"|"unknown"`,
    ]);
  });
});

describe('field rules', () => {
  it('rejects a game whose provider has no provider file', async () => {
    expect(await problems({ games: [...FIXTURE_GAMES, fixtureGame({ canonical_slug: 'orphan', provider: 'nosuch' })] })).toEqual([
      'games/nosuch/orphan.json: provider: unknown provider "nosuch" (no providers/nosuch.json)',
    ]);
  });

  it('rejects a bad game_type', async () => {
    expect(await problems(withFirst({ game_type: 'video-slot' }))).toEqual([
      `${FILE}: game_type: Invalid option: expected one of "slot"|"scratchcard"|"table"|"video_poker"|"instant"|"bingo"|"keno"`,
    ]);
  });

  it('rejects a bad volatility', async () => {
    expect(await problems(withFirst({ volatility: 'extreme' }))).toEqual([
      `${FILE}: volatility: Invalid option: expected one of "low"|"medium"|"high"|"very-high"`,
    ]);
  });

  it.each([999, 20211, 2021.5, 0])('rejects the release year %j', async (year) => {
    expect(await problems(withFirst({ release_year: year }))).toEqual([`${FILE}: release_year: must be a four-digit year`]);
  });

  it('rejects a release year given as a string', async () => {
    expect(await problems(withFirst({ release_year: '2021' }))).toEqual([`${FILE}: release_year: must be a four-digit year`]);
  });

  it('rejects a max win of zero', async () => {
    expect(await problems(withFirst({ max_win_x: 0 }))).toEqual([`${FILE}: max_win_x: must be greater than 0`]);
  });

  it.each(['not a url', 'ftp://aurora-games.example/x', 'https://', 'https://localhost/x', '/games/book-of-aurora'])('rejects the URL %j', async (url) => {
    expect(await problems(withFirst({ source_url: url, evidence_url: url }))).toEqual([
      `${FILE}: source_url: must be an absolute http(s) URL`,
      `${FILE}: evidence_url: must be an absolute http(s) URL`,
    ]);
  });

  it('rejects a malformed provider website', async () => {
    const providers = [{ ...FIXTURE_PROVIDERS[0]!, website: 'www.aurora-games.example' }, ...FIXTURE_PROVIDERS.slice(1)];
    // Its games are not also reported as having an unknown provider: the provider file's problem says it all.
    expect(await problems({ providers })).toEqual(['providers/aurora-games.json: website: must be an absolute http(s) URL']);
  });

  it.each(['2026-11-21', '2026-11-21T00:00:00', '2026-13-01T00:00:00Z', '21/11/2026', ''])('rejects the timestamp %j', async (ts) => {
    expect(await problems(withFirst({ last_verified: ts }))).toEqual([
      `${FILE}: last_verified: must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T00:00:00Z`,
    ]);
  });

  it('rejects an empty name', async () => {
    expect(await problems(withFirst({ canonical_name: '  ' }))).toEqual([`${FILE}: canonical_name: must not be empty`]);
  });

  it('rejects a missing field', async () => {
    const { notes: _n, ...game } = FIXTURE_GAMES[0]!;
    expect(await problems({ games: [game, ...FIXTURE_GAMES.slice(1)] })).toEqual([`${FILE}: notes: Invalid input: expected string, received undefined`]);
  });
});

describe('unknown keys', () => {
  it('rejects an unknown key in a game, naming it', async () => {
    expect(await problems(withFirst({ rtp: 96.2 }))).toEqual([`${FILE}: rtp: unknown key "rtp"`]);
  });

  it('lists several unknown keys at once', async () => {
    expect(await problems(withFirst({ rtp: 96.2, badges: [] }))).toEqual([`${FILE}: (file): unknown keys "rtp", "badges"`]);
  });

  it('rejects an unknown key inside a variant', async () => {
    const rtp_variants = [{ rtp: 96.2, kind: 'standard', label: 'default' }];
    expect(await problems(withFirst({ rtp_variants }))).toEqual([`${FILE}: rtp_variants.0.label: unknown key "label"`]);
  });

  it('rejects unknown keys in provider and registry files', async () => {
    const providers = [{ ...FIXTURE_PROVIDERS[0]!, country: 'MT' }, ...FIXTURE_PROVIDERS.slice(1)];
    expect(await problems({ providers, meta: { version: '1.0.0' } })).toEqual([
      'registry.json: version: unknown key "version"',
      'providers/aurora-games.json: country: unknown key "country"',
    ]);
  });
});

describe('registry.json rules', () => {
  it('rejects a version that is not dotted three-part, a bad timestamp and another licence', async () => {
    expect(await problems({ meta: { data_version: '1.0', frozen_at: 'yesterday', license: 'MIT' }, frozen: null, history: [] })).toEqual([
      'registry.json: data_version: must be a dotted three-part version such as 1.0.0',
      'registry.json: frozen_at: must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T00:00:00Z',
      'registry.json: license: Invalid input: expected "CC-BY-4.0"',
    ]);
  });

  it('rejects a missing registry.json', async () => {
    const dir = await fixture();
    await rm(path.join(dir, 'registry.json'));
    const result = await loadRegistry(dir);
    // Without registry.json the frozen state has nothing to be compared with, so nothing else is reported.
    expect(result.ok ? [] : formatProblems(result.problems).split('\n')).toEqual(['registry.json: (file): is missing']);
  });

  it('rejects a folder without providers', async () => {
    expect(await problems({ providers: [], games: [], frozen: null, history: [] })).toEqual(['providers/: (folder): holds no provider files']);
  });
});

describe('invalid JSON', () => {
  it('reports a game file that is not JSON', async () => {
    expect(await problems({ files: { [FILE]: '{"canonical_slug": "book-of-aurora",' } })).toEqual([
      `${FILE}: (file): is not valid JSON (Expected double-quoted property name in JSON at position 36 (line 1 column 37))`,
    ]);
  });

  it('reports registry.json and a provider file that are not JSON', async () => {
    expect(await problems({ files: { 'registry.json': '', 'providers/copper-reel.json': "{provider: 'copper-reel'}" } })).toEqual([
      'registry.json: (file): is not valid JSON (Unexpected end of JSON input)',
      `providers/copper-reel.json: (file): is not valid JSON (Expected property name or '}' in JSON at position 1 (line 1 column 2))`,
    ]);
  });

  it('reports a history line that is not JSON, with its line number', async () => {
    expect(await problems({ files: { 'history.jsonl': `${toDataJson({}).trim()}x\n` } })).toEqual([
      'history.jsonl:1: (line): is not valid JSON (Unexpected non-whitespace character after JSON at position 2 (line 1 column 3))',
    ]);
  });

  it('reports a frozen.json that is not JSON', async () => {
    expect(await problems({ files: { 'frozen.json': '[' } })).toEqual(['frozen.json: (file): is not valid JSON (Unexpected end of JSON input)']);
  });
});

describe('file path vs content', () => {
  it('rejects a slug that differs from the file name', async () => {
    expect(await problems({ files: { 'games/aurora-games/book-of-dawn.json': toDataJson(fixtureGame({ canonical_slug: 'book-of-dawn-deluxe' })) } })).toEqual([
      'games/aurora-games/book-of-dawn.json: canonical_slug: "book-of-dawn-deluxe" does not match the file name (expected "book-of-dawn")',
    ]);
  });

  it('rejects a provider that differs from the folder', async () => {
    expect(await problems({ files: { 'games/bluefin-studio/book-of-dawn.json': toDataJson(fixtureGame({ canonical_slug: 'book-of-dawn' })) } })).toEqual([
      'games/bluefin-studio/book-of-dawn.json: provider: "aurora-games" does not match the folder (expected "bluefin-studio")',
    ]);
  });

  it('rejects a provider file whose key differs from its name', async () => {
    expect(await problems({ files: { 'providers/aurora.json': toDataJson(FIXTURE_PROVIDERS[0]) } })).toEqual([
      'providers/aurora.json: provider: "aurora-games" does not match the file name (expected "aurora")',
    ]);
  });

  it('rejects files that are not at games/<provider>/<slug>.json', async () => {
    expect(await problems({ files: { 'games/loose.json': '{}', 'games/aurora-games/notes.txt': 'x', 'games/aurora-games/old/book.json': '{}' } })).toEqual([
      'games/aurora-games/notes.txt: (file): is not at games/<provider>/<slug>.json',
      'games/aurora-games/old/book.json: (file): is not at games/<provider>/<slug>.json',
      'games/loose.json: (file): is not at games/<provider>/<slug>.json',
    ]);
  });
});

describe('history and frozen state', () => {
  const at11 = '2026-12-01T00:00:00Z';
  const frozen11 = frozenStateOf(FIXTURE_GAMES, FIXTURE_PROVIDERS, '1.1.0', at11);
  const meta11 = { data_version: '1.1.0', frozen_at: at11 };
  const e = (data_version: string, frozen_at: string, over: Partial<HistoryEntry> = {}): HistoryEntry => ({
    data_version,
    frozen_at,
    slug: 'book-of-aurora',
    provider: 'aurora-games',
    field: 'stated_rtp',
    from: 96.1,
    to: 96.2,
    ...over,
  });

  it('accepts a log in version order (1.9.0 before 1.10.0)', async () => {
    const at = '2026-12-02T00:00:00Z';
    const history = [e('1.9.0', at11), e('1.10.0', at, { from: 96.2, to: 96.1 })];
    expect(
      await problems({ meta: { data_version: '1.10.0', frozen_at: at }, frozen: frozenStateOf(FIXTURE_GAMES, FIXTURE_PROVIDERS, '1.10.0', at), history }),
    ).toEqual([]);
  });

  it('rejects a log not in version order', async () => {
    expect(await problems({ meta: meta11, frozen: frozen11, history: [e('1.1.0', at11), e('1.0.0', FIXTURE_META.frozen_at)] })).toEqual([
      'history.jsonl:2: data_version: "1.0.0" follows "1.1.0" (entries must be in version order)',
    ]);
  });

  it('rejects 1.10.0 before 1.9.0 (numeric, not text, order)', async () => {
    const history = [e('1.10.0', at11), e('1.9.0', at11)];
    expect(
      await problems({ meta: { data_version: '1.10.0', frozen_at: at11 }, frozen: frozenStateOf(FIXTURE_GAMES, FIXTURE_PROVIDERS, '1.10.0', at11), history }),
    ).toEqual(['history.jsonl:2: data_version: "1.9.0" follows "1.10.0" (entries must be in version order)']);
  });

  it('rejects two frozen_at values for one version', async () => {
    expect(
      await problems({
        meta: meta11,
        frozen: frozen11,
        history: [e('1.1.0', at11), e('1.1.0', '2026-12-01T00:00:01Z', { field: 'rtp_variants', from: [96.1], to: [96.2] })],
      }),
    ).toEqual(['history.jsonl:2: frozen_at: "2026-12-01T00:00:01Z" differs from "2026-12-01T00:00:00Z" given earlier for 1.1.0']);
  });

  it('rejects an entry newer than registry.json', async () => {
    expect(await problems({ history: [e('1.1.0', at11)] })).toEqual([
      'history.jsonl:1: data_version: "1.1.0" is newer than registry.json data_version "1.0.0"',
    ]);
  });

  it('rejects from/to that do not fit the field, or are no change', async () => {
    const history = [
      e('1.0.0', FIXTURE_META.frozen_at, { from: [96.1], to: 96.2 }),
      e('1.0.0', FIXTURE_META.frozen_at, { field: 'rtp_variants', from: null, to: 96.2 }),
      e('1.0.0', FIXTURE_META.frozen_at, { from: null, to: null }),
      e('1.0.0', FIXTURE_META.frozen_at, { from: 96.2, to: 96.2 }),
    ];
    expect(await problems({ history })).toEqual([
      'history.jsonl:1: from: must be a number or null for field "stated_rtp"',
      'history.jsonl:2: to: must be an array of RTPs or null for field "rtp_variants"',
      'history.jsonl:3: to: from and to are both null',
      'history.jsonl:4: to: equals from (not a change)',
    ]);
  });

  it('rejects a history entry with a bad field and an unknown key', async () => {
    const raw = JSON.stringify({ ...e('1.0.0', FIXTURE_META.frozen_at), field: 'volatility', note: 'x' });
    expect(await problems({ files: { 'history.jsonl': `${raw}\n` } })).toEqual([
      'history.jsonl:1: field: Invalid option: expected one of "stated_rtp"|"rtp_variants"',
      'history.jsonl:1: note: unknown key "note"',
    ]);
  });

  it('rejects a history log without frozen.json', async () => {
    expect(await problems({ frozen: null })).toEqual(['frozen.json: (file): is missing although history.jsonl has entries (npm run data:freeze writes both)']);
  });

  it('accepts a registry that was never frozen (no history, no frozen.json)', async () => {
    expect(await problems({ frozen: null, history: [], meta: { data_version: '0.0.0' } })).toEqual([]);
  });

  it('rejects a registry.json version or time changed by hand', async () => {
    const frozen = frozenStateOf(FIXTURE_GAMES, FIXTURE_PROVIDERS, '1.0.0', FIXTURE_META.frozen_at);
    expect(await problems({ meta: { data_version: '1.0.1', frozen_at: '2026-11-22T00:00:00Z' }, frozen })).toEqual([
      'frozen.json: data_version: "1.0.0" does not match registry.json data_version "1.0.1" (only npm run data:freeze changes versions)',
      'frozen.json: frozen_at: "2026-11-21T00:00:00Z" does not match registry.json frozen_at "2026-11-22T00:00:00Z" (only npm run data:freeze changes it)',
    ]);
  });

  it('rejects a malformed frozen.json', async () => {
    const frozen = frozenStateOf(FIXTURE_GAMES, FIXTURE_PROVIDERS, '1.0.0', FIXTURE_META.frozen_at);
    const games = {
      ...frozen.games,
      Bad_Slug: frozen.games['gem-mines']!,
      'gem-mines': { ...frozen.games['gem-mines']!, snapshot_id: 'sha256:abc', stated_rtp: 0 },
    };
    expect(await problems({ files: { 'frozen.json': JSON.stringify({ ...frozen, games }) } })).toEqual([
      'frozen.json: games.gem-mines.stated_rtp: must be greater than 0',
      'frozen.json: games.gem-mines.snapshot_id: must be "sha256:" followed by 64 lowercase hex digits',
      'frozen.json: games.Bad_Slug: key must be lowercase ASCII letters and digits joined by single hyphens',
    ]);
  });
});

describe('several problems in several files', () => {
  it('lists every problem at once, in file order', async () => {
    const games = [
      fixtureGame({ stated_rtp: 101, game_type: 'video', extra: true }),
      fixtureGame({ canonical_slug: 'list', release_year: 21 }, FIXTURE_GAMES[2]),
      fixtureGame({ source_url: 'nope', last_verified: '2026-11-21' }, FIXTURE_GAMES[5]),
      ...FIXTURE_GAMES.slice(3, 5),
    ];
    expect(await problems({ games, meta: { license: 'CC0' }, files: { 'providers/copper-reel.json': '{', 'history.jsonl': '\nnot json\n' } })).toEqual([
      'registry.json: license: Invalid input: expected "CC-BY-4.0"',
      "providers/copper-reel.json: (file): is not valid JSON (Expected property name or '}' in JSON at position 1 (line 1 column 2))",
      `${FILE}: game_type: Invalid option: expected one of "slot"|"scratchcard"|"table"|"video_poker"|"instant"|"bingo"|"keno"`,
      `${FILE}: stated_rtp: must be at most 100`,
      `${FILE}: extra: unknown key "extra"`,
      'games/bluefin-studio/list.json: release_year: must be a four-digit year',
      'games/bluefin-studio/list.json: canonical_slug: "list" is reserved (it collides with a route)',
      'games/copper-reel/gem-mines.json: source_url: must be an absolute http(s) URL',
      'games/copper-reel/gem-mines.json: last_verified: must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T00:00:00Z',
      'history.jsonl:2: (line): is not valid JSON (Unexpected token \'o\', "not json" is not valid JSON)',
    ]);
  });
});

describe('npm run data:check', () => {
  const run = promisify(execFile);
  const check = (dir: string) =>
    run(process.execPath, [path.join(repoRoot, 'scripts/data-check.ts')], { cwd: repoRoot, env: { ...process.env, RTP_DATA_DIR: dir } }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
    );

  it('prints a short summary and exits 0 on valid data', async () => {
    const dir = await fixture();
    const r = await check(dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `data:check: OK: 6 games, 3 providers, data_version 1.0.0 (frozen_at 2026-11-21T00:00:00Z), 12 history entries in ${path.relative(repoRoot, dir)}\n`,
    );
  });

  it('prints every problem and a count line, and exits 1 once', async () => {
    const dir = await fixture({ ...withFirst({ stated_rtp: 0 }), meta: { license: 'MIT' } });
    const r = await check(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        'registry.json: license: Invalid input: expected "CC-BY-4.0"',
        `${FILE}: stated_rtp: must be greater than 0`,
        `data:check: 2 problems in 2 files under ${path.relative(repoRoot, dir)}`,
        '',
      ].join('\n'),
    );
  });
});
