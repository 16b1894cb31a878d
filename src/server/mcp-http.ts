// POST /mcp: the MCP server (src/mcp/server.ts) over streamable HTTP, stateless (no sessions, no SSE
// streams: every answer is JSON), read-only. The HTTP side is this module's: the media types, the
// body bounded by bytes and by time, MCP work in flight bounded per connection and in the process;
// the JSON-RPC side (batches, params, answer caps, one budget hit per call) is src/mcp/rpc.ts. A
// request takes a place in flight only once its whole body is read and parsed; bodies still arriving
// are bounded apart, per client address and in the process.
// Every answer carries the JSON error headers of the API, nosniff included.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { JSON_ERROR_HEADERS } from '../list/handler-result.ts';
import type { RegistryServices } from '../list/service.ts';
import { type Meter, parseMessage, RpcDispatcher } from '../mcp/rpc.ts';
import { createMcpServer } from '../mcp/server.ts';
import { POLICIES } from '../routes/routes.ts';
import { RATE_LIMITED_MESSAGE } from '../schemas/rate-limit.ts';
import { RPC, type RpcErrorMessage, rpcError } from '../schemas/rpc.ts';
import type { McpHandler } from './app.ts';
import type { RateLimitDecision } from './rate-limit.ts';

/** Largest JSON-RPC request body accepted, and the answer past it: the route table's, which the edge applies too. */
const MCP_BODY = POLICIES.mcp.body!;
export const MCP_BODY_BYTES = MCP_BODY.maxBytes;
/** MCP requests being answered at once (from a whole body read to the answer taken): in the process, and on one connection. */
export const MCP_IN_FLIGHT = 16;
export const MCP_IN_FLIGHT_PER_CONNECTION = 1;
/** Bodies being read at once: from one client address (an IPv6 /64, as the rate limiter counts), and in the process (64 KiB each at most). */
export const MCP_READING_PER_ADDRESS = 4;
export const MCP_READING = 256;
/** How long a request body may take to arrive once its head has (BODY_TIMEOUT_MS), by default. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

function write(res: ServerResponse, status: number, body: string | null, extra: readonly string[] | null, close = false): void {
  const bytes = body === null ? null : Buffer.from(body);
  const headers = JSON_ERROR_HEADERS.concat(extra ?? [], 'Content-Length', String(bytes?.length ?? 0));
  if (close) {
    headers.push('Connection', 'close');
    // The unread rest of the body is not waited for.
    res.once('finish', () => res.req.socket.destroy());
  }
  res.writeHead(status, headers);
  res.end(bytes ?? undefined);
}

/** An error answer of the transport (no JSON-RPC id is known yet). */
function refuse(res: ServerResponse, status: number, answer: RpcErrorMessage, extra: readonly string[] | null, close = true): void {
  write(res, status, JSON.stringify(answer), extra, close);
}

/** Whether a Content-Type names JSON (its media type, parameters aside). */
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** Whether an Accept header allows a JSON answer (absent: anything goes). */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined) return true;
  return accept.split(',').some((part) => {
    const type = part.split(';')[0]!.trim().toLowerCase();
    return type === 'application/json' || type === 'application/*' || type === '*/*';
  });
}

type Body = { ok: true; text: string } | { ok: false; reason: 'large' | 'slow' | 'aborted' };

/** Reads the request body up to `limit` bytes and for at most `timeoutMs`. */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Body> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return resolve({ ok: false, reason: 'large' });
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (body: Body) => {
      clearTimeout(timer);
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('aborted', onAborted);
      if (!body.ok) req.pause();
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish({ ok: false, reason: 'large' });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, text: Buffer.concat(chunks, size).toString('utf8') });
    const onAborted = () => finish({ ok: false, reason: 'aborted' });
    const timer = setTimeout(() => finish({ ok: false, reason: 'slow' }), timeoutMs);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('aborted', onAborted);
  });
}

/** The JSON-RPC error of a call past the budget: the same figures as the 429 body and headers. */
function rateLimited(d: RateLimitDecision): RpcErrorMessage['error'] {
  return {
    code: RPC.RATE_LIMITED,
    message: `${RATE_LIMITED_MESSAGE}: ${d.limit} calls per window, each call of a batch counted; retry after ${d.retryAfter} s`,
    data: { code: 'ERR_MCP_RATE_LIMITED', limit: d.limit, remaining: 0, reset: d.reset, retry_after: d.retryAfter },
  };
}

/**
 * A meter over `charge`: the first call is the one the request itself was counted as; each other
 * call is one more hit on the budget. `headers()` are the rate-limit headers of the last hit.
 */
