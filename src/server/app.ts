// The request handler of the Node server: preflight, request-target bounds, path normalisation,
// one resolution of the route family (src/routes/routes.ts: its methods, budget and handler), the
// rate limiter, then the family's handler: a file of dist/client from memory (src/server/static.ts),
// a list-engine handler (src/list), or POST /mcp (src/server/mcp-http.ts). Unknown /api/rtp/* paths
// get the spec's slot 404, other unknown /api/* paths a JSON 404, other paths the HTML 404 page,
// but a URL of a slug merged into another record, which redirects there (src/list/moved.ts);
// request targets past the bounds get a JSON 414 before any parsing or caching. Every response
// carries CORS `*` and `X-Content-Type-Options: nosniff`. Requests refused before routing (a bad
// key, a path that cannot be decoded) count against the client's budget like any other; so does
// each call of an MCP batch. No framework runtime is loaded: framework endpoints (`/_image`,
// `/_server-islands`, actions) answer 404 like any unknown path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { INVALID_API_KEY_BYTES, type KeyCheck, WWW_AUTHENTICATE } from '../keys/auth.ts';
import { CACHE_ERROR, type HandlerResult, JSON_ERROR_HEADERS } from '../list/handler-result.ts';
import { listBodies } from '../list/list.ts';
import type { RegistryServices } from '../list/service.ts';
import { MOVED_STATUS } from '../routes/moved.ts';
import { classify, missingKind } from '../routes/paths.ts';
import { HTML_TYPE } from '../routes/response-headers.ts';
import { allowOf, POLICIES, type RouteHandler, type RoutePolicy } from '../routes/routes.ts';
import { type ErrorBody, ROUTE_NOT_FOUND, SLOT_NOT_FOUND } from '../schemas/errors.ts';
import type { UnsentLedger } from './backpressure.ts';
import { clientIp, limiterKey, type TrustProxy } from './client-ip.ts';
import type { OgImages } from './og-image.ts';
import { type RateLimitDecision, type RateLimiter, rateLimitedBody } from './rate-limit.ts';
import { hasHeader } from './request.ts';
import { normalizeTarget, targetTooLong } from './request-target.ts';
import { send, sendCacheable } from './send.ts';
import type { StaticFile, StaticFiles } from './static.ts';

/** Request headers a preflight allows when the browser's request names none we can echo. */
export const DEFAULT_ALLOWED_HEADERS = 'Accept, Accept-Language, Authorization, Cache-Control, Content-Type, If-Modified-Since, If-None-Match, X-API-Key';
export const PREFLIGHT_MAX_AGE = '86400';

export const METHOD_NOT_ALLOWED: ErrorBody = { statusCode: 405, statusMessage: 'method not allowed' };
export const INTERNAL_ERROR: ErrorBody = { statusCode: 500, statusMessage: 'internal server error' };
/** An HTTP/1.1 request without Host (RFC 9112 §3.2). */
export const HOST_REQUIRED: ErrorBody = { statusCode: 400, statusMessage: 'bad request: HTTP/1.1 requests must carry a Host header' };
/** Past MAX_UNSENT_MB of answers not yet taken by their clients (src/server/backpressure.ts). */
export const SERVER_BUSY: ErrorBody = { statusCode: 503, statusMessage: 'server busy: too many answers wait for their clients to read them; retry after 1 s' };

const SLOT_NOT_FOUND_BYTES = Buffer.from(JSON.stringify(SLOT_NOT_FOUND));
const ROUTE_NOT_FOUND_BYTES = Buffer.from(JSON.stringify(ROUTE_NOT_FOUND));
const METHOD_NOT_ALLOWED_BYTES = Buffer.from(JSON.stringify(METHOD_NOT_ALLOWED));
const INTERNAL_ERROR_BYTES = Buffer.from(JSON.stringify(INTERNAL_ERROR));
const HOST_REQUIRED_BYTES = Buffer.from(JSON.stringify(HOST_REQUIRED));
const SERVER_BUSY_BYTES = Buffer.from(JSON.stringify(SERVER_BUSY));

const NO_KEY: KeyCheck = { status: 'none' };
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

