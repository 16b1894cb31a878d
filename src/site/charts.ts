// Server-rendered SVG charts of the registry pages: a game's RTP ladder and RTP history, a histogram of
// stated RTP (a provider's games, or the whole registry). Plain strings, no chart code in the browser.
// Each chart is a <figure>: an <svg role="img"> named by its <title> and described by a <desc> that
// states every number it draws, and a visible caption. Colours come from classes in site.css, so
// the charts follow the light and dark schemes and print in black on white.
import { escapeHtml as e } from '../lib/html.ts';
import type { VariantKind } from '../schemas/authoring.ts';
import { formatRtp, formatVariantKind } from './format.ts';

/** Chart width in SVG units; the stylesheet lets it shrink to the column (text stays legible at 320 px). */
const W = 340;
const FONT = 13;

/** A number for SVG coordinates: at most two decimals, no trailing zeros. */
const n = (x: number): string => String(Math.round(x * 100) / 100);

function svgOpen(id: string, height: number, title: string, desc: string): string {
  return (
    `<svg class="chart" viewBox="0 0 ${W} ${n(height)}" width="${W}" height="${n(height)}" role="img" aria-labelledby="${id}-t ${id}-d">` +
    `<title id="${id}-t">${e(title)}</title><desc id="${id}-d">${e(desc)}</desc>`
  );
}

function figure(svg: string, caption: string, cls: string): string {
  return `<figure class="chart-box ${cls}">${svg}<figcaption>${caption}</figcaption></figure>`;
}

/** One rung of a ladder: an RTP variant of a game. */
export interface Rung {
  rtp: number;
  kind: VariantKind;
  jurisdiction: string | null;
}

/** The lower end of a ladder's scale: a whole point at least 2 under the lowest variant, at most 80. */
export function ladderFloor(min: number): number {
  return Math.max(0, Math.min(80, Math.floor(min) - 2));
}

/**
 * The RTP ladder of a game: one rung per variant, highest first, each labelled with its figure and
 * kind, its bar on a scale from `floor` (default `ladderFloor` of the lowest variant) to 100%, the
 * stated RTP's rung accented and a line through every rung at the stated figure. Ladders drawn side
 * by side pass one floor, so their bars compare. `seen`: words added to a rung's label, by its RTP
 * (the game page names the casinos whose catalogue showed that build).
 */
export function ladderChart(
  id: string,
  rungs: readonly Rung[],
  stated: number,
  floor = ladderFloor(Math.min(...rungs.map((r) => r.rtp))),
  seen: ReadonlyMap<number, string> = new Map(),
): string {
  const sorted = [...rungs].sort((a, b) => b.rtp - a.rtp);
  const x = (rtp: number) => ((rtp - floor) / (100 - floor)) * W;
  const ROW = 36;
  const at = (r: Rung) => seen.get(r.rtp);
  const label = (r: Rung) =>
    `${formatRtp(r.rtp)} · ${formatVariantKind(r.kind, r.jurisdiction)}${r.rtp === stated ? ' · stated RTP' : ''}${at(r) === undefined ? '' : ` · ${at(r)}`}`;
  let body = '';
  sorted.forEach((r, i) => {
    const y = i * ROW;
    const s = r.rtp === stated;
    body +=
      `<text x="0" y="${y + FONT}" class="${s ? 'lbl s' : 'lbl'}">${e(label(r))}</text>` +
      `<rect x="0" y="${y + 19}" width="${n(Math.max(2, x(r.rtp)))}" height="10" rx="2" class="${s ? 'bar s' : 'bar'}"/>`;
  });
  const sx = n(x(stated));
  const axisY = sorted.length * ROW + 4;
  body +=
    `<line x1="${sx}" y1="16" x2="${sx}" y2="${axisY}" class="mark"/>` +
    `<line x1="0" y1="${axisY}" x2="${W}" y2="${axisY}" class="ax"/>` +
    `<text x="0" y="${axisY + 15}" class="tick">${formatRtp(floor)}</text>` +
    `<text x="${W}" y="${axisY + 15}" class="tick" text-anchor="end">${formatRtp(100)}</text>`;
  const desc = `${sorted.length} RTP variant${sorted.length === 1 ? '' : 's'}, highest first: ${sorted.map(label).join('; ')}. Bars on a scale from ${formatRtp(floor)} to ${formatRtp(100)}.`;
  return figure(
    `${svgOpen(id, axisY + 20, 'RTP ladder', desc) + body}</svg>`,
    `RTP ladder: each bar is one build of the game; the accented bar and the line mark the stated RTP (${e(formatRtp(stated))}).`,
    'ladder-chart',
  );
}

/** A histogram bin: [from, to) in percent, and how many values fall in it. `below`: the bin of every value under the scale. */
export interface Bin {
  from: number;
  to: number;
  count: number;
  below?: boolean;
}

