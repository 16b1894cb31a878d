// The per-game registry page (/rtp/{slug}) as plain string functions: the Astro-rendered shell
// (layout, stylesheet, script) is filled with one game's escaped content.
//
//   /rtp/{slug}                  this page (file rtp/{slug}.html)
//   /providers/{provider}        linked provider page
//   /operators/{operator}        linked operator pages (src/site/game-operators.ts)
//   /compare?slugs={slug}        linked compare page
//   /api/rtp/{slug}, /api/widget/rtp/{slug}, /widget/rtp/{slug}   linked API and widget URLs

import { escapeHtml as e } from '../lib/html.ts';
import { confidenceBasis } from '../registry/derive.ts';
import { paths } from '../routes/paths.ts';
import { oembedUrl } from '../routes/urls.ts';
import type { RegistryFile } from '../schemas/authoring.ts';
import type { GameRecord } from '../schemas/game-record.ts';
import type { SlotHistoryEntry } from '../schemas/slot.ts';
import { type HistoryPoint, historyChart, ladderChart } from './charts.ts';
import { correctionUrl } from './corrections.ts';
import { DEFAULT_WIDGET_OPTIONS, embedSnippet, widgetSrc } from './embed.ts';
import {
  explainConfidence,
  formatBadge,
  formatDate,
  formatGameType,
  formatHouseEdge,
  formatMaxWin,
  formatRange,
  formatRtp,
  formatSourceKind,
  formatVariantKind,
  formatVolatility,
  formatYear,
  hostOf,
} from './format.ts';
import { ladderSeen, operatorsSection } from './game-operators.ts';
import { OG_HEIGHT, OG_WIDTH } from './og-card.ts';
import { gameCitationText, gamePath, providerPath, SITE_NAME } from './site.ts';

/** Markers in the shell page that the game's content replaces (each must occur exactly once). */
export const MARKERS = {
  title: '@@RTP_TITLE@@',
  description: '@@RTP_DESCRIPTION@@',
  feed: '@@RTP_FEED@@',
  head: '@@RTP_HEAD@@',
  main: '@@RTP_MAIN@@',
} as const;

type MarkerName = keyof typeof MARKERS;

/** A shell split at its markers, ready to be filled many times. */
export interface Shell {
  parts: string[];
  order: MarkerName[];
}

/**
 * Splits the shell HTML at its markers. Throws when a marker is missing or repeated, so a changed
 * layout cannot silently produce empty game pages.
 */
export function parseShell(html: string): Shell {
  const found: Array<{ at: number; name: MarkerName }> = [];
  const problems: string[] = [];
  for (const name of Object.keys(MARKERS) as MarkerName[]) {
    const marker = MARKERS[name];
    const first = html.indexOf(marker);
    if (first === -1) problems.push(`marker ${marker} is missing`);
    else if (html.indexOf(marker, first + 1) !== -1) problems.push(`marker ${marker} occurs more than once`);
    else found.push({ at: first, name });
  }
  if (problems.length > 0) throw new Error(`Game page shell is invalid: ${problems.join('; ')}`);
  found.sort((a, b) => a.at - b.at);
  const parts: string[] = [];
  let pos = 0;
  for (const f of found) {
    parts.push(html.slice(pos, f.at));
    pos = f.at + MARKERS[f.name].length;
  }
  parts.push(html.slice(pos));
  return { parts, order: found.map((f) => f.name) };
}

/** Fills a parsed shell in one pass (values are inserted as given: they must already be escaped). */
export function fillShell(shell: Shell, values: Record<MarkerName, string>): string {
  let out = shell.parts[0]!;
  for (let i = 0; i < shell.order.length; i++) out += values[shell.order[i]!] + shell.parts[i + 1]!;
  return out;
}

/** An http(s) URL escaped for an attribute; anything else becomes `#`. */
function href(url: string): string {
  return /^https?:\/\//i.test(url) ? e(url) : '#';
}

/** A link to an outside page, its host as the text (the full URL is the target and is in the JSON). */
function hostLink(url: string): string {
  return `<a href="${href(url)}" rel="nofollow noopener">${e(hostOf(url))}</a>`;
}

