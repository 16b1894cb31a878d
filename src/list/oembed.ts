// GET /api/oembed?url=<game page or widget URL>&format=json&maxwidth=&maxheight=: the registry as an
// oEmbed 1.0 provider (https://oembed.com/) of type `rich`: the widget iframe with its width and
// height, the game as title, the provider as author. Statuses as the spec has them: 404 for a URL
// that is not one of this registry's game pages or widgets (or a size the widget cannot fit), 501
// for a format other than json, and 400 naming a missing `url` or a bad size.

import { escapeHtml } from '../lib/html.ts';
import { percent } from '../lib/percent.ts';
import { keyedFile, paths } from '../routes/paths.ts';
import { CACHE_HOUR } from '../routes/response-headers.ts';
import { REGISTRY_NAME } from '../routes/urls.ts';
import type { GameRecord } from '../schemas/game-record.ts';
import {
  OEMBED_FORMAT,
  OEMBED_HEIGHT,
  OEMBED_MIN_WIDTH,
  OEMBED_NOT_FOUND,
  OEMBED_TOO_SMALL,
  OEMBED_WIDTH,
  type OembedResponse,
  OembedResponseSchema,
} from '../schemas/oembed.ts';
import type { ListEngine } from './engine.ts';
import { type HandlerResult, invalidQuery, jsonError, jsonOk } from './handler-result.ts';
import { collectParams, type ParamError, type QueryInput, single } from './params.ts';

export const MSG_URL_REQUIRED = 'is required: the URL of a game page or widget of this registry';
export const MSG_SIZE = 'must be a whole number of pixels from 1 to 100000';
/** Longest `url` read (a registry URL is far shorter; the query string is bounded anyway). */
const URL_MAX = 1024;
/** Widget options carried from a widget URL into the iframe (src/routes/widget-i18n.ts, docs/api-static.md). */
const WIDGET_OPTIONS = ['theme', 'border', 'radius', 'lang', 'operator'] as const;

export type OembedHandler = (input: QueryInput) => HandlerResult;

function size(values: Map<string, string[]>, name: string, errors: ParamError[]): number | null {
  const raw = single(values, name, errors);
  if (raw === null) return null;
  if (!/^[1-9][0-9]{0,5}$/.test(raw) || Number(raw) > 100_000) {
    errors.push({ param: name, message: MSG_SIZE });
    return null;
  }
  return Number(raw);
}

/** The game slug and widget options a URL of this registry names, or null. */
export function embeddable(site: string, raw: string): { slug: string; options: URLSearchParams } | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const where = `${url.origin}${url.pathname}`;
  if (!where.startsWith(`${site}/`)) return null;
  const keyed = keyedFile(where.slice(site.length));
  if (keyed === null || (keyed.family !== 'page' && keyed.family !== 'widget')) return null;
  const slug = keyed.key;
  const options = new URLSearchParams();
  if (keyed.family === 'widget')
    for (const name of WIDGET_OPTIONS) {
      const v = url.searchParams.get(name);
      if (v !== null && v !== '') options.set(name, v.slice(0, 16));
    }
  return { slug, options };
}

/** The oEmbed answer for one game (pure). */
export function oembedFor(
  r: Pick<GameRecord, 'canonical_slug' | 'canonical_name' | 'provider' | 'provider_display' | 'stated_rtp'>,
  site: string,
  options: URLSearchParams,
  width: number,
): OembedResponse {
  const query = options.toString();
  const src = `${site}${paths.widget(r.canonical_slug)}${query === '' ? '' : `?${query}`}`;
  const title = `${r.canonical_name} RTP ${percent(r.stated_rtp)} (${r.provider_display})`;
  return OembedResponseSchema.parse({
    version: '1.0',
    type: 'rich',
    title,
    author_name: r.provider_display,
    author_url: `${site}${paths.providerPage(r.provider)}`,
    provider_name: REGISTRY_NAME,
    provider_url: `${site}/`,
    cache_age: 3600,
    html: `<iframe src="${escapeHtml(src)}" width="${width}" height="${OEMBED_HEIGHT}" frameborder="0" loading="lazy" title="${escapeHtml(`${r.canonical_name} RTP`)}"></iframe>`,
    width,
    height: OEMBED_HEIGHT,
  });
}

/**
 * The oEmbed route's handler over an engine, for the registry at `site` (the build's RTP_SITE); the
 * URL of a slug merged into another record (`survivors`) embeds the survivor's widget.
 */
export function createOembedHandler(engine: ListEngine, site: string, survivors: ReadonlyMap<string, string> = new Map()): OembedHandler {
  return (input) => {
    const values = collectParams(input, ['url', 'format', 'maxwidth', 'maxheight']);
    const errors: ParamError[] = [];
    const url = single(values, 'url', errors);
    const format = single(values, 'format', errors);
    const maxwidth = size(values, 'maxwidth', errors);
    const maxheight = size(values, 'maxheight', errors);
    if (url === null && !errors.some((e) => e.param === 'url')) errors.push({ param: 'url', message: MSG_URL_REQUIRED });
    if (errors.length > 0) return invalidQuery(errors);
    if (format !== null && format !== 'json') return jsonError(501, OEMBED_FORMAT);
    const target = url!.length > URL_MAX ? null : embeddable(site, url!);
    const index = target === null ? -1 : engine.indexOfSlug(survivors.get(target.slug) ?? target.slug);
    if (target === null || index < 0) return jsonError(404, OEMBED_NOT_FOUND);
    if ((maxwidth !== null && maxwidth < OEMBED_MIN_WIDTH) || (maxheight !== null && maxheight < OEMBED_HEIGHT)) return jsonError(404, OEMBED_TOO_SMALL);
    const buf = Buffer.allocUnsafe(engine.recordLength(index));
    engine.copyRecord(index, buf, 0);
    const record = JSON.parse(buf.toString('utf8')) as GameRecord;
    const width = Math.min(OEMBED_WIDTH, maxwidth ?? OEMBED_WIDTH);
    return jsonOk(Buffer.from(JSON.stringify(oembedFor(record, site, target.options, width))), CACHE_HOUR);
  };
}
