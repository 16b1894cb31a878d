// The layout of dist/ that the build writes and the server, releases and dist-check read: the file
// names under dist/server and the build record's shape.
//
//   dist/server/registry-bundle.json   public records, providers, meta, history (src/registry/bundle.ts)
//   dist/server/list-bundle.bin        the list engine's compiled form (src/schemas/list-bundle.ts)
//   dist/server/build-info.json        BuildInfoSchema
//   dist/server/runtime/server.mjs     the production server, bundled (src/emit/server-bundle.ts)
import { z } from 'zod';

/** The registry bundle: the build's hand-off of the public records to the Node side. */
export const BUNDLE_FILE = 'registry-bundle.json';
/** The list bundle: records pre-encoded, filter columns, sort orders and the packed search index. */
export const LIST_BUNDLE_FILE = 'list-bundle.bin';
/** What a build recorded about itself. */
export const BUILD_INFO_FILE = 'build-info.json';
/** The folder of the bundled production server, and its entry (both under dist/server). */
export const SERVER_RUNTIME_DIR = 'runtime';
export const SERVER_ENTRY_FILE = `${SERVER_RUNTIME_DIR}/server.mjs`;

/** What a build recorded about itself (dist/server/build-info.json). */
export const BuildInfoSchema = z.strictObject({
  format: z.literal(1),
  /** The base URL of absolute links in this build (RTP_SITE at build time). */
  site: z.string(),
  data_version: z.string(),
  frozen_at: z.string(),
  games: z.int().min(0),
  providers: z.int().min(0),
});
export type BuildInfo = z.output<typeof BuildInfoSchema>;
