// Release records written by `npm run release`: release.json (what a release folder holds) and
// manifest.json (which public URLs changed against the release it replaced).
import { z } from 'zod';

/** `<data_version>-<12 hex digits of the content hash>`, e.g. `1.4.0-3f2a9c01b7de`. */
export const RELEASE_NAME = /^[0-9]+\.[0-9]+\.[0-9]+-[0-9a-f]{12}$/;

export const ReleaseNameSchema = z.string().regex(RELEASE_NAME, 'must be <data_version>-<12 hex digits>');

export const ReleaseInfoSchema = z.strictObject({
  format: z.literal(1),
  name: ReleaseNameSchema,
  data_version: z.string(),
  frozen_at: z.string(),
  /** SHA-256 over the served files (files.sha256), hex. */
  content_hash: z.string().regex(/^[0-9a-f]{64}$/),
  games: z.int().min(0),
  providers: z.int().min(0),
  /** When this release was last switched in by `npm run release` (ISO 8601); orders releases for retention. */
  released_at: z.string(),
  /** The release that was serving when this one was switched in (the target of `--rollback`). */
  previous: ReleaseNameSchema.nullable(),
});
export type ReleaseInfo = z.output<typeof ReleaseInfoSchema>;

/** The URL families a manifest groups paths by. */
export const MANIFEST_FAMILIES = ['slot', 'widget', 'widget_data', 'provider', 'badge', 'feed', 'dump', 'game_page', 'page', 'asset', 'other'] as const;
export type ManifestFamily = (typeof MANIFEST_FAMILIES)[number];

export const PathChangesSchema = z.strictObject({
  changed: z.array(z.string()),
  added: z.array(z.string()),
  removed: z.array(z.string()),
});
export type PathChanges = z.output<typeof PathChangesSchema>;

export const ReleaseManifestSchema = z.strictObject({
  format: z.literal(1),
  /** The release this one is compared with (null: the first release). */
  from: ReleaseNameSchema.nullable(),
  to: ReleaseNameSchema,
  from_data_version: z.string().nullable(),
  to_data_version: z.string(),
  /** True when the data version differs: every list and history answer changed too. */
  data_version_changed: z.boolean(),
  counts: z.strictObject({ changed: z.int().min(0), added: z.int().min(0), removed: z.int().min(0) }),
  /** URL paths per family, each list sorted. */
  families: z.record(z.enum(MANIFEST_FAMILIES), PathChangesSchema),
  /** Dynamic routes whose answers changed (purge by prefix, query strings included). */
  dynamic: z.array(z.string()),
});
export type ReleaseManifest = z.output<typeof ReleaseManifestSchema>;