/** Value at quantile q (0-1) of sorted values, nearest rank. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Bins for stated RTPs: the scale starts at the 2nd percentile (whole point) and ends at the highest
 * value, in bins of 0.5, 1 or 2 points so that there are at most 16; values under the scale share one
 * "below" bin, so a few outliers (scratchcards at 67%) do not flatten the rest.
 */
export function binValues(values: readonly number[]): Bin[] {
  if (values.length === 0) return [];
  const sorted = [...values].sort((a, b) => a - b);
  const hi = Math.min(100, Math.floor(sorted[sorted.length - 1]!) + 1);
  const first = Math.min(hi - 1, Math.floor(quantile(sorted, 0.02)));
  const width = [0.5, 1, 2, 5, 10].find((w) => (hi - first) / w <= 16) ?? 20;
  // Whole bins ending at `hi`: the scale starts at or a little under the 2nd percentile.
  const lo = Math.max(0, hi - Math.ceil((hi - first) / width) * width);
  const bins: Bin[] = [];
  const below = sorted.filter((v) => v < lo).length;
  if (below > 0) bins.push({ from: sorted[0]!, to: lo, count: below, below: true });
  for (let from = lo; from < hi; from += width) bins.push({ from, to: from + width, count: 0 });
  for (const v of sorted) {
    if (v < lo) continue;
    const k = Math.min(bins.length - 1, (below > 0 ? 1 : 0) + Math.floor((v - lo) / width));
    bins[k]!.count++;
  }
  return bins;
}

const binText = (b: Bin) => (b.below ? `under ${formatRtp(b.to)}` : `${formatRtp(b.from)} to under ${formatRtp(b.to)}`);

/** A marked value on a histogram: a median line with its legend text. */
export interface HistogramMark {
  value: number;
  label: string;
  /** `own`: the games' own median (solid); `ref`: a median to compare with (dashed). */
  style: 'own' | 'ref';
}

/**
 * A histogram of stated RTPs with median lines. `what` names the games in the text alternative
 * ("the 45 NetEnt games").
 */
export function histogramChart(id: string, values: readonly number[], what: string, marks: readonly HistogramMark[]): string {
  const bins = binValues(values);
  if (bins.length === 0) return '';
  const top = Math.max(...bins.map((b) => b.count));
  const PLOT = 150;
  const base = 20 + PLOT;
  const slot = W / bins.length;
  const scaled = bins.filter((b) => !b.below);
  const lo = scaled[0]!.from;
  const hi = scaled[scaled.length - 1]!.to;
  const offset = bins.length - scaled.length; // the "below" bin sits left of the scale
  const xOf = (v: number) => (offset + ((v - lo) / (hi - lo)) * scaled.length) * slot;
  let body = '';
  let counts = ''; // drawn last, over the median lines (with their halo, site.css)
  bins.forEach((b, i) => {
    const h = b.count === 0 ? 0 : Math.max(2, (b.count / top) * PLOT);
    const x = i * slot + 2;
    body += `<rect x="${n(x)}" y="${n(base - h)}" width="${n(slot - 4)}" height="${n(h)}" class="${b.below ? 'bar o' : 'bar'}"/>`;
    if (b.count > 0) counts += `<text x="${n(x + (slot - 4) / 2)}" y="${n(base - h - 4)}" class="tick" text-anchor="middle">${b.count}</text>`;
  });
  body += `<line x1="0" y1="${base}" x2="${W}" y2="${base}" class="ax"/>`;
  // Tick labels at the scale's ends and middle (every bin edge would crowd a phone's width).
  const ticks = [lo, lo + Math.round(scaled.length / 2) * (scaled[0]!.to - scaled[0]!.from), hi];
  for (const [k, t] of ticks.entries())
    body += `<text x="${n(xOf(t))}" y="${base + 15}" class="tick" text-anchor="${k === 0 ? 'start' : k === 2 ? 'end' : 'middle'}">${formatRtp(t)}</text>`;
  if (offset > 0) body += `<text x="0" y="${base + 30}" class="tick">↑ lower</text>`;
  for (const m of marks) {
    const x = n(Math.min(W - 1, Math.max(1, xOf(Math.max(lo, m.value)))));
    body += `<line x1="${x}" y1="10" x2="${x}" y2="${base}" class="${m.style === 'own' ? 'mark' : 'mark ref'}"/>`;
  }
  body += counts;
  const total = values.length;
  const width = scaled[0]!.to - scaled[0]!.from;
  const desc =
    `Stated RTP of ${what}, ${total} in all, in bins of ${width} point${width === 1 ? '' : 's'}: ` +
    bins.map((b) => `${binText(b)}: ${b.count}`).join('; ') +
    `. ${marks.map((m) => `${m.label}: ${formatRtp(m.value)}`).join('; ')}.`;
  const legend = marks.map((m) => `<span class="key ${m.style}">${e(m.label)} ${e(formatRtp(m.value))}</span>`).join(' ');
  const lower = offset > 0 ? `; the grey bar at the left counts every game under ${e(formatRtp(lo))}` : '';
  return figure(
    `${svgOpen(id, base + 34, `Distribution of stated RTP of ${what}`, desc) + body}</svg>`,
    `Games per stated RTP band (count above each bar${lower}).<span class="keys">${legend}</span>`,
    'histogram',
  );
}

