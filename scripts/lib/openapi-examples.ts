// Example request and response of every route, computed from a registry with the same functions that
// build and serve the API (used by docs/api.md and by the contract tests).
//
//   examples use the base URL DEFAULT_SITE (http://127.0.0.1:4321), the local server's address

import { renderBadge } from '../../src/emit/badge.ts';
import { renderDumps } from '../../src/emit/dumps.ts';
import { feedIndex, gameFeed } from '../../src/emit/feeds.ts';
import { operatorFeed } from '../../src/emit/operator-feed.ts';
import { renderWidget } from '../../src/emit/widget.ts';
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { makeContext, shapeProvider, shapeSlot, shapeWidgetData } from '../../src/registry/shape.ts';
import { shapeOperator } from '../../src/registry/shape-operator.ts';
import { dumpFiles, keyedTemplate, paths } from '../../src/routes/paths.ts';
import { DEFAULT_SITE } from '../../src/routes/urls.ts';
import { SLOT_NOT_FOUND } from '../../src/schemas/errors.ts';
import { RATE_LIMITED_MESSAGE } from '../../src/schemas/rate-limit.ts';
import { servicesFor } from './services.ts';

/** Arrays of a bulk download's example cut to their first `n` items (the counts beside them stay whole). */
function shorten(value: unknown, n = 2): unknown {
  if (Array.isArray(value)) return value.slice(0, n).map((v) => shorten(v, n));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, n)]));
  return value;
}

/** The first `lines` lines of a text download. */
const head = (text: string, lines: number) =>
  `${text
    .split('\n')
    .slice(0, lines)
    .map((l) => l.replace(/\r$/, ''))
    .join('\n')}\n…`;

/** One example exchange: the request path (with query), status, media type and body. */
export interface Example {
  request: string;
  status: number;
  contentType: 'application/json' | 'text/html' | 'text/csv' | 'application/x-ndjson' | 'text/plain' | 'image/svg+xml' | 'image/png' | 'application/atom+xml';
  /** Parsed JSON for JSON bodies, the text for the others (a bulk download's first lines). */
  body: unknown;
  /** The OpenAPI path (template) and the response component it must validate against. */
  path: string;
  schema: string | null;
}

/** The game used in examples: Book of Dead when present, otherwise the first record. */
export const EXAMPLE_SLUG = 'book-of-dead';

function parse(body: Buffer): unknown {
  return JSON.parse(body.toString('utf8'));
}

