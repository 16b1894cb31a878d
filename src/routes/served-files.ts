// The files of dist/client found by their URL path rather than a keyed pattern (pages, assets,
// openapi.json, llms.txt): what the build's _headers and nginx configuration list one by one.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { KEYED_DIRS, urlOfFile } from './paths.ts';

/** A file of dist/client found by its URL path rather than a keyed pattern (pages, assets, openapi.json, llms.txt). */
export interface ServedFile {
  /** URL path, e.g. `/about`. */
  path: string;
  /** Posix path under dist/client, e.g. `about.html`. */
  file: string;
}

/**
 * The files of `clientDir` the server indexes at start (src/routes/routes.ts urlOfFile: keyed folders
 * are not listed, CDN configuration, dot files and error pages answer no URL), sorted by URL path.
 */
export function servedFiles(clientDir: string): ServedFile[] {
  const out: ServedFile[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(clientDir, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!KEYED_DIRS.has(child)) walk(child);
      } else if (entry.isFile()) {
        const url = urlOfFile(child);
        if (url !== null && !url.keyed) out.push({ path: url.path, file: child });
      }
    }
  };
  walk('');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