function variantsTable(r: GameRecord): string {
  // Compact markup (column styles come from the stylesheet): this table is in every one of 50k pages.
  const rows = r.variants
    .slice()
    .reverse()
    .map((v) => {
      const stated = v.rtp === r.stated_rtp;
      return `<tr><td>${e(formatRtp(v.rtp))}</td><td>${e(formatVariantKind(v.kind, v.jurisdiction))}${stated ? ' · <strong>stated RTP</strong>' : ''}</td><td>${e(formatHouseEdge(v.rtp))}</td></tr>`;
    })
    .join('');
  return `<table class="ladder"><caption class="sr-only">RTP variants, highest first</caption><thead><tr><th>RTP</th><th>Kind</th><th>House edge</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * The game's stated RTP and variants at each data version that changed them, oldest first, from its
 * history (newest first, as in GET /api/rtp/{slug}); empty unless a figure changed after the game
 * first appeared (its first entries have `from: null`).
 */
export function historyPoints(entries: readonly SlotHistoryEntry[]): HistoryPoint[] {
  if (!entries.some((h) => h.from !== null)) return [];
  const points: HistoryPoint[] = [];
  let stated: number | null = null;
  let variants: number[] | null = null;
  for (let i = entries.length - 1; i >= 0; i--) {
    const h = entries[i]!;
    if (h.field === 'stated_rtp') stated = h.to as number | null;
    else variants = h.to as number[] | null;
    const next = entries[i - 1];
    if (next !== undefined && next.data_version === h.data_version) continue; // the version's other field follows
    if (stated !== null && variants !== null) points.push({ data_version: h.data_version, date: formatDate(h.frozen_at), stated, variants: [...variants] });
  }
  return points;
}

function historyValue(v: number | number[] | null): string {
  if (v === null) return '—';
  return Array.isArray(v) ? v.map(formatRtp).join(', ') : formatRtp(v);
}

function historyTable(entries: SlotHistoryEntry[]): string {
  if (entries.length === 0) return '<p>No RTP changes recorded for this game.</p>';
  const rows = entries
    .map(
      (h) =>
        `<tr><td><time datetime="${e(h.frozen_at)}">${e(formatDate(h.frozen_at))}</time></td><td>${e(h.data_version)}</td>` +
        `<td>${h.field === 'stated_rtp' ? 'Stated RTP' : 'RTP variants'}</td><td>${e(historyValue(h.from))}</td><td>${e(historyValue(h.to))}</td></tr>`,
    )
    .join('');
  return (
    `<div class="table-scroll" tabindex="0" role="region" aria-label="RTP history table"><table><caption class="sr-only">RTP history, newest first</caption>` +
    `<thead><tr><th scope="col">Frozen</th><th scope="col">Data version</th><th scope="col">Field</th><th scope="col">From</th><th scope="col">To</th></tr></thead>` +
    `<tbody>${rows}</tbody></table></div>`
  );
}

function embedBuilder(r: GameRecord, site: string, dataVersion: string): string {
  const o = DEFAULT_WIDGET_OPTIONS;
  const src = widgetSrc(site, r.canonical_slug, o, dataVersion);
  const snippet = embedSnippet(site, r.canonical_slug, r.canonical_name, o, dataVersion);
  // The option controls and the copy button are added by the page script (src/site/client/embed-builder.ts):
  // they need JavaScript anyway, and leaving them out keeps 50k pages small. The casinos whose line the
  // widget can show are handed to it as [key, name] pairs.
  const operators = [...new Map(r.operators.map((o) => [o.operator, o.display]))];
  const offered = operators.length === 0 ? '' : ` data-operators="${e(JSON.stringify(operators))}"`;
  return (
    `<section><h2>Embed this game's RTP</h2>` +
    `<div class="embed-builder" data-embed-builder data-slug="${e(r.canonical_slug)}" data-name="${e(r.canonical_name)}" data-version="${e(dataVersion)}"${offered}>` +
    `<noscript><p>Options need JavaScript; this code uses the defaults.</p></noscript>` +
    `<iframe data-embed-preview src="${e(src)}" width="100%" height="220" frameborder="0" title="Widget preview: ${e(r.canonical_name)}"></iframe>` +
    `<label for="eb-snippet">Embed code (iframe and attribution link)</label>` +
    `<textarea id="eb-snippet" data-embed-snippet readonly rows="4">${e(snippet)}</textarea>` +
    `</div></section>`
  );
}

