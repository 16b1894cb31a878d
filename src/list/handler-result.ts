// Transport-neutral handler results for the dynamic routes, used by the Node server and the Astro endpoints.
import { hash } from 'node:crypto';
import { CACHE_NO_STORE, JSON_ERROR, JSON_TYPE } from '../routes/response-headers.ts';
import type { ErrorBody } from '../schemas/errors.ts';
import type { ParamError } from './params.ts';

/** What a dynamic route answers: status, headers (canonical case) and the exact body bytes. */
export interface HandlerResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The same headers as name/value pairs, in order (what node:http's writeHead takes). */
  readonly headerList: readonly string[];
  readonly body: Buffer;
}

/** Error answers depend on who asks and when, so no cache may keep them. */
export const CACHE_ERROR = CACHE_NO_STORE;

export const MSG_INVALID_QUERY = 'invalid query parameters';

/** Strong validator from the body bytes: a quoted 32-hex-digit prefix of its SHA-256. */
export function strongEtag(body: Uint8Array): string {
  return `"${hash('sha256', body, 'hex').slice(0, 32)}"`;
}

/** A 200 answer of `contentType` with its ETag (by default from the body bytes) and the route's Cache-Control. */
export function okAnswer(body: Buffer, contentType: string, cacheControl: string, etag: string = strongEtag(body)): HandlerResult {
  return {
    status: 200,
    headers: {
      'Content-Type': contentType,
      'Cache-Control': cacheControl,
      ETag: etag,
      'Access-Control-Allow-Origin': '*',
      'X-Content-Type-Options': 'nosniff',
    },
    headerList: [
      'Content-Type',
      contentType,
      'Cache-Control',
      cacheControl,
      'ETag',
      etag,
      'Access-Control-Allow-Origin',
      '*',
      'X-Content-Type-Options',
      'nosniff',
    ],
    body,
  };
}

/** A 200 JSON answer with its ETag (by default from the body bytes) and the route's Cache-Control. */
export function jsonOk(body: Buffer, cacheControl: string, etag: string = strongEtag(body)): HandlerResult {
  return okAnswer(body, JSON_TYPE, cacheControl, etag);
}

/** The headers of every JSON error answer, as name/value pairs (node:http's writeHead takes them). */
export const JSON_ERROR_HEADERS: readonly string[] = Object.entries(JSON_ERROR).flat();

/** A JSON error answer, never cached. */
export function jsonError(status: number, payload: ErrorBody | Record<string, unknown>): HandlerResult {
  const body = Buffer.from(JSON.stringify(payload));
  return {
    status,
    headers: JSON_ERROR,
    headerList: JSON_ERROR_HEADERS,
    body,
  };
}

/** The 400 answer listing every rejected parameter. */
export function invalidQuery(errors: ParamError[]): HandlerResult {
  const body: ErrorBody = { statusCode: 400, statusMessage: MSG_INVALID_QUERY, errors };
  return jsonError(400, body);
}

/** Converts a handler result to a web Response (Astro endpoints). */
export function toResponse(result: HandlerResult): Response {
  return new Response(new Uint8Array(result.body), { status: result.status, headers: result.headers });
}
