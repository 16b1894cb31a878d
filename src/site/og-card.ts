// A game's link-preview card (og:image): a 1200 × 630 SVG with the game's name, its provider, the
// stated RTP as the registry shows it, and the RTP ladder of its page (src/site/charts.ts, the same
// code), coloured by an inline style with the light scheme of site.css. The server renders it to PNG
// on first request (src/server/og-image.ts).
import { escapeHtml as e } from '../lib/html.ts';
import type { GameRecord } from '../schemas/game-record.ts';
import { ladderChart } from './charts.ts';
import { formatRtp } from './format.ts';

/** The card's size in pixels (the Open Graph and Twitter large-image size). */
export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;
/** The font family the card names; the renderer is given its files. */
export const OG_FONT = 'Inter';

/** The light scheme of site.css, for the ladder's classes (a card has no stylesheet of its own). */
const CHART_STYLE =
  '.chart text{fill:#1a1d21;font-size:13px;font-family:Inter}.chart text.tick{fill:#4f5661;font-size:12px}.chart text.s{font-weight:700}' +
  '.chart .bar{fill:#2f6fbf}.chart .bar.s{fill:#1b7f4b}.chart .ax{stroke:#4f5661;stroke-width:1}.chart .mark{stroke:#1b7f4b;stroke-width:2}';

/** `text` cut to `max` characters with an ellipsis (names are long, the card is not). */
function fitText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** The ladder's `<svg>` out of the page's `<figure>`, placed at (x, y) and scaled to `width`. */
function ladderAt(r: Pick<GameRecord, 'variants' | 'stated_rtp'>, x: number, y: number, width: number, maxHeight: number): string {
  const figure = ladderChart('og', r.variants, r.stated_rtp);
  const svg = figure.slice(figure.indexOf('<svg'), figure.indexOf('</svg>') + '</svg>'.length);
  const box = /viewBox="0 0 ([0-9.]+) ([0-9.]+)"/.exec(svg);
  const [w, h] = box === null ? [340, 100] : [Number(box[1]), Number(box[2])];
  const scale = Math.min(width / w, maxHeight / h);
  // The chart keeps its viewBox; its outer size is set here instead of the page's 340 units.
  const sized = svg.replace(/ width="[0-9.]+" height="[0-9.]+"/, ` x="${x}" y="${y}" width="${Math.round(w * scale)}" height="${Math.round(h * scale)}"`);
  return sized;
}

/** The card of one game as SVG (every text escaped). */
export function ogCardSvg(
  r: Pick<GameRecord, 'canonical_name' | 'provider_display' | 'stated_rtp' | 'variants'>,
  meta: { data_version: string; registry: string },
): string {
  const chart = r.variants.length > 1 ? ladderAt(r, 660, 150, 480, 380) : '';
  const left = 72;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}" viewBox="0 0 ${OG_WIDTH} ${OG_HEIGHT}" font-family="${OG_FONT}">` +
    `<style>${CHART_STYLE}</style>` +
    `<rect width="${OG_WIDTH}" height="${OG_HEIGHT}" fill="#ffffff"/>` +
    `<rect width="${OG_WIDTH}" height="12" fill="#1b7f4b"/>` +
    `<text x="${left}" y="92" font-size="30" fill="#4f5661">${e(meta.registry)}</text>` +
    `<text x="${left}" y="190" font-size="60" font-weight="700" fill="#1a1d21">${e(fitText(r.canonical_name, r.variants.length > 1 ? 17 : 30))}</text>` +
    `<text x="${left}" y="250" font-size="36" fill="#4f5661">${e(fitText(r.provider_display, 28))}</text>` +
    `<text x="${left}" y="420" font-size="132" font-weight="700" fill="#1b7f4b">${e(formatRtp(r.stated_rtp))}</text>` +
    `<text x="${left}" y="475" font-size="34" fill="#1a1d21">stated RTP</text>` +
    `<text x="${left}" y="580" font-size="24" fill="#4f5661">data version ${e(meta.data_version)} · sources on the game's page</text>` +
    chart +
    '</svg>'
  );
}
