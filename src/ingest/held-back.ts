// data/held-back.json: every game the sources name that is not published, with the reason and the
// figures of each source line (written by data:ingest; data:freeze gives a published game that
// leaves this way a tombstone naming the reason; data:report lists them in docs/DATA.md).

import { toDataJson } from '../lib/write.ts';
import { type HeldBackFile, HeldBackFileSchema } from '../schemas/held-back.ts';
import type { Excluded } from './merge.ts';

/** The held-back file's text for the games left out by a merge (in the merge's order). */
export function heldBackFile(excluded: readonly Excluded[]): string {
  const file: HeldBackFile = {
    format: 1,
    games: excluded.map((x) => ({
      provider: x.provider,
      name: x.name,
      slug: x.slug,
      also_published_as: x.alsoPublishedAs,
      reason: x.reason,
      sources: x.facts.map((f) => ({ file: f.file, line: f.line, stated_rtp: f.stated_rtp })),
    })),
  };
  return toDataJson(HeldBackFileSchema.parse(file));
}
