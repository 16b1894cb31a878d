// Public schemas of the bulk downloads under /api/rtp/dump/ and of /api/rtp/removed: the full JSON
// dump, the release diff of each frozen version, the tombstones of removed games, and the Data
// Package descriptor (Frictionless Data Package v1, https://specs.frictionlessdata.io/data-package/).
import { z } from 'zod';
import { GameRecordSchema } from './game-record.ts';

/** The registry's meta as the dumps carry it (registry.json's fields plus the game count). */
export const DumpMetaSchema = z.strictObject({
  data_version: z.string(),
  frozen_at: z.string(),
  games: z.int().min(0),
  license: z.string(),
  license_url: z.string(),
  attribution: z.string(),
});
export type DumpMeta = z.output<typeof DumpMetaSchema>;

/** GET /api/rtp/dump/registry.json: every public game record (with its sources), by slug. */
export const RegistryDumpSchema = z.strictObject({
  meta: DumpMetaSchema,
  records: z.array(GameRecordSchema),
});
export type RegistryDump = z.output<typeof RegistryDumpSchema>;

const RtpValueSchema = z.union([z.number(), z.array(z.number())]);

/** A game as it stood on one side of a release: its provider-stated RTP and variants. */
export const ReleaseGameSchema = z.strictObject({
  slug: z.string(),
  provider: z.string(),
  stated_rtp: z.number(),
  rtp_variants: z.array(z.number()),
});
export type ReleaseGame = z.output<typeof ReleaseGameSchema>;

/** A game a version removed: its last figures, and the slug it was merged into (the same game's record), or null. */
export const RemovedGameSchema = ReleaseGameSchema.extend({ merged_into: z.string().nullable() });
export type RemovedGame = z.output<typeof RemovedGameSchema>;

/** One changed field of a game between two frozen versions. */
export const FieldChangeSchema = z.strictObject({
  field: z.enum(['stated_rtp', 'rtp_variants']),
  from: RtpValueSchema,
  to: RtpValueSchema,
});

/** GET /api/rtp/dump/changes/{data_version}.json: what one frozen version changed, from the history log. */
export const ReleaseChangesSchema = z.strictObject({
  data_version: z.string(),
  frozen_at: z.string(),
  /** The frozen version before it, or null for the first. */
  previous_version: z.string().nullable(),
  counts: z.strictObject({ added: z.int().min(0), removed: z.int().min(0), changed: z.int().min(0) }),
  added: z.array(ReleaseGameSchema),
  removed: z.array(RemovedGameSchema),
  changed: z.array(z.strictObject({ slug: z.string(), provider: z.string(), changes: z.array(FieldChangeSchema) })),
});
export type ReleaseChanges = z.output<typeof ReleaseChangesSchema>;

/** GET /api/rtp/removed: games removed from the registry (and not added back), with the version that removed them. */
export const RemovedResponseSchema = z.strictObject({
  meta: z.strictObject({ data_version: z.string(), frozen_at: z.string(), total: z.int().min(0) }),
  items: z.array(
    z.strictObject({
      slug: z.string(),
      provider: z.string(),
      removed_in: z.string(),
      removed_at: z.string(),
      last_stated_rtp: z.number(),
      /** Why the game left (a held-back game: the conflict of its sources; a merged one: why it is the same game), or null where the freeze recorded none. */
      reason: z.string().nullable(),
      /** The slug of the record it was merged into (the same game; its old slug's routes redirect there), or null. */
      merged_into: z.string().nullable(),
    }),
  ),
});
export type RemovedResponse = z.output<typeof RemovedResponseSchema>;

/** A Table Schema field (https://specs.frictionlessdata.io/table-schema/). */
export const TableFieldSchema = z.strictObject({
  name: z.string(),
  type: z.enum(['string', 'number', 'integer', 'date', 'datetime', 'array', 'object']),
  description: z.string(),
  constraints: z.strictObject({ required: z.boolean().optional(), unique: z.boolean().optional() }).optional(),
});
export type TableField = z.output<typeof TableFieldSchema>;

/** One resource of the data package: a dump file with its size, hash and table schema. */
export const PackageResourceSchema = z.strictObject({
  name: z.string(),
  path: z.string(),
  profile: z.enum(['tabular-data-resource', 'data-resource']),
  title: z.string(),
  format: z.string(),
  mediatype: z.string(),
  encoding: z.literal('utf-8'),
  bytes: z.int().min(0),
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  dialect: z
    .strictObject({ delimiter: z.string(), lineTerminator: z.string(), quoteChar: z.string(), doubleQuote: z.boolean(), header: z.boolean() })
    .optional(),
  schema: z.strictObject({ fields: z.array(TableFieldSchema), primaryKey: z.string().optional() }),
});

/** GET /api/rtp/dump/datapackage.json. */
export const DataPackageSchema = z.strictObject({
  profile: z.literal('data-package'),
  name: z.string(),
  title: z.string(),
  description: z.string(),
  version: z.string(),
  created: z.string(),
  homepage: z.string(),
  licenses: z.array(z.strictObject({ name: z.string(), path: z.string(), title: z.string() })),
  resources: z.array(PackageResourceSchema),
});
export type DataPackage = z.output<typeof DataPackageSchema>;
