// The changed-paths manifest between two releases, for targeted CDN purges. Names these URLs:
//   /api/rtp/{slug}  /api/rtp/provider/{provider}  /api/widget/rtp/{slug}  /widget/rtp/{slug}
//   /api/badge/rtp/{slug}.svg  /api/feeds/...  /api/rtp/dump/...  /api/rtp/removed  /llms.txt
//   /rtp/{slug}  other pages (/, /about, /providers/{provider}…)  /_astro/* assets
//   /api/rtp/list, /api/rtp/history, /api/rtp/identify (dynamic: listed whole when the data version changes)
import { classify, paths, urlOfFile } from '../routes/paths.ts';
import { MANIFEST_FAMILIES, type ManifestFamily, type PathChanges, type ReleaseManifest } from '../schemas/release.ts';
import { compareBytes, type FileHashes } from './tree.ts';

/** Files in client/ that answer no URL of their own: CDN configuration and the error pages. */
const NOT_URLS = new Set(['client/_headers', 'client/_redirects', 'client/_routes.json', 'client/404.html', 'client/500.html']);

/** The URL path and family of a release file (src/routes/routes.ts), or `other` with the file path for files that are no URL. */
export function urlOfReleaseFile(rel: string): { family: ManifestFamily; path: string } | null {
  if (!rel.startsWith('client/')) return null; // server-side content: covered by `dynamic`
  if (NOT_URLS.has(rel)) return { family: 'other', path: rel };
  const url = urlOfFile(rel.slice('client/'.length));
  if (url === null) return { family: 'other', path: rel };
  const family = classify(url.path);
  // The static data files (dumps, tombstones, the registry feed, llms.txt) are one family whichever way they are found.
  if (family === 'dump') return { family: 'dump', path: url.path };
  if (!url.keyed) return { family: family === 'asset' ? 'asset' : 'page', path: url.path };
  if (family === 'page') return { family: 'game_page', path: url.path };
  if (family === 'provider_feed' || family === 'operator_feed' || family === 'game_feed') return { family: 'feed', path: url.path };
  return { family: family as ManifestFamily, path: url.path };
}

function emptyFamilies(): Record<ManifestFamily, PathChanges> {
  return Object.fromEntries(MANIFEST_FAMILIES.map((f) => [f, { changed: [], added: [], removed: [] }])) as unknown as Record<ManifestFamily, PathChanges>;
}

export interface ManifestSide {
  name: string;
  dataVersion: string;
  hashes: FileHashes;
}

/** Compares the file hashes of two releases (`from` null: everything is added). */
export function diffReleases(from: ManifestSide | null, to: ManifestSide): ReleaseManifest {
  const families = emptyFamilies();
  const put = (rel: string, kind: keyof PathChanges) => {
    const url = urlOfReleaseFile(rel);
    if (url !== null) families[url.family][kind].push(url.path);
  };
  const before = from?.hashes ?? new Map<string, string>();
  for (const [rel, hash] of to.hashes) {
    const old = before.get(rel);
    if (old === undefined) put(rel, 'added');
    else if (old !== hash) put(rel, 'changed');
  }
  for (const rel of before.keys()) if (!to.hashes.has(rel)) put(rel, 'removed');
  const counts = { changed: 0, added: 0, removed: 0 };
  for (const f of MANIFEST_FAMILIES) {
    for (const kind of ['changed', 'added', 'removed'] as const) {
      families[f][kind].sort(compareBytes);
      counts[kind] += families[f][kind].length;
    }
  }
  const dataVersionChanged = from === null || from.dataVersion !== to.dataVersion;
  const bundleChanged = before.get('server/registry-bundle.json') !== to.hashes.get('server/registry-bundle.json');
  return {
    format: 1,
    from: from?.name ?? null,
    to: to.name,
    from_data_version: from?.dataVersion ?? null,
    to_data_version: to.dataVersion,
    data_version_changed: dataVersionChanged,
    counts,
    families,
    dynamic: dataVersionChanged || bundleChanged ? [paths.list, paths.history, paths.identify] : [],
  };
}

/**
 * The purge list: one URL path per line, every changed, added or removed path a CDN may hold.
 * Fingerprinted assets (a change gives a new name) and non-URL files are left out; dynamic routes
 * are listed as `<path>*` (purge by prefix: every query string).
 */
export function purgeList(manifest: ReleaseManifest): string {
  const out: string[] = [];
  for (const f of MANIFEST_FAMILIES) {
    if (f === 'asset' || f === 'other') continue;
    const c = manifest.families[f];
    out.push(...c.changed, ...c.added, ...c.removed);
  }
  out.sort(compareBytes);
  for (const d of manifest.dynamic) out.push(`${d}*`);
  return out.map((p) => `${p}\n`).join('');
}
