// Renders the widget page (GET /widget/rtp/{slug}, file widget/rtp/{slug}.html) from its widget data.
//
//   links out: {source_url} (the game's source), {page_url} ({site}/rtp/{slug}, attribution)
import type { WidgetData } from '../schemas/widget.ts';
import { escapeHtml, safeHref } from '../lib/html.ts';
import { WIDGET_CSP, WIDGET_CSS, WIDGET_SCRIPT } from '../routes/widget-assets.ts';

/** Lower end of the ladder's axis: a multiple of 5 at least 1 point under the lowest variant, at most 90. */
export function axisFloor(rtpMin: number): number {
  return Math.max(0, Math.min(90, 5 * Math.floor((rtpMin - 1) / 5)));
}

/** Position of an RTP on the ladder's 0..100 viewBox (padded so edge ticks are not clipped). */
function xOf(rtp: number, lo: number): string {
  const x = 1 + (98 * (rtp - lo)) / (100 - lo);
  return String(Math.round(x * 100) / 100);
}

/** The ladder: a track from the axis floor to 100%, the variant range, a tick per variant, the stated RTP accented. */
export function ladderSvg(d: Pick<WidgetData, 'rtp_variants' | 'rtp_min' | 'rtp_max' | 'stated_rtp'>): string {
  const lo = axisFloor(d.rtp_min);
  const label = `RTP variants: ${d.rtp_variants.map((v) => `${v}%`).join(', ')}; stated ${d.stated_rtp}%`;
  let ticks = '';
  for (const v of d.rtp_variants) {
    if (v === d.stated_rtp) continue;
    const x = xOf(v, lo);
    ticks += `<line class="k" x1="${x}" y1="4" x2="${x}" y2="16"/>`;
  }
  const s = xOf(d.stated_rtp, lo);
  return (
    `<svg viewBox="0 0 100 20" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(label)}">` +
    `<line class="t" x1="1" y1="10" x2="99" y2="10"/>` +
    (d.rtp_min < d.rtp_max ? `<line class="g" x1="${xOf(d.rtp_min, lo)}" y1="10" x2="${xOf(d.rtp_max, lo)}" y2="10"/>` : '') +
    ticks +
    `<line class="k s" x1="${s}" y1="2" x2="${s}" y2="18"/>` +
    `</svg>`
  );
}

/** The complete widget page. Every text and URL from the data is escaped. */
export function renderWidget(d: WidgetData): string {
  const name = escapeHtml(d.name);
  const provider = escapeHtml(d.provider_display);
  const n = d.rtp_variants.length;
  const range = d.rtp_min === d.rtp_max ? `${d.rtp_min}%` : `${d.rtp_min}% – ${d.rtp_max}%`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${WIDGET_CSP}">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${name} RTP ${d.stated_rtp}% · ${escapeHtml(d.attribution.text)}</title>` +
    `<style>${WIDGET_CSS}</style><script>${WIDGET_SCRIPT}</script></head>` +
    `<body><main class="c">` +
    `<div class="h"><div class="id"><h1 title="${name}">${name}</h1><p class="p">${provider}</p></div>` +
    `<p class="r"><b>${d.stated_rtp}%</b><span class="l">Stated RTP</span></p></div>` +
    `<div><p class="v"><span class="l">RTP variants</span><span>${range} · ${n} variant${n === 1 ? '' : 's'}</span></p>` +
    ladderSvg(d) +
    `<p class="x" aria-hidden="true"><span>${axisFloor(d.rtp_min)}%</span><span>100%</span></p>` +
    `<p class="z">${n === 1 ? 'No other RTP version known' : d.rtp_variants.map((v) => (v === d.stated_rtp ? `<b>${v}%</b>` : `${v}%`)).join(' · ')}</p></div>` +
    `<footer class="f"><span>Verified ${escapeHtml(d.last_verified.slice(0, 10))} · ` +
    `<a href="${safeHref(d.source_url)}" target="_blank" rel="noopener noreferrer">Source ↗</a></span>` +
    `<a href="${safeHref(d.attribution.url)}" target="_blank" rel="noopener">${escapeHtml(d.attribution.text)}</a></footer>` +
    `</main></body></html>`
  );
}
