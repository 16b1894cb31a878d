// Operators: data/operators/ validated, and each game's operator builds derived from two small operator sources.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBundle } from '../../src/registry/bundle.ts';
import { loadRegistry } from '../../src/registry/load.ts';
import { higherReason } from '../../src/registry/operators.ts';
import type { GameFile, OperatorFile } from '../../src/schemas/authoring.ts';
import { FIXTURE_GAMES, makeFixtureRegistry, removeFixtureDir } from '../fixtures/registry.ts';

const OP_A: OperatorFile = {
  operator: 'casino-a',
  display: 'Casino A',
  market: 'NL',
  licence: 'Dutch-licensed',
  licensing_authority: null,
  website: null,
  sources: [{ file: 'sources/op-a.jsonl', pinned_at: '2026-11-28T00:00:00Z' }],
};
const OP_B: OperatorFile = {
  operator: 'casino-b',
  display: 'Casino B',
  market: null,
  licence: null,
  licensing_authority: null,
  website: 'https://casino-b.example',
  sources: [{ file: 'sources/op-b.jsonl', pinned_at: '2026-11-20T00:00:00Z' }],
};

const line = (name: string, rtp: string, file: string, index: number) => JSON.stringify({ name, rtp, file, index });
const src = (file: string, lineNo: number, rtp: number) => ({
  kind: 'operator' as const,
  via: null,
  url: `https://example.org/${file}`,
  checked_at: null,
  stated_rtp: rtp,
  rtp_variants: [rtp],
  file,
  line: lineNo,
});

const book = FIXTURE_GAMES.find((g) => g.canonical_slug === 'book-of-aurora')!;
const scratch = FIXTURE_GAMES.find((g) => g.canonical_slug === 'lucky-scratch')!;
const REASON = 'Casino A runs a 96 build; the stated RTP stays 95 because no rule of the provider makes it the default.';
const GAMES: GameFile[] = [
  // Casino A at the stated figure, Casino B at the 94.2 ladder rung.
  { ...book, rtp_variants: book.rtp_variants.filter((v) => v.rtp >= 94), sources: [src('sources/op-a.jsonl', 1, 96.2), src('sources/op-b.jsonl', 1, 94.2)] },
  // Casino B at the stated figure, Casino A above it.
  { ...scratch, notes: `One line first. ${REASON}`, sources: [src('sources/op-b.jsonl', 2, 95), src('sources/op-a.jsonl', 2, 96)] },
];

let dir: string;
beforeAll(async () => {
  dir = await makeFixtureRegistry({
    games: GAMES,
    history: [],
    frozen: null,
    files: {
      'operators/casino-a.json': JSON.stringify(OP_A),
      'operators/casino-b.json': JSON.stringify(OP_B),
      'sources/op-a.jsonl': `${line('Book of Aurora', '96.2', 'data/a.json', 0)}\n${line('Lucky Scratch', '96', 'data/a.json', 1)}\n`,
      'sources/op-b.jsonl': `${line('Book of Aurora', '94.2', 'b/cat.json', 7)}\n${line('Lucky Scratch', '95', 'b/cat.json', 8)}\n`,
    },
  });
});
afterAll(() => removeFixtureDir(dir));

describe('operators', () => {
  it('a second operator is one more operator file and source: each game carries every build, classified', async () => {
    const result = await loadRegistry(dir);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.registry.operators!.map((o) => o.operator)).toEqual(['casino-a', 'casino-b']);
    const records = new Map(makeBundle(result.registry).records.map((r) => [r.canonical_slug, r]));
    const b = records.get('book-of-aurora')!.operators;
    expect(b.map((o) => [o.operator, o.rtp, o.build, o.variant, o.reason])).toEqual([
      ['casino-a', 96.2, 'top', null, null],
      ['casino-b', 94.2, 'lower', { rtp: 94.2, kind: 'operator_ladder' }, null],
    ]);
    expect(b[1]!.source).toEqual({
      file: 'sources/op-b.jsonl',
      line: 1,
      catalogue_file: 'b/cat.json',
      index: 7,
      url: 'https://example.org/sources/op-b.jsonl',
      pinned_at: '2026-11-20T00:00:00Z',
    });
    expect(b[0]!.display).toBe('Casino A');
    expect(b[1]!.market).toBeNull();
    const s = records.get('lucky-scratch')!.operators;
    expect(s.map((o) => [o.operator, o.build, o.reason])).toEqual([
      ['casino-b', 'top', null],
      ['casino-a', 'higher', REASON],
    ]);
  });

  it('a game with no operator line carries an empty array', async () => {
    const dir2 = await makeFixtureRegistry();
    try {
      const result = await loadRegistry(dir2);
      if (!result.ok) throw new Error(JSON.stringify(result.problems));
      expect(makeBundle(result.registry).records.every((r) => Array.isArray(r.operators) && r.operators.length === 0)).toBe(true);
    } finally {
      await removeFixtureDir(dir2);
    }
  });

  it('rejects an operator whose key is not its file name, a source claimed twice, and unknown keys', async () => {
    const bad = await makeFixtureRegistry({
      files: {
        'operators/casino-a.json': JSON.stringify(OP_A),
        'operators/casino-c.json': JSON.stringify({ ...OP_A, operator: 'casino-c' }),
        'operators/wrong.json': JSON.stringify(OP_B),
        'operators/extra.json': JSON.stringify({ ...OP_B, operator: 'extra', licence_number: '1' }),
      },
    });
    try {
      const result = await loadRegistry(bad);
      expect(result.ok).toBe(false);
      const problems = result.ok ? [] : result.problems.map((p) => `${p.file} ${p.field}`);
      expect(problems).toEqual(expect.arrayContaining(['operators/casino-c.json sources.0.file', 'operators/wrong.json operator']));
      expect(problems.some((p) => p.startsWith('operators/extra.json'))).toBe(true);
    } finally {
      await removeFixtureDir(bad);
    }
  });

  it('rejects a pinned date that is not the one sources/sources.json gives the file', async () => {
    const bad = await makeFixtureRegistry({
      files: {
        'operators/casino-a.json': JSON.stringify(OP_A),
        'sources/sources.json': JSON.stringify({
          format: 1,
          sources: [{ file: 'op-a.jsonl', format: 'operator-catalogue', title: 'A', pinned_at: '2026-11-27T00:00:00Z' }],
        }),
      },
    });
    try {
      const result = await loadRegistry(bad);
      const problems = result.ok ? [] : result.problems.map((p) => `${p.file} ${p.field}`);
      expect(problems).toContain('operators/casino-a.json sources.0.pinned_at');
    } finally {
      await removeFixtureDir(bad);
    }
  });

  it('the reason for a higher build is the sentence saying why the stated RTP stays', () => {
    expect(higherReason(`First. ${REASON} Later.`)).toBe(REASON);
    expect(higherReason('')).toBeNull();
    expect(higherReason('Only this.')).toBe('Only this.');
  });
});
