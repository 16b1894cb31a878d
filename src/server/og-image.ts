// GET /api/og/rtp/{slug}.png: a game's link-preview card (src/site/og-card.ts) as a 1200 × 630 PNG,
// rendered by resvg on first request (off the event loop) and kept in an LRU bounded in bytes.
// Rendered here, not by the build: a card takes about 26 ms, which at 5,000 games would add over
// two minutes to a build of a few seconds (docs/site.md, Link previews). The renderer and its font
// files are loaded on the first card asked for. At most OG_RENDERS cards render at once and
// OG_WAITING wait; past that a card is a JSON 503, like other work past its bound.
import { createRequire } from 'node:module';
import pLimit from 'p-limit';
import { byteLru } from '../lib/bounded.ts';
import { jsonError, okAnswer, type HandlerResult } from '../list/http.ts';
import type { RegistryServices } from '../list/service.ts';
import { CACHE_HOUR, POLICIES } from '../routes/routes.ts';
import { KEY_SEGMENT, OG_PREFIX } from '../routes/paths.ts';
import { REGISTRY_NAME } from '../routes/urls.ts';
import { SLOT_NOT_FOUND } from '../schemas/errors.ts';
import type { GameRecord } from '../schemas/game-record.ts';
import { OG_FONT, OG_WIDTH, ogCardSvg } from '../site/og-card.ts';

/** Cards rendering at once, and waiting to. */
export const OG_RENDERS = 2;
export const OG_WAITING = 32;
/** Memory for rendered cards (about 55 KB each). */
export const OG_CACHE_BYTES = 8 * 1024 * 1024;
export const OG_BUSY = { statusCode: 503, statusMessage: 'server busy: too many preview cards being drawn; retry after 1 s' };
const FONT_FILES = ['@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf', '@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf'];
const SLUG = new RegExp(`^${OG_PREFIX}${KEY_SEGMENT}\\.png$`);

/** Answers a card's path: the PNG, a JSON 404 for a slug the registry does not hold, or a 503. */
export type OgImages = (pathname: string) => Promise<HandlerResult>;

type Render = (svg: string) => Promise<Buffer>;

/** resvg with the card's font, loaded once. */
async function loadRenderer(): Promise<Render> {
  const { renderAsync } = await import('@resvg/resvg-js');
  const require = createRequire(import.meta.url);
  const fontFiles = FONT_FILES.map((f) => require.resolve(f));
  return async (svg) => (await renderAsync(svg, { font: { fontFiles, loadSystemFonts: false, defaultFontFamily: OG_FONT }, fitTo: { mode: 'width', value: OG_WIDTH } })).asPng();
}


/** The card route over one release's services. */
export function createOgImages(services: RegistryServices, cacheBytes = OG_CACHE_BYTES): OgImages {
  const cache = byteLru<HandlerResult>(cacheBytes, 10_000, (r, key) => r.body.length + 2 * key.length + 512);
  const limit = pLimit(OG_RENDERS);
  let renderer: Promise<Render> | undefined;
  const busy = jsonError(503, OG_BUSY);
  return async (pathname) => {
    const m = SLUG.exec(pathname);
    const index = m === null ? -1 : services.engine.indexOfSlug(m[1]!);
    if (index < 0) return jsonError(404, SLOT_NOT_FOUND);
    const kept = cache.get(m![1]!);
    if (kept !== undefined) return kept;
    if (limit.pendingCount >= OG_WAITING) return { ...busy, headerList: busy.headerList.concat('Retry-After', '1') };
    return limit(async () => {
      const again = cache.get(m![1]!);
      if (again !== undefined) return again;
      const buf = Buffer.allocUnsafe(services.engine.recordLength(index));
      services.engine.copyRecord(index, buf, 0);
      const record = JSON.parse(buf.toString('utf8')) as GameRecord;
      renderer ??= loadRenderer();
      const png = await (await renderer)(ogCardSvg(record, { data_version: services.dataVersion, registry: REGISTRY_NAME }));
      const result = okAnswer(png, POLICIES.og_image.contentType, CACHE_HOUR);
      cache.set(m![1]!, result);
      return result;
    });
  };
}