export interface AppOptions {
  services: RegistryServices;
  statics: StaticFiles;
  /** Null disables rate limiting. */
  limiter: RateLimiter | null;
  /** The proxies in front of the server whose X-Forwarded-For entries are trusted (src/server/client-ip.ts). */
  trustProxy: TrustProxy;
  /** Body of the HTML 404 page. */
  notFoundHtml: Buffer;
  /** The pages' security headers, sent with the HTML 404 too (default: src/routes/response-headers.ts pageHeaders()). */
  pageHeaders?: Readonly<Record<string, string>>;
  /** Called with unexpected errors (logged by the server, naming the route with describeRoute). */
  onError?: (err: unknown, req: IncomingMessage) => void;
  /** POST /mcp (src/server/mcp-http.ts); without it the path answers 405. */
  mcp?: McpHandler;
  /** Checks the API key a request presents (src/keys/auth.ts); absent: keys are not looked at. */
  authenticate?: (req: IncomingMessage) => KeyCheck;
  /** The budget of requests with a valid API key, counted per key (absent: the base limiter's). */
  keyLimiter?: RateLimiter | null;
  /** GET /api/og/rtp/{slug}.png (src/server/og-image.ts); without it the family answers 404. */
  ogImages?: OgImages;
  /** Unsent answer bytes (src/server/backpressure.ts): a request on a connection past its bound closes it, past the process bound gets a 503. */
  ledger?: UnsentLedger;
}

/**
 * Answers POST /mcp; `extra` are the request's rate-limit headers, `charge` counts one more call
 * against the same budget (null when requests are not counted), `client` is the client's address key
 * (as the rate limiter counts it, whether or not a key was presented).
 */
export type McpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  extra: string[] | null,
  charge: (() => RateLimitDecision | Promise<RateLimitDecision>) | null,
  client: string,
) => Promise<void>;

