// Embed builder logic shared by the game pages (server-rendered default) and the browser script.
//
//   {origin}/widget/rtp/{slug}?[theme=dark&][border=…&][radius=…&][lang=…&][operator=…&]v={data_version}   widget iframe src
//   {origin}/rtp/{slug}                                                                        attribution link
//
// Runs in the browser too, so it imports nothing from Node. With default options the embed code is
// exactly the `embed_html` of GET /api/rtp/{slug} (src/registry/shape.ts; a unit test pins it).

import { paths } from '../routes/paths.ts';
import { type WidgetLang, widgetLang } from '../routes/widget-i18n.ts';

export type WidgetTheme = 'light' | 'dark';

/** Options the widget reads from its query string (src/emit/widget-assets.ts). */
export interface WidgetOptions {
  theme: WidgetTheme;
  /** `''` for the theme's own border, `none` for no border, or a hex colour `#rgb` / `#rrggbb`. */
  border: string;
  /** Corner radius in CSS pixels (0-32); null for the widget's default. */
  radius: number | null;
  /** The widget's language (src/routes/widget-i18n.ts); English is the default and is not written. */
  lang: WidgetLang;
  /** The operator key whose line the widget shows (`operator=<key>`), or `''` for none. */
  operator: string;
}

export const DEFAULT_WIDGET_OPTIONS: WidgetOptions = { theme: 'light', border: '', radius: null, lang: 'en', operator: '' };
/** The widget's own corner radius when none is given. */
export const DEFAULT_RADIUS = 12;
export const RADIUS_MAX = 32;
export const REGISTRY_NAME = 'RTP Registry';

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * Normalises user input for the border: empty (theme default), `none` (any case), or a hex colour
 * with or without `#` (lowercased, with `#`); anything else gives `null` (invalid).
 */
export function normaliseBorder(input: string): string | null {
  const s = input.trim();
  if (s === '') return '';
  if (s.toLowerCase() === 'none') return 'none';
  const m = HEX.exec(s);
  return m ? `#${m[1]!.toLowerCase()}` : null;
}

/** Normalises user input for the radius: empty (default, `null`), or whole pixels 0-32; else `undefined` (invalid). */
export function normaliseRadius(input: string): number | null | undefined {
  const s = input.trim();
  if (s === '') return null;
  if (!/^\d{1,2}$/.test(s)) return undefined;
  const n = Number(s);
  return n <= RADIUS_MAX ? n : undefined;
}

/** The widget's query string (options that differ from the defaults, then `v`), without the leading `?`. */
export function widgetQuery(opts: WidgetOptions, dataVersion: string): string {
  const q: string[] = [];
  if (opts.theme === 'dark') q.push('theme=dark');
  if (opts.border !== '') q.push(`border=${opts.border === 'none' ? 'none' : opts.border.replace(/^#/, '')}`);
  if (opts.radius !== null) q.push(`radius=${opts.radius}`);
  const lang = widgetLang(opts.lang);
  if (lang !== 'en') q.push(`lang=${lang}`);
  if (opts.operator !== '') q.push(`operator=${encodeURIComponent(opts.operator)}`);
  q.push(`v=${encodeURIComponent(dataVersion)}`);
  return q.join('&');
}

/** Absolute widget URL for a game with the given options. */
export function widgetSrc(origin: string, slug: string, opts: WidgetOptions, dataVersion: string): string {
  return `${origin}${paths.widget(slug)}?${widgetQuery(opts, dataVersion)}`;
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESC[c]!);

/**
 * The embed code a site owner copies: the iframe (the spec's embedding form: width 100%, height
 * 220, frameborder 0, loading lazy, a title) and the short attribution link to the game's page.
 */
export function embedSnippet(origin: string, slug: string, name: string, opts: WidgetOptions, dataVersion: string): string {
  const n = esc(name);
  const src = esc(widgetSrc(origin, slug, opts, dataVersion));
  const page = esc(`${origin}${paths.gamePage(slug)}`);
  return (
    `<iframe src="${src}" width="100%" height="220" frameborder="0" loading="lazy" title="${n} RTP · ${REGISTRY_NAME}"></iframe>` +
    `<p><a href="${page}">${n} RTP · ${REGISTRY_NAME} · CC BY 4.0</a></p>`
  );
}
