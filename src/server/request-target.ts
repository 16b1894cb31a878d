// Request-target normalisation: decode the path once and refuse anything that could name a file
// outside dist/client or alias another URL (dot segments, encoded slashes, backslashes, NUL,
// control characters, empty segments, overlong paths), and the bounds on its length (414).
import { paths } from '../routes/paths.ts';
import type { ErrorBody } from '../schemas/errors.ts';

export const MAX_PATH_LENGTH = 1024;
/** Longest query string answered (bytes as received, escapes included); longer ones get 414. */
export const MAX_QUERY_LENGTH = 2048;
export const QUERY_TOO_LONG: ErrorBody = { statusCode: 414, statusMessage: `query string too long: at most ${MAX_QUERY_LENGTH} bytes` };
/**
 * A batch lookup's query (`/api/rtp/list?slugs=…`, up to 200 slugs) may be longer: 200 slugs of the
 * registry average 3.6 KB. 14 KiB leaves room for the headers within the server's 16 KiB head.
 */
export const MAX_BATCH_QUERY_LENGTH = 14 * 1024;
export const BATCH_QUERY_TOO_LONG: ErrorBody = {
  statusCode: 414,
  statusMessage: `query string too long: at most ${MAX_BATCH_QUERY_LENGTH} bytes for a batch lookup`,
};
export const PATH_TOO_LONG: ErrorBody = { statusCode: 414, statusMessage: `path too long: at most ${MAX_PATH_LENGTH} bytes` };

const QUERY_TOO_LONG_BYTES = Buffer.from(JSON.stringify(QUERY_TOO_LONG));
const BATCH_QUERY_TOO_LONG_BYTES = Buffer.from(JSON.stringify(BATCH_QUERY_TOO_LONG));
const PATH_TOO_LONG_BYTES = Buffer.from(JSON.stringify(PATH_TOO_LONG));
const LIST_QUERY = `${paths.list}?`;

/** The 414 body for a request target past the bounds, or null when it is within them. */
export function targetTooLong(url: string): Buffer | null {
  if (url.length <= MAX_PATH_LENGTH) return null;
  const q = url.indexOf('?');
  if ((q < 0 ? url.length : q) > MAX_PATH_LENGTH) return PATH_TOO_LONG_BYTES;
  const length = q < 0 ? 0 : url.length - q - 1;
  if (length <= MAX_QUERY_LENGTH) return null;
  const batch = url.startsWith(LIST_QUERY) && /(?:^|[?&])slugs=/.test(url.slice(q));
  if (!batch) return QUERY_TOO_LONG_BYTES;
  return length > MAX_BATCH_QUERY_LENGTH ? BATCH_QUERY_TOO_LONG_BYTES : null;
}

export type Target = { ok: true; pathname: string; search: string } | { ok: false; rawPath: string };

const ENCODED_SEPARATOR = /%(?:2f|5c)/i;
// Control characters (C0, DEL, C1) after decoding; NUL included.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Splits `rawUrl` (the request line's target) into a decoded path and the raw query string, or
 * refuses it. Absolute-form targets (`http://host/path`) are reduced to their path.
 */
export function normalizeTarget(rawUrl: string | undefined): Target {
  let url = rawUrl ?? '';
  if (!url.startsWith('/')) {
    // Absolute form (RFC 9112 §3.2.2), which a proxy may send; anything else is not a path.
    const m = /^https?:\/\/[^/?#]*(\/[^#]*)?$/i.exec(url);
    if (m === null) return { ok: false, rawPath: url };
    url = m[1] ?? '/';
  }
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const search = q < 0 ? '' : url.slice(q + 1);
  if (rawPath.length > MAX_PATH_LENGTH || ENCODED_SEPARATOR.test(rawPath) || rawPath.includes('\\')) return { ok: false, rawPath };
  let pathname: string;
  try {
    pathname = rawPath.includes('%') ? decodeURIComponent(rawPath) : rawPath;
  } catch {
    return { ok: false, rawPath };
  }
  if (CONTROL.test(pathname) || pathname.includes('\\') || pathname.includes('//')) return { ok: false, rawPath };
  if (pathname.includes('/.')) {
    for (const segment of pathname.split('/')) if (segment === '.' || segment === '..') return { ok: false, rawPath };
  }
  return { ok: true, pathname, search };
}
