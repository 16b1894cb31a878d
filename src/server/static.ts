// Static files of dist/client, served from memory. Pages, assets and other small files are
// indexed at start; the per-game and per-provider files (hundreds of thousands at scale) are
// resolved from their URL (src/routes/routes.ts `keyedFile`) instead of being listed. Bodies are read
// on first use into an LRU bounded in bytes, each with its strong ETag and prebuilt headers.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LRUCache } from 'lru-cache';
import { byteLru, stringBytes } from '../lib/bounded.ts';
import { strongEtag } from '../list/handler-result.ts';
import { classify, KEYED_DIRS, keyedFile, type RouteFamily, urlOfFile } from '../routes/paths.ts';
import { dumpFile, POLICIES } from '../routes/routes.ts';
import { contentTypeOf } from './mime.ts';

/**
 * A file ready to send. `headers` are name/value pairs without Content-Length or rate-limit headers.
 * A file larger than `maxCachedFileBytes` (the bulk downloads) has no `body`: it is streamed from
 * `path` (`size` bytes), so a request never holds more than a stream's buffer of it.
 */
export interface StaticFile {
  family: RouteFamily;
  body: Buffer | null;
  etag: string;
  headers: string[];
  path: string;
  size: number;
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
  /** The pages' security headers (src/routes/response-headers.ts pageHeaders, with the build's site origin). */
  pageHeaders?: Readonly<Record<string, string>>;
}

// The pattern folders (and api/rtp/provider inside api/rtp) are not listed at all: at 50k games
// each holds 50k entries, and their files are found from the URL.
/** Large files whose ETags are remembered (the map starts afresh past this). */
const LARGE_ETAGS = 256;

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
  /** ETags of files too large to keep (see streamedEtag). */
  private readonly largeEtags = new Map<string, string>();

  private constructor(root: string, index: Map<string, string>, options: StaticFilesOptions) {
    this.root = root;
    this.index = index;
    this.maxCachedFileBytes = options.maxCachedFileBytes ?? 1024 * 1024;
    this.pageHeaders = options.pageHeaders ?? POLICIES.page.headers ?? {};
    const cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024;
    // Every entry weighs at least its 512 bytes of overhead, so this many entries can never pass the byte bound.
    this.cache = byteLru<StaticFile>(cacheBytes, Math.ceil(cacheBytes / 512), (f, key) => (f.body?.length ?? 0) + stringBytes(key) + 512);
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
    // Before the keyed families: /api/rtp/removed would otherwise look like a game's slug.
    const dump = dumpFile(pathname);
    if (dump !== null) return { file: path.join(this.root, dump.file), family: 'dump', contentType: dump.contentType };
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
      // A streamed file is kept too: its headers and ETag, not its bytes.
      if (file !== null) this.cache.set(pathname, file);
      return file;
    });
    this.pending.set(pathname, promise);
    void promise.finally(() => this.pending.delete(pathname));
    return promise;
  }

  private async read(located: Located): Promise<StaticFile | null> {
    let body: Buffer | null;
    let etag: string;
    let size: number;
    try {
      // lstat: a symbolic link is not served, so nothing outside dist/client can be reached through one.
      const stat = await lstat(located.file);
      if (!stat.isFile()) return null;
      size = stat.size;
      if (size <= this.maxCachedFileBytes) {
        body = await readFile(located.file);
        etag = strongEtag(body);
      } else {
        body = null;
        etag = await this.streamedEtag(located.file, stat.size, stat.mtimeMs);
      }
    } catch {
      return null;
    }
    const policy = POLICIES[located.family];
    const headers = ['Content-Type', located.contentType, 'Cache-Control', policy.cacheControl, 'ETag', etag, 'Access-Control-Allow-Origin', '*'];
    const extra = located.family === 'page' ? this.pageHeaders : (policy.headers ?? {});
    for (const [name, value] of Object.entries(extra)) headers.push(name, value);
    return { family: located.family, body, etag, headers, path: located.file, size };
  }

  /**
   * The strong ETag of a large file, hashed by streaming it once and remembered for its size and
   * modification time (a release's files never change; a handful of bulk downloads are this large).
   */
  private async streamedEtag(file: string, size: number, mtimeMs: number): Promise<string> {
    const key = `${file}\0${size}\0${mtimeMs}`;
    const known = this.largeEtags.get(key);
    if (known !== undefined) return known;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    const etag = `"${hash.digest('hex').slice(0, 32)}"`;
    if (this.largeEtags.size >= LARGE_ETAGS) this.largeEtags.clear();
    this.largeEtags.set(key, etag);
    return etag;
  }
}