function meterOf(
  charge: (() => RateLimitDecision | Promise<RateLimitDecision>) | null,
  extra: string[] | null,
): { meter: Meter | undefined; headers: () => string[] | null } {
  let latest = extra;
  if (charge === null) return { meter: undefined, headers: () => latest };
  let paid = 1;
  const meter: Meter = async () => {
    if (paid > 0) {
      paid--;
      return null;
    }
    const d = await charge();
    latest = d.headers;
    return d.allowed ? null : rateLimited(d);
  };
  return { meter, headers: () => latest };
}

export interface McpHttpOptions {
  /** BODY_TIMEOUT_MS: how long a body may take to arrive. */
  bodyTimeoutMs?: number;
}

/** The POST /mcp handler over one release's services. */
export function createMcpHandler(services: RegistryServices, site: string, options: McpHttpOptions = {}): McpHandler {
  const dispatcher = new RpcDispatcher(createMcpServer(services, site));
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  let inFlight = 0;
  let reading = 0;
  const readingBy = new Map<string, number>();
  const perConnection = new WeakMap<Socket, number>();
  const busy = (res: ServerResponse, extra: string[] | null, code: string, rule: string) =>
    refuse(
      res,
      503,
      rpcError(null, RPC.BUSY, `server busy: at most ${rule}; retry after 1 s`, { code, retry_after: 1 }),
      (extra ?? []).concat('Retry-After', '1'),
    );

  return async (req, res, extra, charge, client) => {
    const socket = req.socket;
    const onSocket = perConnection.get(socket) ?? 0;
    if (onSocket >= MCP_IN_FLIGHT_PER_CONNECTION)
      return busy(res, extra, 'ERR_MCP_BUSY', `${MCP_IN_FLIGHT_PER_CONNECTION} MCP request at a time on one connection`);
    // Held until the answer has left (or the client has): an unread answer keeps its place.
    perConnection.set(socket, onSocket + 1);
    res.once('close', () => {
      const left = (perConnection.get(socket) ?? 1) - 1;
      if (left <= 0) perConnection.delete(socket);
      else perConnection.set(socket, left);
    });

    if (!isJson(req.headers['content-type']))
      return refuse(res, 415, rpcError(null, RPC.INVALID_REQUEST, 'Unsupported Media Type: Content-Type must be application/json'), extra);
    if (!acceptsJson(req.headers.accept))
      return refuse(res, 406, rpcError(null, RPC.INVALID_REQUEST, 'Not Acceptable: Accept must allow application/json'), extra);
    const version = req.headers['mcp-protocol-version'];
    if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) {
      return refuse(
        res,
        400,
        rpcError(null, RPC.INVALID_REQUEST, `Bad Request: unsupported MCP-Protocol-Version (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`),
        extra,
      );
    }
    // A body still arriving holds a reading place, never a place in flight: a client's slow bodies
    // wait on its own address's places and cannot keep another address's requests out.
    const mine = readingBy.get(client) ?? 0;
    if (mine >= MCP_READING_PER_ADDRESS)
      return busy(res, extra, 'ERR_MCP_BODIES_BUSY', `${MCP_READING_PER_ADDRESS} MCP request bodies being received from one client at a time`);
    if (reading >= MCP_READING) return busy(res, extra, 'ERR_MCP_BODIES_BUSY', `${MCP_READING} MCP request bodies being received at a time`);
    reading++;
    readingBy.set(client, mine + 1);
    let body: Body;
    try {
      body = await readBody(req, MCP_BODY_BYTES, bodyTimeoutMs);
    } finally {
      reading--;
      const left = (readingBy.get(client) ?? 1) - 1;
      if (left <= 0) readingBy.delete(client);
      else readingBy.set(client, left);
    }
    if (!body.ok) {
      if (body.reason === 'aborted') return;
      if (body.reason === 'large') return refuse(res, 413, MCP_BODY.tooLarge, extra);
      return refuse(res, 408, rpcError(null, RPC.INVALID_REQUEST, `request body not received within ${bodyTimeoutMs} ms`), extra);
    }
    const parsed = parseMessage(body.text);
    if (!parsed.ok) return write(res, 400, parsed.answer, extra);
    if (inFlight >= MCP_IN_FLIGHT) return busy(res, extra, 'ERR_MCP_BUSY', `${MCP_IN_FLIGHT} MCP requests in flight`);
    inFlight++;
    res.once('close', () => inFlight--);
    const metered = meterOf(charge, extra);
    const answer = await dispatcher.answer(parsed.value, metered.meter);
    if (res.destroyed) return;
    // Only notifications or responses: accepted, nothing to answer (MCP streamable HTTP).
    if (answer === null) return write(res, 202, null, metered.headers());
    write(res, answer.refused ? 400 : 200, answer.text, metered.headers());
  };
}