/** Every source side by side: its kind, page, stated figure, all its figures; the one that sets the stated RTP first. */
function sourcesTable(r: GameRecord): string {
  const rows = r.sources
    .map((s, i) => {
      const figures = s.rtp_variants.map((v) => e(formatRtp(v))).join(', ');
      const differs = s.stated_rtp !== r.stated_rtp ? ' <small>(differs)</small>' : '';
      return (
        `<tr${i === 0 ? ' data-stating' : ''}><td>${e(formatSourceKind(s.kind))}${s.via === null ? '' : ` <small data-via>(${e(s.via)})</small>`} <small data-origin>from ${e(s.origin)}</small>${i === 0 ? ' <small>(states the RTP)</small>' : ''}</td>` +
        `<td>${hostLink(s.url)}</td><td>${e(formatRtp(s.stated_rtp))}${differs}</td><td>${figures}</td>` +
        `<td>${s.checked_at === null ? '—' : `<time datetime="${e(s.checked_at)}">${e(formatDate(s.checked_at))}</time>`}</td></tr>`
      );
    })
    .join('');
  return (
    `<div class="table-scroll" tabindex="0" role="region" aria-label="Sources"><table><thead><tr><th scope="col">Source</th><th scope="col">Page</th><th scope="col">Stated RTP</th>` +
    `<th scope="col">All figures</th><th scope="col">Checked</th></tr></thead><tbody>${rows}</tbody></table></div>`
  );
}

/** Everything a game page shows besides the record itself. */
export interface GamePageContext {
  meta: RegistryFile;
  /** Base URL for absolute links in the embed code (RTP_SITE). */
  site: string;
  history: SlotHistoryEntry[];
  /** The CORRECTIONS_URL template (src/site/corrections.ts); no correction link when absent or null. */
  corrections?: string | null;
}

/** The `<title>` text of a game page. */
export function gameTitle(r: GameRecord): string {
  return `${r.canonical_name} RTP ${formatRtp(r.stated_rtp)} (${r.provider_display}) · ${SITE_NAME}`;
}

/** The meta description of a game page. */
export function gameDescription(r: GameRecord): string {
  const range = r.variants_count > 1 ? `, ${r.variants_count} variants ${formatRange(r.rtp_min, r.rtp_max)}` : '';
  return `${r.canonical_name} (${r.provider_display}): stated RTP ${formatRtp(r.stated_rtp)}${range}.`;
}

/**
 * The game page's link-preview tags (Open Graph, Twitter card, with the game's card as the image),
 * its canonical URL and its oEmbed discovery link: the title names the game, its stated RTP (two
 * decimals) and provider.
 */
export function gameHead(r: GameRecord, site: string): string {
  const url = `${site}${gamePath(r.canonical_slug)}`;
  const image = `${site}${paths.ogImage(r.canonical_slug)}`;
  const title = e(`${r.canonical_name} RTP ${formatRtp(r.stated_rtp)} (${r.provider_display})`);
  const description = e(gameDescription(r));
  return (
    `<link rel="canonical" href="${e(url)}">` +
    `<meta property="og:type" content="website"><meta property="og:site_name" content="${SITE_NAME}">` +
    `<meta property="og:title" content="${title}"><meta property="og:description" content="${description}"><meta property="og:url" content="${e(url)}">` +
    `<meta property="og:image" content="${e(image)}"><meta property="og:image:type" content="image/png"><meta property="og:image:width" content="${OG_WIDTH}"><meta property="og:image:height" content="${OG_HEIGHT}"><meta property="og:image:alt" content="${title}">` +
    `<meta name="twitter:card" content="summary_large_image"><meta name="twitter:title" content="${title}"><meta name="twitter:description" content="${description}"><meta name="twitter:image" content="${e(image)}">` +
    `<link rel="alternate" type="application/json+oembed" href="${e(oembedUrl(site, url))}" title="${title}">`
  );
}

