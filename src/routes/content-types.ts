// Content types of static pages and build assets, by file extension: the server and the edge's nginx configuration read this one table.
import { HTML_TYPE, JSON_TYPE } from './response-headers.ts';

/** File extension (with its dot, lowercase) -> Content-Type. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': HTML_TYPE,
  '.json': JSON_TYPE,
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
  '.map': JSON_TYPE,
  '.csv': 'text/csv; charset=utf-8',
  '.ndjson': 'application/x-ndjson',
};

/** Files of other extensions (and none). */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** The Content-Type of a file name; `application/octet-stream` when the extension is unknown. */
export function contentTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const slash = fileName.lastIndexOf('/');
  if (dot <= slash) return DEFAULT_CONTENT_TYPE;
  return CONTENT_TYPES[fileName.slice(dot).toLowerCase()] ?? DEFAULT_CONTENT_TYPE;
}
