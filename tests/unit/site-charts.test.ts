// The registry pages' SVG charts: bins, medians, the text alternative that states every number, escaping.
import { describe, expect, it } from 'vitest';
import { binValues, histogramChart, historyChart, ladderChart, ladderFloor } from '../../src/site/charts.ts';
import { historyPoints } from '../../src/site/game-page.ts';

/** The text alternative of a chart: its <title> and <desc>. */
function alt(svg: string): { title: string; desc: string; labelledby: string } {
  return {
    title: /<title id="[^"]+">([^<]*)<\/title>/.exec(svg)![1]!,
    desc: /<desc id="[^"]+">([^<]*)<\/desc>/.exec(svg)![1]!,
    labelledby: /<svg [^>]*role="img" aria-labelledby="([^"]+)"/.exec(svg)![1]!,
  };
}

describe('ladder chart', () => {
  const rungs = [
    { rtp: 96.21, kind: 'standard', jurisdiction: null },
    { rtp: 84.18, kind: 'operator_ladder', jurisdiction: null },
    { rtp: 94.1, kind: 'jurisdiction', jurisdiction: 'DE' },
  ] as const;
  const svg = ladderChart('l', rungs, 96.21);

  it('labels each rung with its figure and kind, highest first, and marks the stated RTP', () => {
    const labels = [...svg.matchAll(/<text x="0" y="\d+" class="lbl( s)?">([^<]+)<\/text>/g)].map((m) => [Boolean(m[1]), m[2]]);
    expect(labels).toEqual([
      [true, '96.21% · Standard · stated RTP'],
      [false, '94.10% · Jurisdiction (DE)'],
      [false, '84.18% · Operator ladder'],
    ]);
    expect(svg.match(/class="bar s"/g)).toHaveLength(1);
    expect(svg).toContain('class="mark"');
  });

  it('scales bars from a floor 2 points under the lowest variant (at most 80%) to 100%', () => {
    expect(ladderFloor(84.18)).toBe(80);
    expect(ladderFloor(96.5)).toBe(80);
    expect(ladderFloor(60.4)).toBe(58);
    // 96.21 on 80..100 of 340 units: 275.57; 84.18: 71.06.
    expect(svg).toContain('width="275.57" height="10" rx="2" class="bar s"');
    expect(svg).toContain('width="71.06" height="10" rx="2" class="bar"');
  });

  it('is an image named by its title and described with every figure', () => {
    expect(alt(svg)).toEqual({
      title: 'RTP ladder',
      desc: '3 RTP variants, highest first: 96.21% · Standard · stated RTP; 94.10% · Jurisdiction (DE); 84.18% · Operator ladder. Bars on a scale from 80.00% to 100.00%.',
      labelledby: 'l-t l-d',
    });
  });
});

describe('histogram', () => {
  it('bins from the 2nd percentile in whole bins ending at the highest value, outliers in one bin below', () => {
    const values = [67.03, ...Array.from({ length: 98 }, (_, i) => 94 + (i % 6) * 0.5), 99.6];
    const bins = binValues(values);
    expect(bins[0]).toEqual({ from: 67.03, to: 94, count: 1, below: true });
    expect(bins.slice(1).map((b) => [b.from, b.to])).toEqual(Array.from({ length: 12 }, (_, i) => [94 + i * 0.5, 94.5 + i * 0.5]));
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(values.length);
    expect(bins[bins.length - 1]!.count).toBe(1); // 99.6 in 99.5-100
  });

  it('widens bins to keep at most 16, and puts 100% in the last one', () => {
    const bins = binValues([70, 80, 90, 100]);
    expect(bins.every((b) => b.to - b.from === 2)).toBe(true);
    expect(bins.length).toBeLessThanOrEqual(16);
    expect(bins[bins.length - 1]).toMatchObject({ to: 100, count: 1 });
    expect(binValues([])).toEqual([]);
    expect(binValues([96])).toEqual([
      { from: 96, to: 96.5, count: 1 },
      { from: 96.5, to: 97, count: 0 },
    ]);
  });

  it('states every count and both medians in its text alternative', () => {
    const svg = histogramChart('h', [95, 95.2, 96, 96.4, 97.1], 'the 5 Example games', [
      { value: 96, label: 'Example median', style: 'own' },
      { value: 96.31, label: 'Registry median', style: 'ref' },
    ]);
    const a = alt(svg);
    expect(a.title).toBe('Distribution of stated RTP of the 5 Example games');
    expect(a.desc).toBe(
      'Stated RTP of the 5 Example games, 5 in all, in bins of 0.5 points: 95.00% to under 95.50%: 2; 95.50% to under 96.00%: 0; 96.00% to under 96.50%: 2; ' +
        '96.50% to under 97.00%: 0; 97.00% to under 97.50%: 1; 97.50% to under 98.00%: 0. Example median: 96.00%; Registry median: 96.31%.',
    );
    expect(svg).toContain('class="mark ref"');
    expect(svg).toContain('<span class="key own">Example median 96.00%</span>');
  });

  it('escapes names', () => {
    const svg = histogramChart('h', [96], '<b>x</b>', [{ value: 96, label: '<i>', style: 'own' }]);
    expect(svg).not.toContain('<b>');
    expect(svg).not.toContain('<i>');
  });
});

describe('history chart', () => {
  const entries = [
    { data_version: '1.1.0', frozen_at: '2026-11-23T00:00:00Z', field: 'rtp_variants', from: [96.5], to: [96.49, 96.5] },
    { data_version: '1.0.0', frozen_at: '2026-11-21T00:00:00Z', field: 'stated_rtp', from: null, to: 96.5 },
    { data_version: '1.0.0', frozen_at: '2026-11-21T00:00:00Z', field: 'rtp_variants', from: null, to: [96.5] },
  ] as const;

  it('replays the history into one point per data version, oldest first', () => {
    const points = historyPoints(entries as never);
    expect(points).toEqual([
      { data_version: '1.0.0', date: '2026-11-21', stated: 96.5, variants: [96.5] },
      { data_version: '1.1.0', date: '2026-11-23', stated: 96.5, variants: [96.49, 96.5] },
    ]);
    expect(historyPoints(entries.slice(1) as never)).toEqual([]); // first appearance only: nothing changed
  });

  it('draws a step line of the stated RTP and a dot per variant, described version by version', () => {
    const svg = historyChart('hc', historyPoints(entries as never));
    expect(svg).toMatch(/<path d="M56 [\d.]+H316V[\d.]+" class="step"\/>/);
    expect(svg.match(/class="dot"/g)).toHaveLength(3);
    expect(alt(svg).desc).toBe(
      'Stated RTP and RTP variants per data version, oldest first: 1.0.0 (2026-11-21): stated 96.50%, variants 96.50%; 1.1.0 (2026-11-23): stated 96.50%, variants 96.49%, 96.50%.',
    );
    expect(historyChart('hc', [])).toBe('');
  });
});
