// Freeze logic: version ordering and bumps, the frozen state, history diffing and refusals.
import { describe, expect, it } from 'vitest';
import { toGameRecord } from '../../src/registry/derive.ts';
import { appendHistory, diffFrozen, frozenJson, frozenStateOf, historyJsonl, planFreeze } from '../../src/registry/freeze.ts';
import type { Registry } from '../../src/registry/load.ts';
import { bumpVersion, compareVersions } from '../../src/registry/version.ts';
import { FrozenFileSchema, type GameFile, HistoryEntrySchema } from '../../src/schemas/authoring.ts';
import { FIXTURE_GAMES, FIXTURE_META, FIXTURE_PROVIDERS } from '../fixtures/registry.ts';

const AT1 = FIXTURE_META.frozen_at;
const AT2 = '2026-12-01T00:00:00Z';
const v1 = frozenStateOf(FIXTURE_GAMES, FIXTURE_PROVIDERS, '1.0.0', AT1);

function registryWith(games: GameFile[], frozen = v1, meta = FIXTURE_META): Registry {
  return { dir: '/nowhere', meta, providers: FIXTURE_PROVIDERS, games, history: diffFrozen(null, v1), frozen };
}

const replace = (slug: string, change: Partial<GameFile>): GameFile[] => FIXTURE_GAMES.map((g) => (g.canonical_slug === slug ? { ...g, ...change } : g));
const nextState = (games: GameFile[], version = '1.1.0') => frozenStateOf(games, FIXTURE_PROVIDERS, version, AT2);

describe('compareVersions and bumpVersion', () => {
  it('orders numerically, part by part', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBeGreaterThan(0);
    expect(compareVersions('1.9.0', '1.10.0')).toBeLessThan(0);
    expect(compareVersions('2.0.0', '1.99.99')).toBeGreaterThan(0);
    expect(compareVersions('1.0.10', '1.0.9')).toBeGreaterThan(0);
    expect(compareVersions('1.2.3', '1.2.3')).toBe(0);
    expect(['1.10.0', '1.2.0', '0.9.1', '1.9.0'].sort(compareVersions)).toEqual(['0.9.1', '1.2.0', '1.9.0', '1.10.0']);
  });

  it('bumps patch, minor and major, resetting the lower parts', () => {
    expect(bumpVersion('1.9.9', 'patch')).toBe('1.9.10');
    expect(bumpVersion('1.9.9', 'minor')).toBe('1.10.0');
    expect(bumpVersion('1.9.9', 'major')).toBe('2.0.0');
    expect(bumpVersion('0.0.0', 'major')).toBe('1.0.0');
  });
});

describe('frozenStateOf', () => {
  it('records provider, RTP facts and the derived snapshot_id per slug, slugs sorted', () => {
    expect(FrozenFileSchema.parse(v1)).toEqual(v1);
    expect(Object.keys(v1.games)).toEqual(['blackjack-classic', 'book-of-aurora', 'deep-sea-bass', 'fire-keno', 'gem-mines', 'lucky-scratch']);
    const provider = FIXTURE_PROVIDERS.find((p) => p.provider === 'bluefin-studio')!;
    const game = FIXTURE_GAMES.find((g) => g.canonical_slug === 'deep-sea-bass')!;
    expect(v1.games['deep-sea-bass']).toEqual({
      provider: 'bluefin-studio',
      stated_rtp: 96.71,
      rtp_variants: [90, 94.01, 96.71, 96.9],
      snapshot_id: toGameRecord(game, provider).snapshot_id,
    });
    expect(v1.data_version).toBe('1.0.0');
    expect(v1.frozen_at).toBe(AT1);
  });

  it('serialises one line per game and parses back to the same state', () => {
    const text = frozenJson(v1);
    expect(FrozenFileSchema.parse(JSON.parse(text))).toEqual(v1);
    const lines = text.split('\n');
    expect(lines.slice(0, 4)).toEqual(['{', '  "data_version": "1.0.0",', '  "frozen_at": "2026-11-21T00:00:00Z",', '  "games": {']);
    expect(lines[4]).toBe(
      `    "blackjack-classic": {"provider":"bluefin-studio","stated_rtp":99.5,"rtp_variants":[99.5],"snapshot_id":"${v1.games['blackjack-classic']!.snapshot_id}"},`,
    );
    expect(lines).toHaveLength(4 + 6 + 3);
    expect(text.endsWith('  }\n}\n')).toBe(true);
    expect(frozenJson({ ...v1, games: {} })).toBe('{\n  "data_version": "1.0.0",\n  "frozen_at": "2026-11-21T00:00:00Z",\n  "games": {}\n}\n');
  });
});

