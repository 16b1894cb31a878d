// The provenance rules data:check applies: the first source states the published RTP, every
// published figure is stated by a source, every source entry's figures stand on the line it names.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lineStates, provenanceProblems } from '../../src/registry/provenance.ts';
import type { GameFile } from '../../src/schemas/authoring.ts';
import { FIXTURE_GAMES } from '../fixtures/registry.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rtp-prov-'));
mkdirSync(path.join(dir, 'sources'));
writeFileSync(path.join(dir, 'sources/a.jsonl'), '{"name": "Book of Aurora", "rtp": 96.2, "rtp_variants": [94.1, 96.2]}\n{"name": "Other", "rtp": 95}\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base: GameFile = {
  ...FIXTURE_GAMES[0]!,
  canonical_name: 'Book of Aurora',
  stated_rtp: 96.2,
  rtp_variants: [
    { rtp: 94.1, kind: 'operator_ladder' },
    { rtp: 96.2, kind: 'standard' },
  ],
  sources: [
    { kind: 'catalogue', url: 'https://a.example/x', checked_at: null, stated_rtp: 96.2, rtp_variants: [94.1, 96.2], file: 'sources/a.jsonl', line: 1 },
  ],
};
const check = (game: GameFile) => provenanceProblems(dir, [{ file: 'games/p/x.json', game }]).map((p) => `${p.field}: ${p.reason}`);

describe('provenance', () => {
  it('accepts a game whose figures stand on the cited line', () => {
    expect(check(base)).toEqual([]);
  });

  it('refuses a published figure no source states, and a first source that states another', () => {
    expect(
      check({
        ...base,
        stated_rtp: 96.3,
        rtp_variants: [
          { rtp: 94.1, kind: 'operator_ladder' },
          { rtp: 96.3, kind: 'standard' },
        ],
      }),
    ).toEqual([
      'sources.0.stated_rtp: 96.2 is not the published stated_rtp 96.3 (the first source states it)',
      'rtp_variants.1.rtp: 96.3 is stated by none of the sources',
    ]);
  });

  it('refuses an entry whose figures are not on its line, a line naming another game, a missing line or file', () => {
    const entry = base.sources[0]!;
    expect(check({ ...base, sources: [{ ...entry, rtp_variants: [94.1, 96.2, 97] }] })).toEqual([
      'sources.0.rtp_variants: 97 does not appear on sources/a.jsonl:1',
    ]);
    expect(check({ ...base, sources: [{ ...entry, line: 2 }] })).toEqual([
      'sources.0: sources/a.jsonl:2 does not name "Book of Aurora"',
      'sources.0.rtp_variants: 94.1 does not appear on sources/a.jsonl:2',
      'sources.0.rtp_variants: 96.2 does not appear on sources/a.jsonl:2',
    ]);
    expect(check({ ...base, sources: [{ ...entry, line: 9 }] })).toEqual(['sources.0: sources/a.jsonl has no line 9']);
    expect(check({ ...base, sources: [{ ...entry, file: 'sources/b.jsonl' }] })).toEqual(['sources.0: sources/b.jsonl does not exist']);
  });

  it('reads a figure as a number of its own, in the forms a source writes it', () => {
    expect(lineStates('"rtp": "96.20"', 96.2)).toBe(true);
    expect(lineStates('"rtp": 96', 96)).toBe(true);
    expect(lineStates('196.21', 96.21)).toBe(false);
    expect(lineStates('96.215', 96.21)).toBe(false);
  });
});
