// Public operator record: the body of GET /api/rtp/operator/{operator} (docs/api-static.md, "Operator").
import { z } from 'zod';
import { OperatorBuildSchema } from './game-record.ts';
import { LicenseSchema } from './slot.ts';

/** What every operator answer says of its figures. */
export const OBSERVATION_NOTE = "Each build is what this casino's own catalogue showed on the date its source was pinned, not a live reading.";

/** Counts of games by the builds observed; a game the catalogue lists at two builds counts under each. */
export const BuildCountsSchema = z.strictObject({
  games_observed: z.int().min(0),
  at_top: z.int().min(0),
  at_lower: z.int().min(0),
  at_higher: z.int().min(0),
});
export type BuildCounts = z.output<typeof BuildCountsSchema>;

/** One build of a game the operator's catalogue showed (the record's `operators` entry without the operator's own fields). */
export const OperatorGameBuildSchema = OperatorBuildSchema.omit({ operator: true, display: true, market: true });

export const OperatorRecordSchema = z.strictObject({
  meta: z.strictObject({
    operator: z.string(),
    display: z.string(),
    market: z.string().nullable(),
    licence: z.string().nullable(),
    licensing_authority: z.string().nullable(),
    website: z.string().nullable(),
    sources: z.array(z.strictObject({ file: z.string(), pinned_at: z.string() })),
  }),
  note: z.literal(OBSERVATION_NOTE),
  data_version: z.string(),
  frozen_at: z.string(),
  summary: z.strictObject({
    ...BuildCountsSchema.shape,
    /** Builds observed (a game listed twice counts twice). */
    observations: z.int().min(0),
    /** Over the lower builds: the mean and largest gap below the stated RTP, in percentage points (2 decimals); null without one. */
    gap_mean: z.number().nullable(),
    gap_max: z.number().nullable(),
    by_provider: z.array(z.strictObject({ provider: z.string(), display: z.string(), ...BuildCountsSchema.shape })),
  }),
  /** The games its catalogue lists, by slug, each with every build observed. */
  games: z.array(
    z.strictObject({
      slug: z.string(),
      name: z.string(),
      provider: z.string(),
      stated_rtp: z.number(),
      builds: z.array(OperatorGameBuildSchema).min(1),
    }),
  ),
  license: LicenseSchema,
});
export type OperatorRecord = z.output<typeof OperatorRecordSchema>;
