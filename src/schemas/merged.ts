// data/merged.json: every published slug that turned out to be the same game as another record and
// was merged into it, with the slug it was merged into, the reason and the source lines of the
// record that left (written by data:ingest, read by data:freeze for the tombstone and data:report).
import { z } from 'zod';
import { RtpSchema, SlugSchema } from './authoring.ts';

/** The merged file's name in a data folder. */
export const MERGED_FILE = 'merged.json';

export const MergedEntrySchema = z
  .strictObject({
    /** The provider key the slug was published under (the studio). */
    provider: SlugSchema,
    name: z.string().min(1),
    /** The slug that left: it answers a permanent redirect to `merged_into`. */
    slug: SlugSchema,
    /** The surviving record's slug, and its provider key (the studio's distributor). */
    merged_into: SlugSchema,
    into_provider: SlugSchema,
    /** Why the two records are one game: what the data proves (names, figures, the alias table). */
    reason: z.string().min(1),
    /** The source lines of the record that left, now listed by the surviving record. */
    sources: z.array(z.strictObject({ file: z.string(), line: z.int().min(1), stated_rtp: RtpSchema })).min(1),
  })
  .refine((e) => e.slug !== e.merged_into, { path: ['merged_into'], message: 'must name another slug' });
export type MergedEntry = z.output<typeof MergedEntrySchema>;

export const MergedFileSchema = z.strictObject({ format: z.literal(1), games: z.array(MergedEntrySchema) }).superRefine((file, ctx) => {
  const seen = new Set<string>();
  file.games.forEach((g, i) => {
    if (seen.has(g.slug)) ctx.addIssue({ code: 'custom', path: ['games', i, 'slug'], message: `${g.slug} is listed twice` });
    seen.add(g.slug);
  });
});
export type MergedFile = z.output<typeof MergedFileSchema>;
