// The RTP badge of a game: a small static SVG ("RTP | 96.21%", the provider-stated figure) for forum
// posts and READMEs, with a <title> for screen readers; every text escaped.

import { escapeHtml } from '../lib/html.ts';
import { percent } from '../lib/percent.ts';
import type { GameRecord } from '../schemas/game-record.ts';

const LABEL = 'RTP';
/** Average advance of Verdana 11px per character (the badge font), plus padding on each side. */
const CHAR_WIDTH = 7;
const PAD = 6;

/** The figure as the badge shows it: at least two decimals, never rounded, and a percent sign. */
export function badgeFigure(rtp: number): string {
  return percent(rtp);
}

/** The SVG text of a game's badge. */
export function renderBadge(record: Pick<GameRecord, 'canonical_name' | 'provider_display' | 'stated_rtp'>): string {
  const value = badgeFigure(record.stated_rtp);
  const left = LABEL.length * CHAR_WIDTH + 2 * PAD;
  const right = value.length * CHAR_WIDTH + 2 * PAD;
  const width = left + right;
  const title = escapeHtml(`${record.canonical_name} (${record.provider_display}): provider-stated RTP ${value}`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" viewBox="0 0 ${width} 20" role="img" aria-label="${escapeHtml(`${LABEL}: ${value}`)}">` +
    `<title>${title}</title>` +
    `<rect width="${left}" height="20" rx="3" fill="#555"/>` +
    `<rect x="${left}" width="${right}" height="20" rx="3" fill="#2f7d4f"/>` +
    `<rect x="${left}" width="4" height="20" fill="#2f7d4f"/>` +
    `<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">` +
    `<text x="${left / 2}" y="14">${LABEL}</text>` +
    `<text x="${left + right / 2}" y="14">${escapeHtml(value)}</text>` +
    `</g></svg>`
  );
}
