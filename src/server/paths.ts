// Request-target normalisation: decode the path once and refuse anything that could name a file
// outside dist/client or alias another URL (dot segments, encoded slashes, backslashes, NUL,
// control characters, empty segments, overlong paths).

export const MAX_PATH_LENGTH = 1024;

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