describe('diffFrozen', () => {
  it('gives no entries when nothing changed', () => {
    expect(diffFrozen(v1, nextState(FIXTURE_GAMES))).toEqual([]);
  });

  it('gives no entries for a change outside the RTP fields (it shows in snapshot_id only)', () => {
    const next = nextState(replace('gem-mines', { notes: 'Rules page checked again.' }));
    expect(diffFrozen(v1, next)).toEqual([]);
    expect(next.games['gem-mines']!.snapshot_id).not.toBe(v1.games['gem-mines']!.snapshot_id);
    expect(next.games['fire-keno']!.snapshot_id).toBe(v1.games['fire-keno']!.snapshot_id);
  });

  it('records a changed stated RTP (and the variants that carry it)', () => {
    const next = nextState(replace('gem-mines', { stated_rtp: 96.5, rtp_variants: [{ rtp: 96.5, kind: 'standard' }] }));
    expect(diffFrozen(v1, next)).toEqual([
      { data_version: '1.1.0', frozen_at: AT2, slug: 'gem-mines', provider: 'copper-reel', field: 'stated_rtp', from: 97, to: 96.5 },
      { data_version: '1.1.0', frozen_at: AT2, slug: 'gem-mines', provider: 'copper-reel', field: 'rtp_variants', from: [97], to: [96.5] },
    ]);
  });

  it('records changed variants alone when the stated RTP stayed', () => {
    const next = nextState(
      replace('fire-keno', {
        rtp_variants: [
          { rtp: 90, kind: 'operator_ladder' },
          { rtp: 92, kind: 'operator_ladder' },
          { rtp: 94.5, kind: 'standard' },
        ],
      }),
    );
    expect(diffFrozen(v1, next)).toEqual([
      { data_version: '1.1.0', frozen_at: AT2, slug: 'fire-keno', provider: 'copper-reel', field: 'rtp_variants', from: [92, 94.5], to: [90, 92, 94.5] },
    ]);
  });

  it('gives a game that leaves the reason the ingest held it back for, on both entries, and writes it last', () => {
    const next = nextState(FIXTURE_GAMES.filter((g) => g.canonical_slug !== 'gem-mines'));
    const why = 'held back: sources of one rank state defaults 98.08 and 95.03';
    const entries = diffFrozen(v1, next, new Map([['gem-mines', why]]));
    expect(entries.map((e) => [e.field, e.to, e.reason])).toEqual([
      ['stated_rtp', null, why],
      ['rtp_variants', null, why],
    ]);
    expect(historyJsonl(entries).split('\n')[0]).toBe(
      `{"data_version":"1.1.0","frozen_at":"${AT2}","slug":"gem-mines","provider":"copper-reel","field":"stated_rtp","from":97,"to":null,"reason":"${why}"}`,
    );
    // Without a reason the entry is as before.
    expect(diffFrozen(v1, next)[0]).not.toHaveProperty('reason');
  });

  it('gives a game merged into another record the slug it went into, on both entries, after the reason', () => {
    const next = nextState(FIXTURE_GAMES.filter((g) => g.canonical_slug !== 'gem-mines'));
    const why = 'merged into book-of-aurora: the same game';
    const entries = diffFrozen(v1, next, new Map([['gem-mines', why]]), new Map([['gem-mines', 'book-of-aurora']]));
    expect(entries.map((e) => [e.field, e.to, e.merged_into])).toEqual([
      ['stated_rtp', null, 'book-of-aurora'],
      ['rtp_variants', null, 'book-of-aurora'],
    ]);
    expect(historyJsonl(entries).split('\n')[0]).toBe(
      `{"data_version":"1.1.0","frozen_at":"${AT2}","slug":"gem-mines","provider":"copper-reel","field":"stated_rtp","from":97,"to":null,"reason":"${why}","merged_into":"book-of-aurora"}`,
    );
    expect(diffFrozen(v1, next, new Map([['gem-mines', why]]))[0]).not.toHaveProperty('merged_into');
  });

  it('ignores a change of variant kind only (the RTP figures are the same)', () => {
    const next = nextState(
      replace('fire-keno', {
        rtp_variants: [
          { rtp: 92, kind: 'unknown' },
          { rtp: 94.5, kind: 'standard' },
        ],
      }),
    );
    expect(diffFrozen(v1, next)).toEqual([]);
  });

  it('records added games with from null and removed games with to null', () => {
    const added: GameFile = {
      ...FIXTURE_GAMES[5]!,
      canonical_slug: 'crystal-mines',
      canonical_name: 'Crystal Mines',
      stated_rtp: 96,
      rtp_variants: [{ rtp: 96, kind: 'standard' }],
    };
    const games = [...FIXTURE_GAMES.filter((g) => g.canonical_slug !== 'lucky-scratch'), added];
    expect(diffFrozen(v1, nextState(games))).toEqual([
      { data_version: '1.1.0', frozen_at: AT2, slug: 'crystal-mines', provider: 'copper-reel', field: 'stated_rtp', from: null, to: 96 },
      { data_version: '1.1.0', frozen_at: AT2, slug: 'crystal-mines', provider: 'copper-reel', field: 'rtp_variants', from: null, to: [96] },
      { data_version: '1.1.0', frozen_at: AT2, slug: 'lucky-scratch', provider: 'aurora-games', field: 'stated_rtp', from: 95, to: null },
      { data_version: '1.1.0', frozen_at: AT2, slug: 'lucky-scratch', provider: 'aurora-games', field: 'rtp_variants', from: [95], to: null },
    ]);
  });

  it('treats the first freeze as every game added, sorted by slug, each entry valid', () => {
    const entries = diffFrozen(null, v1);
    expect(entries).toHaveLength(12);
    expect(entries.every((e) => e.from === null && e.data_version === '1.0.0' && e.frozen_at === AT1)).toBe(true);
    expect(entries.map((e) => `${e.slug}/${e.field}`).slice(0, 4)).toEqual([
      'blackjack-classic/stated_rtp',
      'blackjack-classic/rtp_variants',
      'book-of-aurora/stated_rtp',
      'book-of-aurora/rtp_variants',
    ]);
    for (const e of entries) expect(HistoryEntrySchema.parse(e)).toEqual(e);
  });

  it('writes history lines with the schema key order', () => {
    const [first] = diffFrozen(null, v1);
    expect(historyJsonl([first!])).toBe(
      '{"data_version":"1.0.0","frozen_at":"2026-11-21T00:00:00Z","slug":"blackjack-classic","provider":"bluefin-studio","field":"stated_rtp","from":null,"to":99.5}\n',
    );
    expect(historyJsonl([])).toBe('');
    expect(appendHistory('a\n', [first!]).startsWith('a\n{"data_version"')).toBe(true);
    expect(appendHistory('a', [first!]).startsWith('a\n{"data_version"')).toBe(true);
    expect(appendHistory('', [])).toBe('');
  });
});

