// Renders the widget page (GET /widget/rtp/{slug}, file widget/rtp/{slug}.html) from its widget data.
//
//   links out: {source_url} (the game's source), {page_url} ({site}/rtp/{slug}, attribution)

import { escapeHtml, safeHref } from '../lib/html.ts';
import { percent } from '../lib/percent.ts';
import { paths } from '../routes/paths.ts';
import { oembedUrl } from '../routes/urls.ts';
import { WIDGET_CSP, WIDGET_CSS, WIDGET_SCRIPT } from '../routes/widget-assets.ts';
import { WIDGET_LABELS } from '../routes/widget-i18n.ts';
import type { WidgetData } from '../schemas/widget.ts';

/** Lower end of the ladder's axis: a multiple of 5 at least 1 point under the lowest variant, at most 90. */
export function axisFloor(rtpMin: number): number {
  return Math.max(0, Math.min(90, 5 * Math.floor((rtpMin - 1) / 5)));
}

/** Position of an RTP on the ladder's 0..100 viewBox (padded so edge ticks are not clipped). */
function xOf(rtp: number, lo: number): string {
  const x = 1 + (98 * (rtp - lo)) / (100 - lo);
  return String(Math.round(x * 100) / 100);
}

const EN = WIDGET_LABELS.en;

/** A figure marked for the script to re-format in the chosen language (`data-p`, the number as stated). */
const fig = (x: number): string => `<span data-p="${x}">${percent(x)}</span>`;

/**
 * The ladder: a track from the axis floor to 100%, the variant range, a tick per variant, the stated
 * RTP accented. `data-a` carries the stated RTP and the variants for the label in another language.
 */
export function ladderSvg(d: Pick<WidgetData, 'rtp_variants' | 'rtp_min' | 'rtp_max' | 'stated_rtp'>): string {
  const lo = axisFloor(d.rtp_min);
  const label = `${EN.variants}: ${d.rtp_variants.map((v) => percent(v)).join(', ')}; ${EN.stated} ${percent(d.stated_rtp)}`;
  let ticks = '';
  for (const v of d.rtp_variants) {
    if (v === d.stated_rtp) continue;
    const x = xOf(v, lo);
    ticks += `<line class="k" x1="${x}" y1="4" x2="${x}" y2="16"/>`;
  }
  const s = xOf(d.stated_rtp, lo);
  return (
    `<svg viewBox="0 0 100 20" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(label)}" data-a="${[d.stated_rtp, ...d.rtp_variants].join(' ')}">` +
    `<line class="t" x1="1" y1="10" x2="99" y2="10"/>` +
    (d.rtp_min < d.rtp_max ? `<line class="g" x1="${xOf(d.rtp_min, lo)}" y1="10" x2="${xOf(d.rtp_max, lo)}" y2="10"/>` : '') +
    ticks +
    `<line class="k s" x1="${s}" y1="2" x2="${s}" y2="18"/>` +
    `</svg>`
  );
}

/** The script's label key of each operator build (widget-assets.ts labelTable). */
const BUILD_KEYS = { top: 'B', lower: 'W', higher: 'H' } as const;

/**
 * One operator's line, hidden until the embedder asks for that operator (`operator=<key>`): what its
 * catalogue showed on the date its source was pinned, e.g. `711.nl: 96.21% (top build) · catalogue as pinned 2026-11-28`.
 */
export function operatorLine(o: WidgetData['operators'][number]): string {
  const date = escapeHtml(o.pinned_at.slice(0, 10));
  return (
    `<p class="o" data-k="${escapeHtml(o.operator)}" hidden>${escapeHtml(o.display)}<span data-t="k">${EN.operator.sep}</span>${fig(o.rtp)} ` +
    `(<span data-t="${BUILD_KEYS[o.build]}">${EN.operator[o.build]}</span>) · <span data-t="C">${EN.operator.pinned}</span> <span data-d="${date}">${date}</span></p>`
  );
}

/** The script's label key of each confidence level (widget-assets.ts labelTable). */
const CONFIDENCE_KEYS = { verified: 'e', corroborated: 'g', single_source: 'h' } as const;

/**
 * The complete widget page, in English; `?lang=` switches it in the browser (src/routes/widget-i18n.ts).
 * Every text and URL from the data is escaped. Marked for the script: `data-t` a label (its key in
 * the script's table: S stated, V variants, o no other version, e/g/h the confidence level, c verified, u source,
 * k/B/W/H/C the operator line), `data-k` an operator's line, `data-p` a
 * figure, `data-i` an axis percentage, `data-n` a variant count, `data-d` a date.
 */
export function renderWidget(d: WidgetData): string {
  const name = escapeHtml(d.name);
  const provider = escapeHtml(d.provider_display);
  const n = d.rtp_variants.length;
  const range = d.rtp_min === d.rtp_max ? fig(d.rtp_min) : `${fig(d.rtp_min)} – ${fig(d.rtp_max)}`;
  const verified = d.last_verified.slice(0, 10);
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${WIDGET_CSP}">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${name} RTP ${percent(d.stated_rtp)} · ${escapeHtml(d.attribution.text)}</title>` +
    `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(oembedUrl(d.widget_url.slice(0, -paths.widget(d.slug).length), d.widget_url))}" title="${name} RTP">` +
    `<style>${WIDGET_CSS}</style><script>${WIDGET_SCRIPT}</script></head>` +
    // Named by its game: a page embedding it has two main landmarks, and each needs its own label (WAI-ARIA Authoring Practices, Landmark Regions).
    `<body><main class="c" aria-labelledby="g">` +
    `<div class="h"><div class="id"><h1 id="g" title="${name}">${name}</h1><p class="p">${provider}</p></div>` +
    `<p class="r"><b data-p="${d.stated_rtp}">${percent(d.stated_rtp)}</b><span class="l" data-t="S">${EN.stated}</span></p></div>` +
    `<div><p class="v"><span class="l" data-t="V">${EN.variants}</span><span>${range} · <span data-n="${n}">${n} ${EN.variant[n === 1 ? 0 : 1]}</span></span></p>` +
    ladderSvg(d) +
    `<p class="x" aria-hidden="true"><span data-i="${axisFloor(d.rtp_min)}">${axisFloor(d.rtp_min)}%</span><span data-i="100">100%</span></p>` +
    `<p class="z">${n === 1 ? `<span data-t="o">${EN.noOther}</span>` : d.rtp_variants.map((v) => (v === d.stated_rtp ? `<b>${fig(v)}</b>` : fig(v))).join(' · ')}</p>${d.operators.map(operatorLine).join('')}</div>` +
    `<footer class="f"><span><span data-t="${CONFIDENCE_KEYS[d.confidence]}">${EN.confidence[d.confidence]}</span> · <span data-t="c">${EN.verified}</span> <span data-d="${escapeHtml(verified)}">${escapeHtml(verified)}</span> · ` +
    `<a href="${safeHref(d.source_url)}" target="_blank" rel="noopener noreferrer"><span data-t="u">${EN.source}</span> ↗</a></span>` +
    `<a href="${safeHref(d.attribution.url)}" target="_blank" rel="noopener">${escapeHtml(d.attribution.text)}</a></footer>` +
    `</main></body></html>`
  );
}
