// One or more URLs of every route family, as a table keyed by the route table's families: a family
// added to src/routes/routes.ts without samples here fails the tests that iterate over it.
import { paths, type RouteFamily } from '../../src/routes/paths.ts';
import { DEFAULT_SITE, pageUrl } from '../../src/routes/urls.ts';

export interface SampleKeys {
  slug: string;
  provider: string;
  /** An operator's key, where the registry has operators (none: no operator sample). */
  operator?: string;
  /** A data version with a release diff (dump/changes/{version}.json). */
  version: string;
  /** A build asset's URL path (/_astro/…). */
  asset: string;
}

/** URLs of each family for a registry holding `keys`. */
export function familySamples(keys: SampleKeys): Record<RouteFamily, string[]> {
  const { slug, provider, operator, version, asset } = keys;
  return {
    list: [`${paths.list}?limit=3&sort=rtp_desc`],
    history: [`${paths.history}?limit=2`],
    identify: [`${paths.identify}?slug=${slug}&rtp=96`],
    oembed: [`${paths.oembed}?url=${encodeURIComponent(pageUrl(DEFAULT_SITE, slug))}&format=json`],
    og_image: [paths.ogImage(slug)],
    mcp: [paths.mcp],
    slot: [paths.slot(slug)],
    provider: [paths.provider(provider)],
    operator: operator === undefined ? [] : [paths.operator(operator)],
    widget_data: [paths.widgetData(slug)],
    widget: [paths.widget(slug)],
    badge: [paths.badge(slug)],
    provider_feed: [paths.providerFeed(provider)],
    operator_feed: operator === undefined ? [] : [paths.operatorFeed(operator)],
    game_feed: [paths.gameFeed(slug)],
    openapi: [paths.openapi],
    dump: [paths.dump.json, paths.dump.csv, paths.dump.ndjson, paths.dump.dataPackage, paths.dump.changes(version), paths.removed, paths.llms, paths.feed],
    page: [paths.gamePage(slug), '/', '/about', paths.providerPage(provider), ...(operator === undefined ? [] : [paths.operatorPage(operator)])],
    asset: [asset],
  };
}

/** A JSON-RPC call for POST /mcp (the one family answered to POST). */
export const MCP_CALL: RequestInit = {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
};
