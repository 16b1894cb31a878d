// Public single-slot record: the body of GET /api/rtp/{slug} (docs/api-static.md, "Single-slot record").
import { z } from 'zod';
import { GameRecordSchema } from './game-record.ts';

/** One RTP change of a game, as recorded by `data:freeze` in the history log. */
export const SlotHistoryEntrySchema = z.strictObject({
  data_version: z.string(),
  frozen_at: z.string(),
  field: z.enum(['stated_rtp', 'rtp_variants']),
  from: z.union([z.number(), z.array(z.number())]).nullable(),
  to: z.union([z.number(), z.array(z.number())]).nullable(),
});
export type SlotHistoryEntry = z.output<typeof SlotHistoryEntrySchema>;

/** The provider of a game, with figures over all of that provider's games. */
export const ProviderMetaSchema = z.strictObject({
  provider: z.string(),
  display: z.string(),
  /** Null where no source states the provider's website. */
  website: z.string().nullable(),
  games_count: z.int().positive(),
  /** Lowest and highest stated RTP among the provider's games. */
  rtp_min: z.number(),
  rtp_max: z.number(),
});
export type ProviderMeta = z.output<typeof ProviderMetaSchema>;

/** The licence block carried by every static JSON response. */
export const LicenseSchema = z.strictObject({
  id: z.literal('CC-BY-4.0'),
  url: z.string(),
  attribution: z.string(),
});
export type License = z.output<typeof LicenseSchema>;

/** The public game record (same fields, same order), then provider meta and derived fields. */
export const SlotRecordSchema = z.strictObject({
  ...GameRecordSchema.shape,
  provider_meta: ProviderMetaSchema,
  /** 100 - stated_rtp, in percentage points, 2 decimals. */
  house_edge: z.number().min(0).max(100),
  /** rtp_max - rtp_min, in percentage points, 2 decimals. */
  rtp_spread: z.number().min(0),
  /** This game's entries of the history log, newest first. */
  history: z.array(SlotHistoryEntrySchema),
  widget_url: z.string(),
  embed_html: z.string(),
  page_url: z.string(),
  citation: z.string(),
  license: LicenseSchema,
  data_version: z.string(),
  frozen_at: z.string(),
});
export type SlotRecord = z.output<typeof SlotRecordSchema>;
