// Public schema of GET /api/rtp/identify: which build of a game an observed RTP figure is.
import { z } from 'zod';
import { VariantKindSchema } from './authoring.ts';
import { OperatorBuildKindSchema } from './game-record.ts';
import { TEXT_PARAM_MAX } from './list.ts';

/** An observed figure within this many percentage points of a known one is that figure. */
export const IDENTIFY_TOLERANCE = 0.005;
/** Known figures listed as nearest, at most. */
export const IDENTIFY_NEAREST = 3;

/** One known figure of the game, with how far the observed one is from it and the sources that state it. */
export const KnownFigureSchema = z.strictObject({
  rtp: z.number(),
  kind: VariantKindSchema,
  /** Observed minus this figure, percentage points (rounded to 4 decimals). */
  difference: z.number(),
  sources: z.array(z.string()),
});

/** An operator whose catalogue showed the matched build, on the date its source was pinned. */
export const IdentifyOperatorSchema = z.strictObject({
  operator: z.string(),
  display: z.string(),
  market: z.string().nullable(),
  rtp: z.number(),
  build: OperatorBuildKindSchema,
  pinned_at: z.string(),
  url: z.string(),
});

export const IdentifyResponseSchema = z.strictObject({
  meta: z.strictObject({
    data_version: z.string(),
    frozen_at: z.string(),
    tolerance: z.number(),
    query: z.strictObject({ slug: z.string().max(TEXT_PARAM_MAX).nullable(), name: z.string().max(TEXT_PARAM_MAX).nullable(), rtp: z.number() }),
  }),
  game: z.strictObject({
    canonical_slug: z.string(),
    canonical_name: z.string(),
    provider: z.string(),
    provider_display: z.string(),
    stated_rtp: z.number(),
    source_url: z.string(),
    /** How the game was found: `slug`, or `name` (the best search match; `alternatives` are the next ones). */
    chosen_by: z.enum(['slug', 'name']),
    alternatives: z.array(z.strictObject({ canonical_slug: z.string(), canonical_name: z.string() })),
  }),
  /** `default`: the stated RTP; `variant`: another known build (see `match.kind`); `unknown`: no known figure within the tolerance. */
  verdict: z.enum(['default', 'variant', 'unknown']),
  match: KnownFigureSchema.nullable(),
  /** The known figures nearest the observed one, nearest first (at most 3). */
  nearest: z.array(KnownFigureSchema),
  /** The operators known to run the matched build (their catalogue showed it when its source was pinned); empty without a match or an observation. */
  operators: z.array(IdentifyOperatorSchema),
});
export type IdentifyResponse = z.output<typeof IdentifyResponseSchema>;