/** Examples of every route and error over `bundle` (deterministic: no clock, no environment). */
export function routeExamples(bundle: RegistryBundle): Example[] {
  const record = bundle.records.find((r) => r.canonical_slug === EXAMPLE_SLUG) ?? bundle.records[0];
  if (record === undefined) throw new Error('the registry has no games to take examples from');
  const slug = record.canonical_slug;
  const ctx = makeContext(bundle, DEFAULT_SITE);
  const services = servicesFor(bundle, { site: DEFAULT_SITE });
  /** A dynamic route's JSON answer to `query`, as the server computes it. */
  const answered = (path: string, query: string, status: number, schema: string, answer: (query: string) => { body: Buffer }): Example => ({
    request: `${path}?${query}`,
    status,
    contentType: 'application/json',
    body: parse(answer(query).body),
    path,
    schema,
  });
  const oembedQuery = `url=${encodeURIComponent(`${DEFAULT_SITE}${paths.gamePage(slug)}`)}&maxwidth=400`;
  const words = record.canonical_name.split(/\s+/)[0]!.toLowerCase();
  const listQuery = `q=${encodeURIComponent(words)}&limit=2`;
  const historyQuery = `slug=${slug}&limit=2`;
  const lastFreeze = bundle.history.at(-1)?.frozen_at;
  // The day before the last freeze: the games it changed.
  const syncQuery = `updated_since=${lastFreeze === undefined ? '2000-01-01' : new Date(Date.parse(lastFreeze) - 86_400_000).toISOString().slice(0, 10)}&limit=1`;
  const identifyQuery = `slug=${slug}&rtp=${record.rtp_min}`;
  const batchQuery = `slugs=${[
    slug,
    ...bundle.records
      .filter((r) => r.canonical_slug !== slug)
      .slice(0, 1)
      .map((r) => r.canonical_slug),
    'no-such-game',
  ].join(',')}`;
  const widget = shapeWidgetData(ctx, record);
  const dumps = renderDumps(bundle, DEFAULT_SITE);
  const dump = (file: string) => dumps.find((d) => d.file === file)!.bytes.toString('utf8');
  const lastVersion = bundle.history.at(-1)?.data_version;
  return [
    answered('/api/rtp/list', listQuery, 200, 'ListResponse', services.list),
    answered('/api/rtp/list', batchQuery, 200, 'BatchResponse', services.list),
    answered('/api/rtp/list', syncQuery, 200, 'SyncResponse', services.list),
    answered('/api/rtp/list', 'limit=abc&sort=best', 400, 'ErrorBody', services.list),
    answered('/api/rtp/history', historyQuery, 200, 'HistoryResponse', services.history),
    answered('/api/rtp/identify', identifyQuery, 200, 'IdentifyResponse', services.identify),
    answered('/api/oembed', oembedQuery, 200, 'OembedResponse', services.oembed),
    answered('/api/oembed', 'url=https%3A%2F%2Fexample.org%2Fgame&format=json', 404, 'ErrorBody', services.oembed),
    answered('/api/oembed', `${oembedQuery}&format=xml`, 501, 'ErrorBody', services.oembed),
    { request: `/api/rtp/${slug}`, status: 200, contentType: 'application/json', body: shapeSlot(ctx, record), path: '/api/rtp/{slug}', schema: 'SlotRecord' },
    { request: '/api/rtp/no-such-game', status: 404, contentType: 'application/json', body: SLOT_NOT_FOUND, path: '/api/rtp/{slug}', schema: 'ErrorBody' },
    {
      request: `/api/rtp/provider/${record.provider}`,
      status: 200,
      contentType: 'application/json',
      body: shapeProvider(ctx, record.provider),
      path: '/api/rtp/provider/{provider}',
      schema: 'ProviderRecord',
    },
    ...bundle.operators.slice(0, 1).map((o) => ({
      request: paths.operator(o.operator),
      status: 200,
      contentType: 'application/json' as const,
      body: shorten(shapeOperator(ctx, o, bundle.records)),
      path: '/api/rtp/operator/{operator}',
      schema: 'OperatorRecord',
    })),
    {
      request: paths.operator('no-such-casino'),
      status: 404,
      contentType: 'application/json',
      body: SLOT_NOT_FOUND,
      path: '/api/rtp/operator/{operator}',
      schema: 'ErrorBody',
    },
    { request: `/api/widget/rtp/${slug}`, status: 200, contentType: 'application/json', body: widget, path: '/api/widget/rtp/{slug}', schema: 'WidgetData' },
    {
      request: `/widget/rtp/${slug}?theme=dark&border=none&radius=0`,
      status: 200,
      contentType: 'text/html',
      body: renderWidget(widget),
      path: '/widget/rtp/{slug}',
      schema: null,
    },
    { request: paths.badge(slug), status: 200, contentType: 'image/svg+xml', body: renderBadge(record), path: '/api/badge/rtp/{slug}.svg', schema: null },
    {
      request: paths.ogImage(slug),
      status: 200,
      contentType: 'image/png',
      body: `(a PNG image of 1200 × 630 pixels: ${record.canonical_name}, ${record.provider_display}, the stated RTP and its ladder)`,
      path: '/api/og/rtp/{slug}.png',
      schema: null,
    },
    {
      request: paths.dump.json,
      status: 200,
      contentType: 'application/json',
      body: shorten(JSON.parse(dump(dumpFiles.json))),
      path: paths.dump.json,
      schema: 'RegistryDump',
    },
    {
      request: paths.dump.ndjson,
      status: 200,
      contentType: 'application/x-ndjson',
      body: head(dump(dumpFiles.ndjson), 1),
      path: paths.dump.ndjson,
      schema: null,
    },
    {
      request: paths.dump.csv,
      status: 200,
      contentType: 'text/csv',
      body: head(dump(dumpFiles.csv).replace(/^\uFEFF/, ''), 3),
      path: paths.dump.csv,
      schema: null,
    },
    {
      request: paths.dump.dataPackage,
      status: 200,
      contentType: 'application/json',
      body: shorten(JSON.parse(dump(dumpFiles.dataPackage)), 3),
      path: paths.dump.dataPackage,
      schema: 'DataPackage',
    },
    ...(lastVersion === undefined
      ? []
      : [
          {
            request: paths.dump.changes(lastVersion),
            status: 200,
            contentType: 'application/json' as const,
            body: shorten(JSON.parse(dump(dumpFiles.changes(lastVersion)))),
            path: paths.dump.changes('{data_version}'),
            schema: 'ReleaseChanges',
          },
        ]),
    {
      request: paths.gameFeed(slug),
      status: 200,
      contentType: 'application/atom+xml',
      body: `${gameFeed(feedIndex(bundle, DEFAULT_SITE), record).slice(0, 1200)}…`,
      path: '/api/feeds/game/{slug}.atom',
      schema: null,
    },
    ...bundle.operators.slice(0, 1).map((o) => ({
      request: paths.operatorFeed(o.operator),
      status: 200,
      contentType: 'application/atom+xml' as const,
      body: operatorFeed(shapeOperator(ctx, o, bundle.records), DEFAULT_SITE),
      path: keyedTemplate('operator_feed'),
      schema: null,
    })),
    { request: paths.llms, status: 200, contentType: 'text/plain', body: head(dump(dumpFiles.llms), 5), path: paths.llms, schema: null },
    {
      request: paths.removed,
      status: 200,
      contentType: 'application/json',
      body: JSON.parse(dump(dumpFiles.removed)),
      path: paths.removed,
      schema: 'RemovedResponse',
    },
    {
      request: `/api/rtp/${slug}`,
      status: 429,
      contentType: 'application/json',
      body: { statusCode: 429, statusMessage: RATE_LIMITED_MESSAGE, limit: 1000, remaining: 0, reset: 1795305600 },
      path: '/api/rtp/{slug}',
      schema: 'RateLimitedBody',
    },
  ];
}