/** The stated RTP and the variants of a game at one data version. */
export interface HistoryPoint {
  data_version: string;
  date: string;
  stated: number;
  variants: number[];
}

/**
 * The RTP history of a game: the stated RTP as a step line over its data versions (equally spaced,
 * oldest left) and each version's variants as dots, on a scale around every figure it shows.
 */
export function historyChart(id: string, points: readonly HistoryPoint[]): string {
  if (points.length < 2) return '';
  const all = points.flatMap((p) => [p.stated, ...p.variants]);
  // A scale around the figures, in tenths, so a change of 0.01 points still separates the dots (the labels say how small it is).
  const pad = Math.max(0.05, (Math.max(...all) - Math.min(...all)) * 0.2);
  const lo = Math.floor((Math.min(...all) - pad) * 10) / 10;
  const hi = Math.ceil((Math.max(...all) + pad) * 10) / 10;
  const PLOT = 140;
  const left = 56;
  const right = W - 24;
  const xOf = (i: number) => left + (i / (points.length - 1)) * (right - left);
  const yOf = (v: number) => 10 + ((hi - v) / (hi - lo)) * PLOT;
  let path = `M${n(xOf(0))} ${n(yOf(points[0]!.stated))}`;
  for (let i = 1; i < points.length; i++) path += `H${n(xOf(i))}V${n(yOf(points[i]!.stated))}`;
  let body = `<line x1="${left}" y1="${10 + PLOT}" x2="${right}" y2="${10 + PLOT}" class="ax"/>`;
  body += `<text x="${left - 6}" y="${n(yOf(hi) + 4)}" class="tick" text-anchor="end">${formatRtp(hi)}</text><text x="${left - 6}" y="${n(yOf(lo) + 4)}" class="tick" text-anchor="end">${formatRtp(lo)}</text>`;
  points.forEach((p, i) => {
    const x = n(xOf(i));
    for (const v of p.variants) body += `<circle cx="${x}" cy="${n(yOf(v))}" r="3.5" class="dot"/>`;
    body += `<text x="${x}" y="${10 + PLOT + 16}" class="tick" text-anchor="${i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle'}">${e(p.data_version)}</text>`;
    body += `<text x="${x}" y="${10 + PLOT + 31}" class="tick" text-anchor="${i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle'}">${e(p.date)}</text>`;
  });
  body += `<path d="${path}" class="step"/>`;
  const desc =
    `Stated RTP and RTP variants per data version, oldest first: ` +
    points.map((p) => `${p.data_version} (${p.date}): stated ${formatRtp(p.stated)}, variants ${p.variants.map(formatRtp).join(', ')}`).join('; ') +
    '.';
  return figure(
    `${svgOpen(id, 10 + PLOT + 38, 'RTP history', desc) + body}</svg>`,
    'RTP history: the line is the stated RTP at each data version, the dots are the variants known then.',
    'history-chart',
  );
}

/** One row of a bar list: what it counts and how many. */
export interface BarRow {
  label: string;
  count: number;
}

/**
 * Horizontal bars, one row per band, each labelled with its band and count, their lengths on one
 * scale from 0 to the largest count (a non-zero count at least 2 units long, so it stays visible).
 * `what` names what the rows count, in the title and the text alternative.
 */
export function barList(id: string, rows: readonly BarRow[], what: string, caption: string): string {
  if (rows.length === 0) return '';
  const top = Math.max(1, ...rows.map((r) => r.count));
  const ROW = 36;
  let body = '';
  rows.forEach((r, i) => {
    const y = i * ROW;
    body +=
      `<text x="0" y="${y + FONT}" class="lbl">${e(`${r.label}: ${r.count.toLocaleString('en-US')}`)}</text>` +
      `<rect x="0" y="${y + 19}" width="${n(r.count === 0 ? 0 : Math.max(2, (r.count / top) * W))}" height="10" rx="2" class="bar"/>`;
  });
  const axisY = rows.length * ROW + 4;
  body += `<line x1="0" y1="${axisY}" x2="${W}" y2="${axisY}" class="ax"/>`;
  const desc = `${what}: ${rows.map((r) => `${r.label}: ${r.count}`).join('; ')}.`;
  return figure(`${svgOpen(id, axisY + 4, what, desc) + body}</svg>`, e(caption), 'bar-list');
}
