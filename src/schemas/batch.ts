// Public schema of the list route's batch lookup: GET /api/rtp/list?slugs=a,b,c.
import { z } from 'zod';
import { GameRecordSchema } from './game-record.ts';

/** Most slugs one batch may name. */
export const BATCH_MAX = 200;

export const BatchResponseSchema = z.strictObject({
  meta: z.strictObject({
    data_version: z.string(),
    frozen_at: z.string(),
    total: z.int().min(0),
    /** How many of the named games are in the registry (the length of `items`). */
    found: z.int().min(0),
    /** Named slugs the registry does not have, in the order given. */
    missing: z.array(z.string()),
    /** Named slugs merged into another record, in the order given: `items` holds the survivor's record (once) in their place. */
    moved: z.array(z.strictObject({ slug: z.string(), merged_into: z.string() })),
    query: z.strictObject({ slugs: z.array(z.string()).min(1).max(BATCH_MAX) }),
  }),
  items: z.array(GameRecordSchema),
});
export type BatchResponse = z.output<typeof BatchResponseSchema>;
