// Writing a response: in one write with its length, or as a 304 when the client holds its ETag,
// or a file streamed from disk; HEAD gets the headers alone.
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { etagMatches, hasHeader } from './request.ts';

/**
 * Writes a complete response in one write; HEAD gets the same headers and no body. `written` runs
 * once the socket has taken the body, or at once when no body is sent (never if the client left).
 */
export function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: readonly string[],
  body: Uint8Array,
  extra: string[] | null,
  written?: () => void,
): void {
  const length = String(body.byteLength);
  res.writeHead(status, extra === null ? headers.concat('Content-Length', length) : headers.concat(extra, 'Content-Length', length));
  if (req.method === 'HEAD') {
    res.end();
    written?.();
  } else if (written === undefined) res.end(body);
  else res.end(body, written);
}

/** 200 with the body (a buffer, or a file streamed from disk), or 304 when the client already holds this ETag. */
export function sendCacheable(
  req: IncomingMessage,
  res: ServerResponse,
  headers: readonly string[],
  etag: string,
  body: Uint8Array | { path: string; size: number },
  extra: string[] | null,
  written?: () => void,
): void {
  if (hasHeader(req, 'if-none-match') && etagMatches(req.headers['if-none-match'], etag)) {
    // A 304 repeats the validators and caching headers of the 200 it stands for (RFC 9110 §15.4.5).
    const kept: string[] = [];
    for (let k = 0; k < headers.length; k += 2) {
      const name = headers[k]!;
      if (name !== 'Content-Type' && name !== 'Content-Length') kept.push(name, headers[k + 1]!);
    }
    if (extra !== null) kept.push(...extra);
    res.writeHead(304, kept);
    res.end();
    written?.();
    return;
  }
  if (body instanceof Uint8Array) return send(req, res, 200, headers, body, extra, written);
  const length = String(body.size);
  res.writeHead(200, extra === null ? headers.concat('Content-Length', length) : headers.concat(extra, 'Content-Length', length));
  if (req.method === 'HEAD') return void res.end();
  // Backpressure from the socket paces the reads; a client that leaves closes the file.
  pipeline(createReadStream(body.path, { end: body.size - 1 }), res, () => undefined);
}