describe('planFreeze', () => {
  const changed = replace('book-of-aurora', {
    stated_rtp: 96.3,
    rtp_variants: [
      { rtp: 94.2, kind: 'operator_ladder' },
      { rtp: 96.3, kind: 'standard' },
    ],
  });

  it('stamps the new version and time and diffs against the previous frozen state', () => {
    const result = planFreeze(registryWith(changed), { version: '1.1.0', at: AT2 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.plan.meta).toEqual({ ...FIXTURE_META, data_version: '1.1.0', frozen_at: AT2 });
    expect(result.plan.frozen.data_version).toBe('1.1.0');
    expect(result.plan.frozen.games['book-of-aurora']!.stated_rtp).toBe(96.3);
    expect(result.plan.entries.map((e) => [e.field, e.from, e.to])).toEqual([
      ['stated_rtp', 96.2, 96.3],
      ['rtp_variants', [88.1, 92.2, 94.2, 96.2], [94.2, 96.3]],
    ]);
    expect(result.plan.counts).toEqual({ added: 0, removed: 0, changed: 1 });
    expect(result.plan.warnings).toEqual([]);
  });

  it('notes, without refusing, games added or removed under a patch version', () => {
    const games = [...FIXTURE_GAMES.slice(1), { ...FIXTURE_GAMES[0]!, canonical_slug: 'book-of-aurora-deluxe' }];
    const patch = planFreeze(registryWith(games), { bump: 'patch', at: AT2 });
    expect(patch.ok && patch.plan.warnings).toEqual(['1 game(s) added and 1 removed under a patch version: the policy asks for at least a minor bump']);
    const minor = planFreeze(registryWith(games), { bump: 'minor', at: AT2 });
    expect(minor.ok && minor.plan.warnings).toEqual([]);
    expect(minor.ok && minor.plan.counts).toEqual({ added: 1, removed: 1, changed: 0 });
  });

  it.each([
    ['patch', '1.0.1'],
    ['minor', '1.1.0'],
    ['major', '2.0.0'],
  ])('bumps %s from the current data_version', (bump, version) => {
    const result = planFreeze(registryWith(changed), { bump, at: AT2 });
    expect(result.ok && result.plan.meta.data_version).toBe(version);
  });

  it('accepts 1.10.0 after 1.9.0', () => {
    const meta = { ...FIXTURE_META, data_version: '1.9.0' };
    const result = planFreeze(registryWith(changed, { ...v1, data_version: '1.9.0' }, meta), { version: '1.10.0', at: AT2 });
    expect(result.ok && result.plan.entries[0]!.data_version).toBe('1.10.0');
  });

  it('diffs against nothing before the first freeze (no frozen state)', () => {
    const registry: Registry = {
      dir: '/nowhere',
      meta: { ...FIXTURE_META, data_version: '0.0.0' },
      providers: FIXTURE_PROVIDERS,
      games: FIXTURE_GAMES,
      history: [],
    };
    const result = planFreeze(registry, { version: '1.0.0', at: AT1 });
    expect(result.ok && result.plan.entries).toEqual(diffFrozen(null, v1));
    expect(result.ok && result.plan.frozen).toEqual(v1);
    expect(result.ok && result.plan.counts).toEqual({ added: 6, removed: 0, changed: 0 });
  });

  it.each([
    [{ version: '1.0.0', at: AT2 }, 'version 1.0.0 is not greater than the current data_version 1.0.0'],
    [{ version: '0.9.9', at: AT2 }, 'version 0.9.9 is not greater than the current data_version 1.0.0'],
    [{ version: '0.10.0', at: AT2 }, 'version 0.10.0 is not greater than the current data_version 1.0.0'],
    [{ version: '1.1', at: AT2 }, '--version "1.1": must be a dotted three-part version such as 1.0.0'],
    [{ version: 'v1.1.0', at: AT2 }, '--version "v1.1.0": must be a dotted three-part version such as 1.0.0'],
    [{ version: '01.1.0', at: AT2 }, '--version "01.1.0": must be a dotted three-part version such as 1.0.0'],
    [{ bump: 'huge', at: AT2 }, '--bump "huge": must be patch, minor or major'],
    [{ version: '1.1.0', bump: 'minor', at: AT2 }, 'give either --version or --bump, not both'],
    [{ at: AT2 }, 'give --version X.Y.Z or --bump patch|minor|major'],
    [{ version: '1.1.0', at: '2026-12-01' }, '--at "2026-12-01": must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T00:00:00Z'],
    [{ version: '1.1.0', at: '2026-11-20T23:59:59Z' }, '--at 2026-11-20T23:59:59Z is earlier than the current frozen_at 2026-11-21T00:00:00Z'],
  ])('refuses %j', (request, error) => {
    expect(planFreeze(registryWith(changed), request)).toEqual({ ok: false, error });
  });

  it('accepts a freeze time equal to the current one', () => {
    expect(planFreeze(registryWith(changed), { version: '1.0.1', at: AT1 }).ok).toBe(true);
  });
});
