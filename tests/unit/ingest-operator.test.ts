// A licensed operator's catalogue as a source (src/ingest/adapters/operator.ts, decide in
// src/ingest/merge.ts): its figure is a build that casino runs; the rules on small sets of facts,
// then on the real lines of data/sources/operator-711nl.jsonl.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { operatorAdapter } from '../../src/ingest/adapters/operator.ts';
import { decide, OPERATOR_ONLY_NOTE } from '../../src/ingest/decide.ts';
import { assignPartners, type IngestResult, ingestSources } from '../../src/ingest/ingest.ts';
import { nameKey } from '../../src/ingest/normalise.ts';
import { providerTable } from '../../src/ingest/providers.ts';
import type { SourceFact } from '../../src/ingest/source.ts';
import { sourceFact as fact } from '../fixtures/facts.ts';

const op = (rtp: number, over: Partial<SourceFact> = {}) => fact({ tier: 'operator', stated_rtp: rtp, file: 'sources/op', line: 9, ...over });

describe('the operator rules', () => {
  it('reads a line: the figure as written, the studio file as the label, the file at the pinned commit as the citation', () => {
    const line = {
      name: 'Fortune Surge',
      provider: 'booming_games',
      rtp: '94',
      file: 'data/booming_games_711_catalog.json',
      index: 1,
      repo: 'mwhooo/slotselector',
      commit: 'b4a9ed62cdfd8b1614117ac4c2aea0b48b44f661',
    };
    const { facts, unmapped } = operatorAdapter.read(
      [JSON.stringify(line), JSON.stringify({ ...line, rtp: null }), JSON.stringify({ ...line, commit: 'main' })].join('\n'),
      'sources/o.jsonl',
    );
    expect(facts.map((f) => [f.tier, f.providerName, f.stated_rtp, f.url])).toEqual([
      [
        'operator',
        'booming_games',
        94,
        'https://github.com/mwhooo/slotselector/blob/b4a9ed62cdfd8b1614117ac4c2aea0b48b44f661/data/booming_games_711_catalog.json',
      ],
    ]);
    expect(unmapped.map((u) => [u.line, u.reason])).toEqual([
      [2, 'rtp null is not a percent figure'],
      [3, 'no repository, commit and file to cite'],
    ]);
  });

  it('equal: a second origin for the figure; lower: a variant of kind operator', () => {
    const same = decide([op(96), fact()]);
    expect(same.ok && [same.winner.tier, same.winner.stated_rtp, [...same.configurations], same.note]).toEqual(['catalogue', 96, [], '']);
    const lower = decide([op(94.1), fact()]);
    expect(lower.ok && [lower.winner.stated_rtp, [...lower.configurations], lower.disagree]).toEqual([96, [[94.1, 'operator']], false]);
  });

  it('higher than every other figure: the default where the ladder makes the others a lower rung, else a variant with the reason', () => {
    const raised = decide([op(96.98, { provider: 'playngo' }), fact({ provider: 'playngo', stated_rtp: 93.99 })]);
    expect(raised.ok && [raised.winner.tier, raised.winner.stated_rtp, [...raised.configurations]]).toEqual(['operator', 96.98, [[93.99, 'operator_ladder']]]);
    const kept = decide([op(93.42), fact({ stated_rtp: 88.12, tier: 'aggregator' })]);
    expect(kept.ok && [kept.winner.stated_rtp, [...kept.configurations]]).toEqual([88.12, [[93.42, 'operator']]]);
    expect(kept.ok && kept.note).toMatch(/runs a 93\.42 build, higher than every other source's figure; the stated RTP stays 88\.12/);
    // A figure another source lists above the operator's keeps the default where it was.
    const listed = decide([
      op(96.51),
      fact({
        stated_rtp: 96.48,
        variants: [
          { rtp: 96.48, kind: 'standard' },
          { rtp: 96.6, kind: 'unknown' },
        ],
      }),
    ]);
    expect(listed.ok && [listed.winner.stated_rtp, [...listed.configurations]]).toEqual([96.48, [[96.51, 'operator']]]);
  });

  it('settles a conflict that held the game back; alone, it is published unless the ladder makes it a lower rung', () => {
    const settled = decide([op(96.82), fact({ stated_rtp: 98.08, tier: 'aggregator' }), fact({ stated_rtp: 95.03, tier: 'aggregator', line: 2 })]);
    expect(settled.ok && [settled.winner.stated_rtp, settled.disagree]).toEqual([96.82, true]);
    const alone = decide([op(96.59, { provider: 'playngo' })]);
    expect(alone.ok && [alone.winner.stated_rtp, alone.note]).toEqual([96.59, OPERATOR_ONLY_NOTE]);
    expect(decide([op(94.0, { provider: 'playngo' })])).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^only a licensed casino's catalogue lists the game, at 94\.00 \(sources\/op:9\): a lower build/),
    });
  });

  it("a studio file's line that another source names under one of its partners is that partner's game; other lines stay the file's", () => {
    const table = providerTable({
      format: 1,
      groups: {},
      providers: [
        { provider: 'hub', display: 'Hub', group: null, labels: ['hub'], partners: ['a', 'b'] },
        { provider: 'a', display: 'A', group: null, labels: ['A'] },
        { provider: 'b', display: 'B', group: null, labels: ['B'] },
      ],
      refused: [],
    });
    const facts = [fact({ provider: 'b', name: 'Gold Rush' }), op(96, { provider: 'hub', name: 'Gold Rush' }), op(96, { provider: 'hub', name: 'Only Here' })];
    expect(assignPartners(facts, table, (p) => p).map((f) => f.provider)).toEqual(['b', 'b', 'hub']);
  });
});

describe('the operator on the real lines', () => {
  let result: IngestResult;
  beforeAll(async () => {
    result = await ingestSources(path.resolve(import.meta.dirname, '../../data'));
  });
  const gameOf = (name: string) => result.games.filter((g) => nameKey(g.name) === nameKey(name));

  it('publishes Mystery Joker 96.98, Dead or Alive 96.82, Twin Spin 96.56 and Rich Wilde and the Tome of Madness 96.59; Mega Moolah stays 88.12 with the 93.42 build', () => {
    const rtp = (name: string) => gameOf(name).map((g) => g.winner.stated_rtp);
    expect([rtp('Mystery Joker'), rtp('Dead or Alive'), rtp('Twin Spin'), rtp('Rich Wilde and the Tome of Madness'), rtp('Mega Moolah')]).toEqual([
      [96.98],
      [96.82],
      [96.56],
      [96.59],
      [88.12],
    ]);
    expect([...gameOf('Mega Moolah')[0]!.configurations]).toEqual([[93.42, 'operator']]);
  });

  it('at least 2,200 games carry an operator line, and every operator figure is among its game figures', () => {
    const withOp = result.games.filter((g) => g.facts.some((f) => f.tier === 'operator'));
    expect(withOp.length).toBeGreaterThanOrEqual(2200);
    for (const g of withOp) {
      const figures = new Set([
        g.winner.stated_rtp,
        ...g.configurations.keys(),
        ...g.facts.filter((f) => f.stated_rtp === g.winner.stated_rtp).flatMap((f) => f.variants.map((v) => v.rtp)),
      ]);
      for (const f of g.facts.filter((x) => x.tier === 'operator')) expect(figures.has(f.stated_rtp), `${g.slug}: ${f.file}:${f.line}`).toBe(true);
    }
  });
});
