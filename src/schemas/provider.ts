// Public provider record: the body of GET /api/rtp/provider/{provider} (docs/api-static.md, "Provider").
import { z } from 'zod';
import { GameTypeSchema } from './authoring.ts';
import { LicenseSchema } from './slot.ts';

export const ProviderRecordSchema = z.strictObject({
  meta: z.strictObject({ provider: z.string(), display: z.string(), website: z.string().nullable() }),
  data_version: z.string(),
  frozen_at: z.string(),
  games_count: z.int().min(0),
  /** Every game type, zeros included, in the order of GAME_TYPES. */
  game_types: z.array(z.strictObject({ game_type: GameTypeSchema, count: z.int().min(0) })),
  /** Statistics over the stated RTP of the provider's games, 2 decimals; null when it has no games. */
  rtp_stats: z.strictObject({ min: z.number(), max: z.number(), mean: z.number(), median: z.number() }).nullable(),
  /** Games with more than one known RTP variant. */
  multi_variant_count: z.int().min(0),
  /** The provider's games, sorted by slug. */
  games: z.array(z.strictObject({ slug: z.string(), name: z.string(), stated_rtp: z.number() })),
  license: LicenseSchema,
});
export type ProviderRecord = z.output<typeof ProviderRecordSchema>;
