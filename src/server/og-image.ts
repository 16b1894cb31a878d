// GET /api/og/rtp/{slug}.png: a game's link-preview card (src/site/og-card.ts) as a 1200 × 630 PNG,
// drawn by resvg (off the event loop) at most once per slug and data version: kept on disk
// (card-store.ts, CARD_CACHE_DIR) and in an LRU bounded in bytes, so a client cycling slugs costs
// one render per game and release, then a file read. Drawn here, not by the build: a card takes
// about 26 ms, which at 7,374 games would add over three minutes of CPU to a build of about 12 s
// (docs/site.md, Link previews). The renderer and its fonts load on the first card drawn. At most
// OG_RENDERS cards render at once and OG_WAITING wait; past that a card is a JSON 503.
import { createRequire } from 'node:module';
import pLimit from 'p-limit';
import { byteLru } from '../lib/bounded.ts';
import { type HandlerResult, jsonError, okAnswer } from '../list/handler-result.ts';
import type { RegistryServices } from '../list/service.ts';
import { KEY_SEGMENT, OG_PREFIX } from '../routes/paths.ts';
import { CACHE_HOUR } from '../routes/response-headers.ts';
import { POLICIES } from '../routes/routes.ts';
import { REGISTRY_NAME } from '../routes/urls.ts';
import { SLOT_NOT_FOUND } from '../schemas/errors.ts';
import type { GameRecord } from '../schemas/game-record.ts';
import { OG_FONT, OG_HEIGHT, OG_WIDTH, ogCardSvg } from '../site/og-card.ts';
import { type CardStore, DEFAULT_CARD_CACHE_BYTES, openCardStore } from './card-store.ts';

/** Cards rendering at once, and waiting to. */
export const OG_RENDERS = 2;
export const OG_WAITING = 32;
/** A full collection after this many cards drawn (see draw). */
const OG_COLLECT_EVERY = 8;
/**
 * Pixels of cards drawn and not yet collected, outside the heap: a card's RGBA bitmap (OG_WIDTH ×
 * OG_HEIGHT × 4, about 3 MB) for each card drawing and each drawn since the last collection.
 */
export const OG_DRAWING_BYTES = (OG_RENDERS + OG_COLLECT_EVERY) * OG_WIDTH * OG_HEIGHT * 4;
/** Cards read from disk at once. */
export const OG_READS = 16;
/** Memory for cards (about 39 KB each), in front of the disk. */
export const OG_CACHE_BYTES = 8 * 1024 * 1024;
export const OG_BUSY = { statusCode: 503, statusMessage: 'server busy: too many preview cards being drawn; retry after 1 s' };
const FONT_FILES = ['@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf', '@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf'];
const SLUG = new RegExp(`^${OG_PREFIX}${KEY_SEGMENT}\\.png$`);

/** Answers a card's path: the PNG, a JSON 404 for a slug the registry does not hold, or a 503. */
export type OgImages = (pathname: string) => Promise<HandlerResult>;

export interface OgImageOptions {
  /** CARD_CACHE_DIR: where cards are kept on disk; null keeps them in memory only. */
  cacheDir: string | null;
  /** CARD_CACHE_MB in bytes: the disk the cards of one data version may take. */
  diskBytes?: number;
  memoryBytes?: number;
  log?: (line: string) => void;
}

type Render = (svg: string) => Promise<Buffer>;

/** V8's collector, where Node was started with --expose-gc (the npm scripts are). */
const gc = (globalThis as { gc?: () => void }).gc;

/** resvg with the card's font, loaded once. */
async function loadRenderer(): Promise<Render> {
  const { renderAsync } = await import('@resvg/resvg-js');
  const require = createRequire(import.meta.url);
  const fontFiles = FONT_FILES.map((f) => require.resolve(f));
  return async (svg) =>
    (await renderAsync(svg, { font: { fontFiles, loadSystemFonts: false, defaultFontFamily: OG_FONT }, fitTo: { mode: 'width', value: OG_WIDTH } })).asPng();
}

/** The card route over one release's services. */
export function createOgImages(services: RegistryServices, options: OgImageOptions): OgImages {
  const cache = byteLru<HandlerResult>(options.memoryBytes ?? OG_CACHE_BYTES, 10_000, (r, key) => r.body.length + 2 * key.length + 512);
  const limit = pLimit(OG_RENDERS);
  // Files being read at once: each is a buffer of a card held until its answer is made.
  const reads = pLimit(OG_READS);
  // One answer in the making per slug: requests for a card being read or drawn wait for it.
  const making = new Map<string, Promise<HandlerResult>>();
  const log = options.log ?? ((line: string) => console.error(line));
  if (gc === undefined)
    log('preview cards: node runs without --expose-gc, so the pixels of drawn cards are freed late (resident memory grows by up to about 250 MB)');
  const store: Promise<CardStore | null> =
    options.cacheDir === null
      ? Promise.resolve(null)
      : openCardStore(options.cacheDir, services.dataVersion, options.diskBytes ?? DEFAULT_CARD_CACHE_BYTES, log);
  let renderer: Promise<Render> | undefined;
  let drawn = 0;
  const busy = jsonError(503, OG_BUSY);
  const answer = (png: Buffer) => okAnswer(png, POLICIES.og_image.contentType, CACHE_HOUR);

  const draw = (index: number): Promise<Buffer> =>
    limit(async () => {
      const buf = Buffer.allocUnsafe(services.engine.recordLength(index));
      services.engine.copyRecord(index, buf, 0);
      const record = JSON.parse(buf.toString('utf8')) as GameRecord;
      renderer ??= loadRenderer();
      const png = await (await renderer)(ogCardSvg(record, { data_version: services.dataVersion, registry: REGISTRY_NAME }));
      // resvg's rendered image holds its pixels (3 MB) outside the heap, freed only when V8 collects
      // its small wrapper, which V8 does not hurry: 300 cards drawn took RSS from 90 to 340 MB. A
      // full collection every few cards, once the card is answered, keeps it under 200 MB (a young
      // one is not enough: the wrappers outlive it and move to the old generation).
      if (gc !== undefined && ++drawn % OG_COLLECT_EVERY === 0) setImmediate(gc);
      return png;
    });

  const make = async (slug: string, index: number): Promise<HandlerResult> => {
    const disk = await store;
    const kept = disk === null ? null : await reads(() => disk.read(slug));
    if (kept !== null) return answer(kept);
    if (limit.pendingCount >= OG_WAITING) return { ...busy, headerList: busy.headerList.concat('Retry-After', '1') };
    const png = await draw(index);
    await disk?.write(slug, png);
    return answer(png);
  };

  return async (pathname) => {
    const m = SLUG.exec(pathname);
    const slug = m?.[1];
    const index = slug === undefined ? -1 : services.engine.indexOfSlug(slug);
    if (slug === undefined || index < 0) return jsonError(404, SLOT_NOT_FOUND);
    const kept = cache.get(slug);
    if (kept !== undefined) return kept;
    let pending = making.get(slug);
    if (pending === undefined) {
      pending = make(slug, index)
        .then((r) => {
          if (r.status === 200) cache.set(slug, r);
          return r;
        })
        .finally(() => making.delete(slug));
      making.set(slug, pending);
    }
    return pending;
  };
}
