// Limits against slow and greedy clients on a node:http server: the head, request and keep-alive
// timeouts, a cap on open connections in all and per client address, and the answer to requests
// Node's parser refuses (docs/security.md lists the values and their variables).
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { EXPECTATION_FAILED } from '../routes/response-headers.ts';
import { isTrustedProxy, limiterKey, normalizeIp, type TrustProxy } from './client-ip.ts';
import { http } from './node-http.ts';

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerAddress: number;
  /** Trusted proxies are exempt from the per-address cap (every client arrives through them). */
  trustProxy: TrustProxy;
}

/** How long the answer to a refused request may take to reach a client before its connection is destroyed. */
export const CLIENT_ERROR_GRACE_MS = 1000;

/** How often Node checks the head and request timeouts (its default, 30 s, lets a slow head live up to 40 s). */
export const CONNECTIONS_CHECK_MS = 1000;

/** The options for http.createServer that go with `limits`. */
export function serverOptions(limits: ConnectionLimits): ServerOptions {
  return {
    // RFC 9110 §5.4: Node answers a head larger than this with 431 (the default, stated here).
    maxHeaderSize: 16 * 1024,
    headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
    // Node would answer a missing Host with a bare 400; the app answers it as JSON (src/server/app.ts).
    requireHostHeader: false,
  };
}

/**
 * Applies the caps to `server`: `maxConnections` (Node closes connections past it at once), an
 * inactivity timeout on every socket, and the per-address cap (trusted proxies exempt: every
 * client arrives through them).
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
  // A socket that neither sends nor reads for this long (a stalled reader of a response) is closed.
  server.timeout = limits.requestTimeoutMs;
  server.maxHeadersCount = 100;
  const perAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const peer = normalizeIp(socket.remoteAddress ?? 'unknown');
    if (isTrustedProxy(limits.trustProxy, peer)) return;
    const address = limiterKey(peer);
    const count = (perAddress.get(address) ?? 0) + 1;
    if (count > limits.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    perAddress.set(address, count);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
}

const EXPECTATION_FAILED_BYTES = Buffer.from(JSON.stringify(EXPECTATION_FAILED));

/** The server's `checkExpectation` listener: a JSON 417, and the connection closed (the body is not read). */
export function answerExpectation(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(417, [
    'Content-Type',
    'application/json; charset=utf-8',
    'Cache-Control',
    'no-store',
    'Access-Control-Allow-Origin',
    '*',
    'X-Content-Type-Options',
    'nosniff',
    'Content-Length',
    String(EXPECTATION_FAILED_BYTES.length),
    'Connection',
    'close',
  ]);
  res.end(EXPECTATION_FAILED_BYTES);
}

/** The last response of each connection not yet closed: what a refusal must not write into. */
export class OpenResponses {
  private readonly last = new WeakMap<Duplex, ServerResponse>();

  /** Records `res` as its connection's last response until it closes (call on every request). */
  track(res: ServerResponse): void {
    const socket = res.req.socket;
    this.last.set(socket, res);
    res.once('close', () => {
      if (this.last.get(socket) === res) this.last.delete(socket);
    });
  }

  /** The connection's last response not yet closed, if any. */
  of(socket: Duplex): ServerResponse | undefined {
    return this.last.get(socket);
  }
}

/**
 * The server's `clientError` listener: answers a request Node's parser refused with a JSON error,
 * then closes. When a response to an earlier request on the same connection is still being
 * written, nothing is written into it: the connection closes once that response has finished.
 */
export function answerClientError(open: OpenResponses): (err: NodeJS.ErrnoException, socket: Duplex) => void {
  return (err, socket) => refuseClient(err, socket, open.of(socket));
}

function refuseClient(err: NodeJS.ErrnoException, socket: Duplex, inFlight: ServerResponse | undefined): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  // The request in flight ends mid-body (the client closed or sent junk after a partial body): it
  // can never be whole, so nothing waits for its answer.
  if (inFlight !== undefined && !inFlight.req.complete) {
    socket.destroy();
    return;
  }
  if (inFlight !== undefined) {
    inFlight.shouldKeepAlive = false;
    if (inFlight.writableFinished) closeAfter(socket, '');
    else inFlight.once('close', () => closeAfter(socket, ''));
    return;
  }
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'request header fields too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request timeout']
        : [400, 'bad request'];
  const body = JSON.stringify({ statusCode: status, statusMessage: message });
  closeAfter(
    socket,
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
      `Access-Control-Allow-Origin: *\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Sends `last` and closes. end() alone only half-closes: a client that never reads and keeps
 * sending (a slow-header attack) would hold the connection open. The socket is destroyed once
 * `last` is flushed, or after CLIENT_ERROR_GRACE_MS when the client does not take it.
 */
function closeAfter(socket: Duplex, last: string): void {
  const guard = setTimeout(() => socket.destroy(), CLIENT_ERROR_GRACE_MS);
  guard.unref();
  socket.end(last, () => {
    clearTimeout(guard);
    socket.destroy();
  });
}
