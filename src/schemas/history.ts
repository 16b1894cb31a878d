// Public schemas of GET /api/rtp/history: the normalised query, one change entry, and the response.
import { z } from 'zod';
import { TEXT_PARAM_MAX } from './list.ts';

export const HISTORY_LIMIT_MIN = 1;
export const HISTORY_LIMIT_MAX = 200;
export const HISTORY_LIMIT_DEFAULT = 50;
export const HISTORY_OFFSET_MAX = 1_000_000;

/** The query actually applied (meta.query); `since` is echoed as a UTC timestamp. */
export const HistoryQuerySchema = z.strictObject({
  slug: z.string().min(1).max(TEXT_PARAM_MAX).nullable(),
  provider: z.string().min(1).max(TEXT_PARAM_MAX).nullable(),
  since: z.iso.datetime().nullable(),
  limit: z.int().min(HISTORY_LIMIT_MIN).max(HISTORY_LIMIT_MAX),
  offset: z.int().min(0).max(HISTORY_OFFSET_MAX),
});
export type HistoryQuery = z.output<typeof HistoryQuerySchema>;

const RtpValueSchema = z.union([z.number(), z.array(z.number())]).nullable();

/** One recorded change of a game's stated RTP or variants between two frozen versions. */
export const HistoryItemSchema = z.strictObject({
  data_version: z.string(),
  frozen_at: z.string(),
  slug: z.string(),
  provider: z.string(),
  field: z.enum(['stated_rtp', 'rtp_variants']),
  from: RtpValueSchema,
  to: RtpValueSchema,
  /** On the entries of a game merged into another record (the same game): that record's slug; else null. */
  merged_into: z.string().nullable(),
});
export type HistoryItem = z.output<typeof HistoryItemSchema>;

export const HistoryResponseSchema = z.strictObject({
  meta: z.strictObject({
    data_version: z.string(),
    frozen_at: z.string(),
    total: z.int().min(0),
    filtered: z.int().min(0),
    has_more: z.boolean(),
    query: HistoryQuerySchema,
  }),
  items: z.array(HistoryItemSchema),
});
export type HistoryResponse = z.output<typeof HistoryResponseSchema>;
