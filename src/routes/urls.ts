// The public base URL (RTP_SITE) and the absolute links built from it.
//
//   {site}/widget/rtp/{slug}   widget page (embed src)
//   {site}/rtp/{slug}          the registry's page for a game (attribution target)
import { paths } from './paths.ts';

/** The registry's name as shown in attributions and citations. */
export const REGISTRY_NAME = 'RTP Registry';

/** Base URL used when RTP_SITE is not set: the local server's default address. */
export const DEFAULT_SITE = 'http://127.0.0.1:4321';

/**
 * The base URL for absolute links: env `RTP_SITE` (an http(s) origin with an optional path),
 * without trailing slash; `DEFAULT_SITE` when unset or empty. Throws on anything else.
 */
export function siteUrl(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.RTP_SITE?.trim() || DEFAULT_SITE;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`RTP_SITE must be an absolute http(s) URL such as https://rtp.example.org (got "${raw}")`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`RTP_SITE must be an absolute http(s) URL such as https://rtp.example.org (got "${raw}")`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * The WebSub hub the Atom feeds name (`<link rel="hub">`) and `npm run release` pings: env
 * `WEBSUB_HUB`, an absolute http(s) URL; null when unset or empty (the feeds name no hub).
 */
export function websubHub(env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = env.WEBSUB_HUB?.trim() ?? '';
  if (raw === '') return null;
  let url: URL | null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
    throw new Error(
      `WEBSUB_HUB must be an absolute http(s) URL of a WebSub hub such as https://pubsubhubbub.appspot.com/ (got "${raw}"), or unset for feeds without a hub`,
    );
  }
  return url.href;
}

/** Absolute URL of a game's widget page. */
export function widgetUrl(site: string, slug: string): string {
  return `${site}${paths.widget(slug)}`;
}

/** Absolute URL of the registry's page for a game. */
export function pageUrl(site: string, slug: string): string {
  return `${site}${paths.gamePage(slug)}`;
}

/** The oEmbed discovery URL of a registry page or widget URL (`<link rel="alternate" type="application/json+oembed">`). */
export function oembedUrl(site: string, url: string): string {
  return `${site}${paths.oembed}?url=${encodeURIComponent(url)}&format=json`;
}
