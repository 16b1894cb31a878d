// What the server reads of a request before any handler: the route it names, safe to log; whether it
// carries a header, without building the header object; whether its If-None-Match names an ETag.
import type { IncomingMessage } from 'node:http';
import { classify } from '../routes/paths.ts';
import { POLICIES } from '../routes/routes.ts';

/** `GET /api/rtp/{slug}`: the method and route pattern of a request, safe to log. */
export function describeRoute(req: IncomingMessage): string {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const method = req.method !== undefined && /^[A-Z]{1,16}$/.test(req.method) ? req.method : '(method)';
  return `${method} ${POLICIES[classify(q < 0 ? url : url.slice(0, q))].logName}`;
}

/**
 * Whether the request carries a header called `name` (lowercase), read from the raw header list:
 * most requests carry none of the few headers the server looks at, and asking `req.headers` would
 * build the whole header object for nothing.
 */
export function hasHeader(req: IncomingMessage, name: string): boolean {
  const raw = req.rawHeaders;
  for (let k = 0; k < raw.length; k += 2) {
    const n = raw[k]!;
    if (n.length === name.length && n.toLowerCase() === name) return true;
  }
  return false;
}

/** True when `If-None-Match` names `etag` (weak comparison, RFC 9110 §13.1.2) or is `*`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  for (const part of ifNoneMatch.split(',')) {
    const tag = part.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}
