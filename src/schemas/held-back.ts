// data/held-back.json: the games the sources name that are not published, each with the reason
// and the figure of every source line (written by data:ingest, read by data:freeze and data:report).
import { z } from 'zod';
import { RtpSchema, SlugSchema } from './authoring.ts';

/** The held-back file's name in a data folder. */
export const HELD_BACK_FILE = 'held-back.json';

export const HeldBackFileSchema = z.strictObject({
  format: z.literal(1),
  games: z.array(
    z.strictObject({
      provider: SlugSchema,
      name: z.string().min(1),
      /** The slug the game was published under before it was held back, or null. */
      slug: SlugSchema.nullable(),
      /** Other slugs once published for this game (a name the cleaning rules made one with it); each leads to it. Absent in older files. */
      also_published_as: z.array(SlugSchema).default([]),
      reason: z.string().min(1),
      sources: z.array(z.strictObject({ file: z.string(), line: z.int().min(1), stated_rtp: RtpSchema })).min(1),
    }),
  ),
});
export type HeldBackFile = z.output<typeof HeldBackFileSchema>;
