// Static files of dist/client, served from memory. Pages, assets and other small files are
// indexed at start; the per-game and per-provider files (hundreds of thousands at scale) are
// resolved from their URL (src/routes/routes.ts `keyedFile`) instead of being listed. Bodies are read
// on first use into an LRU bounded in bytes, each with its strong ETag and prebuilt headers.
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { classify, KEYED_DIRS, keyedFile, POLICIES, urlOfFile, type RouteFamily } from '../routes/routes.ts';
import { strongEtag } from '../list/http.ts';
import type { LRUCache } from 'lru-cache';
import { byteLru, stringBytes } from '../lib/bounded.ts';
import { contentTypeOf } from './mime.ts';

/** A file ready to send. `headers` are name/value pairs without Content-Length or rate-limit headers. */
export interface StaticFile {
  family: RouteFamily;
  body: Buffer;
  etag: string;
  headers: string[];
}

interface Located {
  file: string;
  family: RouteFamily;
  contentType: string;
}

export interface StaticFilesOptions {
  /** Bound on the bytes of file bodies kept in memory. */
  cacheBytes?: number;
  /** Larger files are read on each request instead of being cached. */
  maxCachedFileBytes?: number;
  /** The pages' security headers (src/routes/routes.ts pageHeaders, with the build's site origin). */
  pageHeaders?: Readonly<Record<string, string>>;
}

// The pattern folders (and api/rtp/provider inside api/rtp) are not listed at all: at 50k games
// each holds 50k entries, and their files are found from the URL.
async function walk(root: string, rel: string, out: Map<string, string>): Promise<void> {
  const entries = await readdir(path.join(root, rel), { withFileTypes: true });
  for (const entry of entries) {
    const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!KEYED_DIRS.has(child)) await walk(root, child, out);
    } else if (entry.isFile()) {
      const url = urlOfFile(child);
      if (url !== null && !url.keyed) out.set(url.path, child);
    }
  }
}

export class StaticFiles {
  readonly root: string;
  private readonly index: Map<string, string>;
  private readonly cache: LRUCache<string, StaticFile>;
  private readonly pending = new Map<string, Promise<StaticFile | null>>();
  private readonly maxCachedFileBytes: number;
  private readonly pageHeaders: Readonly<Record<string, string>>;

  private constructor(root: string, index: Map<string, string>, options: StaticFilesOptions) {
    this.root = root;
    this.index = index;
    this.maxCachedFileBytes = options.maxCachedFileBytes ?? 1024 * 1024;
    this.pageHeaders = options.pageHeaders ?? POLICIES.page.headers ?? {};
    const cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024;
    // Every entry weighs at least its 512 bytes of overhead, so this many entries can never pass the byte bound.
    this.cache = byteLru<StaticFile>(cacheBytes, Math.ceil(cacheBytes / 512), (f, key) => f.body.length + stringBytes(key) + 512);
  }

  /** Indexes `root` (dist/client). */
  static async open(root: string, options: StaticFilesOptions = {}): Promise<StaticFiles> {
    const index = new Map<string, string>();
    await walk(path.resolve(root), '', index);
    return new StaticFiles(path.resolve(root), index, options);
  }

  /** URL paths indexed at start (pages, assets, openapi.json…). */
  get indexedPaths(): string[] {
    return [...this.index.keys()];
  }

  /** Where the file for a normalised URL path would be, or null when no file can answer it. */
  locate(pathname: string): Located | null {
    const keyed = keyedFile(pathname);
    if (keyed !== null) return { file: path.join(this.root, keyed.file), family: keyed.family, contentType: POLICIES[keyed.family].contentType };
    const rel = this.index.get(pathname);
    if (rel === undefined) return null;
    const family = classify(pathname);
    const contentType = family === 'page' || family === 'asset' ? contentTypeOf(rel) : POLICIES[family].contentType;
    return { file: path.join(this.root, rel), family, contentType };
  }

  /** The cached file for `pathname`, if it is in memory now (the fast path). */
  cached(pathname: string): StaticFile | undefined {
    return this.cache.get(pathname);
  }

  /** Reads the file for `pathname` (once, however many requests wait), or null when there is none. */
  load(pathname: string): Promise<StaticFile | null> {
    const inFlight = this.pending.get(pathname);
    if (inFlight !== undefined) return inFlight;
    const located = this.locate(pathname);
    if (located === null) return Promise.resolve(null);
    const promise = this.read(located).then((file) => {
      if (file !== null && file.body.length <= this.maxCachedFileBytes) this.cache.set(pathname, file);
      return file;
    });
    this.pending.set(pathname, promise);
    void promise.finally(() => this.pending.delete(pathname));
    return promise;
  }

  private async read(located: Located): Promise<StaticFile | null> {
    let body: Buffer;
    try {
      // lstat: a symbolic link is not served, so nothing outside dist/client can be reached through one.
      const stat = await lstat(located.file);
      if (!stat.isFile()) return null;
      body = await readFile(located.file);
    } catch {
      return null;
    }
    const policy = POLICIES[located.family];
    const etag = strongEtag(body);
    const headers = [
      'Content-Type', located.contentType,
      'Cache-Control', policy.cacheControl,
      'ETag', etag,
      'Access-Control-Allow-Origin', '*',
    ];
    const extra = located.family === 'page' ? this.pageHeaders : (policy.headers ?? {});
    for (const [name, value] of Object.entries(extra)) headers.push(name, value);
    return { family: located.family, body, etag, headers };
  }
}
