// An operator's Atom feed (src/emit/operator-feed.ts) and the operator page's bands
// (src/site/operator-page.ts), over a small operator record with sources pinned on two dates.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { operatorFeed, pinnedSnapshots } from '../../src/emit/operator-feed.ts';
import { OBSERVATION_NOTE, type OperatorRecord } from '../../src/schemas/operator.ts';
import { gapRows } from '../../src/site/operator-page.ts';

const SITE = 'https://rtp.example.org';
type Build = OperatorRecord['games'][number]['builds'][number];

function build(rtp: number, kind: Build['build'], file: string, pinned_at: string): Build {
  return {
    rtp,
    build: kind,
    variant: null,
    reason: null,
    source: { file, line: 1, catalogue_file: null, index: null, url: 'https://example.org/c.json', pinned_at },
  };
}

const OLD = 'sources/op-a.jsonl';
const NEW = 'sources/op-b.jsonl';
const RECORD: OperatorRecord = {
  meta: {
    operator: 'casino-x',
    display: 'Casino <X>',
    market: 'NL',
    licence: null,
    licensing_authority: null,
    website: null,
    sources: [
      { file: OLD, pinned_at: '2026-10-01T00:00:00Z' },
      { file: NEW, pinned_at: '2026-11-01T00:00:00Z' },
    ],
  },
  note: OBSERVATION_NOTE,
  data_version: '1.0.0',
  frozen_at: '2026-11-02T00:00:00Z',
  summary: { games_observed: 3, at_top: 2, at_lower: 2, at_higher: 0, observations: 4, gap_mean: 2.25, gap_max: 4, by_provider: [] },
  games: [
    {
      slug: 'a',
      name: 'A',
      provider: 'p',
      stated_rtp: 96,
      builds: [build(96, 'top', OLD, '2026-10-01T00:00:00Z'), build(95.5, 'lower', NEW, '2026-11-01T00:00:00Z')],
    },
    { slug: 'b', name: 'B', provider: 'p', stated_rtp: 96, builds: [build(92, 'lower', NEW, '2026-11-01T00:00:00Z')] },
    { slug: 'c', name: 'C', provider: 'p', stated_rtp: 94, builds: [build(94, 'top', OLD, '2026-10-01T00:00:00Z')] },
  ],
  license: { id: 'CC-BY-4.0', url: 'https://creativecommons.org/licenses/by/4.0/', attribution: 'Example' },
};

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', textNodeName: '#text', isArray: (n) => ['entry', 'link'].includes(n) });
const text = (v: unknown) => String((v as Record<string, unknown>)['#text']);

describe('operator feed', () => {
  it('groups the builds by the date their source was pinned, newest first', () => {
    const s = pinnedSnapshots(RECORD);
    expect(s.map((x) => [x.pinned_at, x.files, x.games.map((g) => g.slug)])).toEqual([
      ['2026-11-01T00:00:00Z', [NEW], ['a', 'b']],
      ['2026-10-01T00:00:00Z', [OLD], ['a', 'c']],
    ]);
  });

  it('has one well-formed entry per pinned date, dated with it and counting what was pinned then; text is escaped', () => {
    const xml = operatorFeed(RECORD, SITE, null);
    expect(XMLValidator.validate(xml)).toBe(true);
    const feed = (parser.parse(xml) as { feed: Record<string, unknown> }).feed;
    expect(feed.updated).toBe('2026-11-01T00:00:00Z');
    const entries = feed.entry as Array<Record<string, unknown>>;
    expect(entries.map((e) => e.updated)).toEqual(['2026-11-01T00:00:00Z', '2026-10-01T00:00:00Z']);
    expect(new Set(entries.map((e) => e.id)).size).toBe(2);
    expect(text(entries[0]!.title)).toBe('Casino <X> as pinned on 2026-11-01: 2 games observed');
    expect(text(entries[0]!.summary)).toContain(
      '2 games observed, 0 at the top build (the stated RTP), 2 at a lower build (on average 2.25 points under the stated RTP, at most 4.00 points), 0 above the stated RTP.',
    );
    expect(text(entries[1]!.summary)).toContain('2 games observed, 2 at the top build (the stated RTP), 0 at a lower build, 0 above the stated RTP.');
    expect(xml).toContain('Casino &lt;X&gt;');
    expect(xml).not.toContain('<link rel="hub"');
  });

  it('an operator page bands its lower builds by points under the stated RTP, up to the last band holding one', () => {
    expect(gapRows(RECORD)).toEqual([
      { label: '0.01 to 0.50 points under', count: 1 },
      { label: '0.51 to 1.00 points under', count: 0 },
      { label: '1.01 to 2.00 points under', count: 0 },
      { label: '2.01 to 3.00 points under', count: 0 },
      { label: '3.01 to 5.00 points under', count: 1 },
    ]);
    expect(gapRows({ ...RECORD, games: [RECORD.games[2]!] })).toEqual([]);
  });
});