/** The `<main>` content of a game page (all data escaped). */
export function gameMain(r: GameRecord, ctx: GamePageContext): string {
  const slug = r.canonical_slug;
  const badges = r.badges.length === 0 ? '' : `<ul class="badges">${r.badges.map((b) => `<li>${e(formatBadge(b))}</li>`).join('')}</ul>`;
  const pageUrl = `${ctx.site}${gamePath(slug)}`;
  return (
    `<nav aria-label="Breadcrumb"><a href="${paths.pages.search}">Search</a> › <a href="${providerPath(r.provider)}">${e(r.provider_display)}</a></nav>` +
    `<h1>${e(r.canonical_name)}</h1>` +
    `<p class="stated"><span data-stated-rtp>${e(formatRtp(r.stated_rtp))}</span> <small>stated RTP · house edge ${e(formatHouseEdge(r.stated_rtp))}</small></p>` +
    `<p class="confidence" data-confidence="${e(r.confidence)}">${e(explainConfidence(confidenceBasis(r.stated_rtp, r.sources)))}.</p>` +
    badges +
    `<p class="actions"><a href="${e(paths.pages.compare([slug]))}" data-compare-link>Compare with other games…</a></p>` +
    `<div class="grid2"><section><h2>Game</h2><dl class="facts">` +
    `<dt>Provider</dt><dd><a href="${providerPath(r.provider)}">${e(r.provider_display)}</a></dd>` +
    (r.studio === null ? '' : `<dt>Studio</dt><dd data-studio>${e(r.studio)}</dd>`) +
    `<dt>Game type</dt><dd>${e(formatGameType(r.game_type))}</dd>` +
    `<dt>Release year</dt><dd>${e(formatYear(r.release_year))}</dd>` +
    `<dt>Volatility</dt><dd>${e(formatVolatility(r.volatility))}</dd>` +
    `<dt>Max win</dt><dd>${e(formatMaxWin(r.max_win))}</dd>` +
    `<dt>RTP range</dt><dd>${e(formatRange(r.rtp_min, r.rtp_max))} (${r.variants_count} variant${r.variants_count === 1 ? '' : 's'})</dd>` +
    `</dl></section>` +
    `<section><h2>Provenance</h2><dl class="facts">` +
    `<dt>Source</dt><dd>${hostLink(r.source_url)}</dd>` +
    `<dt>Evidence</dt><dd>${hostLink(r.evidence_url)}</dd>` +
    `<dt>Source kind</dt><dd>${r.source_kind === 'provider_page' ? "Provider's own page, read here" : r.sources.some((s) => s.via !== null) ? "Third-party page: the provider's page as cited by a catalogue, not read here" : 'Third-party page'} (<code>${e(r.source_kind)}</code>)</dd>` +
    `<dt>Last verified</dt><dd><time datetime="${e(r.last_verified)}">${e(formatDate(r.last_verified))}</time></dd>` +
    `<dt>Snapshot id</dt><dd><code>${e(r.snapshot_id)}</code></dd>` +
    `<dt>Notes</dt><dd>${r.notes === '' ? '—' : e(r.notes)}</dd>` +
    `</dl></section></div>` +
    `<section data-sources><h2>Sources</h2><p class="lede">Every source that states this game's figures, the one that sets the stated RTP first, then by kind. A licensed casino's catalogue shows the build that casino runs: a second origin when it agrees, a variant when it differs, the stated RTP only where the other sources leave it open${r.badges.includes('sources_disagree') ? '; the sources disagree, and every figure is shown' : ''}.</p>${sourcesTable(r)}</section>` +
    `<section data-variants><h2>RTP variants</h2><p class="lede">Casinos may run a lower build than the stated one.</p>${ladderChart('ladder', r.variants, r.stated_rtp, undefined, ladderSeen(r))}${variantsTable(r)}</section>` +
    operatorsSection(r) +
    `<section data-history><h2>RTP history</h2>${historyChart('history', historyPoints(ctx.history))}${historyTable(ctx.history)}</section>` +
    embedBuilder(r, ctx.site, ctx.meta.data_version) +
    `<section data-cite><h2>Cite and reuse</h2><p>Cite as: <cite>${e(gameCitationText(ctx.meta, r.canonical_name, r.provider_display, pageUrl))}</cite></p>` +
    `<p>Data version <data data-data-version value="${e(ctx.meta.data_version)}">${e(ctx.meta.data_version)}</data>, frozen <time datetime="${e(ctx.meta.frozen_at)}">${e(formatDate(ctx.meta.frozen_at))}</time>: name it when you quote these figures.</p>` +
    `<p>As JSON: <a href="${paths.slot(slug)}">${paths.slot(slug)}</a></p>` +
    (ctx.corrections
      ? `<p><a href="${e(correctionUrl(ctx.corrections, r, pageUrl, ctx.meta.data_version))}" rel="nofollow noopener" data-correction>Report a correction</a></p>`
      : '') +
    `</section>`
  );
}

/** The complete HTML of a game page. */
export function renderGamePage(shell: Shell, r: GameRecord, ctx: GamePageContext): string {
  return fillShell(shell, {
    title: e(gameTitle(r)),
    description: e(gameDescription(r)),
    feed: e(paths.gameFeed(r.canonical_slug)),
    head: gameHead(r, ctx.site),
    main: gameMain(r, ctx),
  });
}