/** Creates the `(req, res)` listener for node:http. */
export function createApp(options: AppOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { services, statics, limiter, trustProxy, notFoundHtml, onError, authenticate, mcp, ledger, ogImages } = options;
  const keyLimiter = options.keyLimiter === undefined ? limiter : options.keyLimiter;
  const htmlNotFoundHeaders = [
    'Content-Type',
    HTML_TYPE,
    'Cache-Control',
    CACHE_ERROR,
    'Access-Control-Allow-Origin',
    '*',
    ...Object.entries(options.pageHeaders ?? POLICIES.page.headers ?? {}).flat(),
  ];

  function sendResult(req: IncomingMessage, res: ServerResponse, result: HandlerResult, extra: string[] | null): void {
    const body = result.body;
    // A pooled list body goes back to the pool once written (src/lib/body-pool.ts).
    const written = listBodies.owns(body) ? () => listBodies.give(body) : undefined;
    const etag = result.headers.ETag;
    if (result.status === 200 && etag !== undefined) sendCacheable(req, res, result.headerList, etag, body, extra, written);
    else send(req, res, result.status, result.headerList, body, extra, written);
  }

  function sendStatic(req: IncomingMessage, res: ServerResponse, file: StaticFile, extra: string[] | null): void {
    sendCacheable(req, res, file.headers, file.etag, file.body ?? file, extra);
  }

  /** Sends the redirect of a URL naming a merged slug; false when the path names none. */
  function moved(req: IncomingMessage, res: ServerResponse, pathname: string, search: string, extra: string[] | null): boolean {
    const answer = services.moved(pathname, search);
    if (answer === null) return false;
    send(req, res, MOVED_STATUS, answer.headers, answer.body, extra);
    return true;
  }

  function notFound(req: IncomingMessage, res: ServerResponse, pathname: string, extra: string[] | null, search = ''): void {
    if (moved(req, res, pathname, search, extra)) return;
    const kind = missingKind(pathname);
    if (kind === 'page') send(req, res, 404, htmlNotFoundHeaders, notFoundHtml, extra);
    else send(req, res, 404, JSON_ERROR_HEADERS, kind === 'slot' ? SLOT_NOT_FOUND_BYTES : ROUTE_NOT_FOUND_BYTES, extra);
  }

  function preflight(req: IncomingMessage, res: ServerResponse): void {
    const requested = req.headers['access-control-request-headers'];
    const echo = typeof requested === 'string' && requested.length <= 1024 && HEADER_LIST.test(requested.trim());
    const target = normalizeTarget(req.url);
    const methods = allowOf(target.ok ? POLICIES[classify(target.pathname)] : POLICIES.page);
    const headers = [
      'Access-Control-Allow-Origin',
      '*',
      'Access-Control-Allow-Methods',
      methods,
      'Access-Control-Allow-Headers',
      echo ? requested.trim() : DEFAULT_ALLOWED_HEADERS,
      'Access-Control-Max-Age',
      PREFLIGHT_MAX_AGE,
      'Allow',
      methods,
      'Vary',
      'Access-Control-Request-Headers',
      'X-Content-Type-Options',
      'nosniff',
      'Content-Length',
      '0',
    ];
    res.writeHead(204, headers);
    res.end();
  }

  /** The Node server's answers to the dynamic families, by handler (POST /mcp apart). */
  const dynamic: Record<Exclude<RouteHandler, 'static' | 'mcp' | 'og_image'>, (search: string) => HandlerResult> = {
    list: (search) => services.list(search),
    history: (search) => services.history(search),
    identify: (search) => services.identify(search),
    oembed: (search) => services.oembed(search),
  };

  /**
   * Serves a request once the rate limiter has let it through, by its family's handler; `hit` is
   * the static file already found in memory for it, if any.
   */
  function route(
    req: IncomingMessage,
    res: ServerResponse,
    policy: RoutePolicy,
    pathname: string,
    search: string,
    extra: string[] | null,
    hit: StaticFile | undefined,
    charge: (() => RateLimitDecision | Promise<RateLimitDecision>) | null,
  ): void {
    const handler = policy.handler;
    if (handler === 'static') {
      if (hit !== undefined) return sendStatic(req, res, hit, extra);
      statics
        .load(pathname)
        .then((file) => (file !== null ? sendStatic(req, res, file, extra) : notFound(req, res, pathname, extra, search)))
        .catch((err: unknown) => fail(req, res, err));
      return;
    }
    if (handler === 'og_image') {
      if (ogImages === undefined) return notFound(req, res, pathname, extra, search);
      ogImages(pathname)
        .then((r) => (r.status === 404 && moved(req, res, pathname, search, extra) ? undefined : sendResult(req, res, r, extra)))
        .catch((err: unknown) => fail(req, res, err));
      return;
    }
    if (handler !== 'mcp') return sendResult(req, res, dynamic[handler](search), extra);
    if (mcp === undefined) return send(req, res, 405, JSON_ERROR_HEADERS, METHOD_NOT_ALLOWED_BYTES, ['Allow', allowOf(policy)]);
    mcp(req, res, extra, charge, addressKey(req)).catch((err: unknown) => fail(req, res, err));
  }

  function fail(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    onError?.(err, req);
    if (!res.headersSent) send(req, res, 500, JSON_ERROR_HEADERS, INTERNAL_ERROR_BYTES, null);
    else res.destroy();
  }

  function limited(req: IncomingMessage, res: ServerResponse, decision: RateLimitDecision): void {
    const body = Buffer.from(JSON.stringify(rateLimitedBody(decision)));
    send(req, res, 429, JSON_ERROR_HEADERS, body, decision.headers.concat('Retry-After', String(decision.retryAfter)));
  }

  /** The client's key for the address budget. */
  const addressKey = (req: IncomingMessage) =>
    limiterKey(clientIp(req.socket.remoteAddress, trustProxy.active ? req.headers['x-forwarded-for'] : undefined, trustProxy));

  /**
   * Counts a request refused before routing against the client's address budget, then sends the
   * refusal (or the 429 once the budget is spent), with the rate-limit headers.
   */
  function refuse(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer, headers: string[] | null): void {
    if (limiter === null) return send(req, res, status, JSON_ERROR_HEADERS, body, headers);
    const answer = (d: RateLimitDecision) =>
      d.allowed ? send(req, res, status, JSON_ERROR_HEADERS, body, headers === null ? d.headers : d.headers.concat(headers)) : limited(req, res, d);
    const decision = limiter.hit(addressKey(req));
    if (decision instanceof Promise) decision.then(answer).catch((err: unknown) => fail(req, res, err));
    else answer(decision);
  }

  const handle = (req: IncomingMessage, res: ServerResponse, resumed = false): void => {
    try {
      if (ledger !== undefined) {
        const admission = ledger.admit(req.socket, resumed);
        if (admission === 'close') return void req.socket.destroy();
        // A connection past its bound of unsent bytes: the request waits for its client to read;
        // a connection with too many waiting is closed, they go unanswered.
        if (admission === 'wait') return void (ledger.wait(req.socket, () => handle(req, res, true)) || req.socket.destroy());
        if (admission === 'shed') return send(req, res, 503, JSON_ERROR_HEADERS, SERVER_BUSY_BYTES, ['Retry-After', '1']);
      }
      const method = req.method;
      if (method === 'OPTIONS') return preflight(req, res);
      const url = req.url ?? '';
      if (req.headers.host === undefined && req.httpVersionMinor >= 1 && req.httpVersionMajor === 1)
        return send(req, res, 400, JSON_ERROR_HEADERS, HOST_REQUIRED_BYTES, ['Connection', 'close']);
      const tooLong = targetTooLong(url);
      if (tooLong !== null) return send(req, res, 414, JSON_ERROR_HEADERS, tooLong, null);
      const target = normalizeTarget(url);
      if (!target.ok) {
        if (method !== 'GET' && method !== 'HEAD') return send(req, res, 405, JSON_ERROR_HEADERS, METHOD_NOT_ALLOWED_BYTES, ['Allow', allowOf(POLICIES.page)]);
        const kind = missingKind(target.rawPath);
        if (kind === 'page') return notFound(req, res, target.rawPath, null);
        return refuse(req, res, 404, kind === 'slot' ? SLOT_NOT_FOUND_BYTES : ROUTE_NOT_FOUND_BYTES, null);
      }
      const { pathname, search } = target;
      // The request is resolved once: its family, from the file served from memory when there is
      // one (sparing the classification), decides its methods, its budget and its handler, whatever
      // the form of its target (absolute form included). The cache never holds a dynamic path.
      const hit = statics.cached(pathname);
      const policy = POLICIES[hit !== undefined ? hit.family : classify(pathname)];
      if (!(policy.methods as readonly (string | undefined)[]).includes(method)) {
        return send(req, res, 405, JSON_ERROR_HEADERS, METHOD_NOT_ALLOWED_BYTES, ['Allow', allowOf(policy)]);
      }
      // A presented key must be valid on every route: an unknown, revoked or malformed key gets 401, never a silent downgrade.
      const check: KeyCheck = authenticate === undefined || !(hasHeader(req, 'authorization') || hasHeader(req, 'x-api-key')) ? NO_KEY : authenticate(req);
      if (check.status === 'invalid') return refuse(req, res, 401, INVALID_API_KEY_BYTES, ['WWW-Authenticate', WWW_AUTHENTICATE]);
      const budget = check.status === 'valid' ? keyLimiter : limiter;
      if (budget === null || !policy.rateLimited) return route(req, res, policy, pathname, search, null, hit, null);
      // Requests with a key count against the key (`key:<id>` never collides with an address), others against the client address.
      const key = check.status === 'valid' ? `key:${check.id}` : addressKey(req);
      const charge = policy.handler === 'mcp' ? () => budget.hit(key) : null;
      const decision = budget.hit(key);
      if (decision instanceof Promise) {
        // One catch after the callback: a throw while routing must become a 500, never an unhandled rejection.
        decision
          .then((d) => (d.allowed ? route(req, res, policy, pathname, search, d.headers, hit, charge) : limited(req, res, d)))
          .catch((err: unknown) => fail(req, res, err));
        return;
      }
      if (!decision.allowed) return limited(req, res, decision);
      return route(req, res, policy, pathname, search, decision.headers, hit, charge);
    } catch (err) {
      fail(req, res, err);
    }
  };
  return handle;
}
