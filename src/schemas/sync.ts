// Public schema of the list route's delta sync: GET /api/rtp/list?updated_since=<ISO 8601>.
import { z } from 'zod';
import { GameRecordSchema } from './game-record.ts';
import { LIST_LIMIT_MAX, LIST_LIMIT_MIN, LIST_OFFSET_MAX } from './list.ts';

/** A game record with when its published figures last changed (the history log's last freeze for it). */
export const SyncRecordSchema = GameRecordSchema.extend({ updated_at: z.iso.datetime() });
export type SyncRecord = z.output<typeof SyncRecordSchema>;

export const SyncResponseSchema = z.strictObject({
  meta: z.strictObject({
    data_version: z.string(),
    frozen_at: z.string(),
    total: z.int().min(0),
    /** Records changed after `updated_since`. */
    filtered: z.int().min(0),
    has_more: z.boolean(),
    query: z.strictObject({
      updated_since: z.iso.datetime(),
      limit: z.int().min(LIST_LIMIT_MIN).max(LIST_LIMIT_MAX),
      offset: z.int().min(0).max(LIST_OFFSET_MAX),
    }),
  }),
  /** Oldest change first (then by slug), so a mirror can resume from the last `updated_at` it stored. */
  items: z.array(SyncRecordSchema),
});
export type SyncResponse = z.output<typeof SyncResponseSchema>;
