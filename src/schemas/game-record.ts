// Public game record: the element of the list route's `items` (public-api.md, "Game record").
import { z } from 'zod';
import { GameTypeSchema, SourceTierSchema, VariantKindSchema, VolatilitySchema } from './authoring.ts';

export const BADGES = ['verified_rtp', 'variants_tracked', 'sources_disagree'] as const;
export const BadgeSchema = z.enum(BADGES);
export type Badge = z.output<typeof BadgeSchema>;

/** One source that states the game's figures (docs/data-model.md, "Sources and precedence"). */
export const PublicSourceSchema = z.strictObject({
  kind: SourceTierSchema,
  /** Where its figures come from in the end: two files copied from one site share one origin; a hand-checked row's is the evidence it names. */
  origin: z.string(),
  /** How the source reached its figure when not as `kind` says: "provider page as cited by <catalogue>, not checked here"; else null. */
  via: z.string().nullable(),
  url: z.string(),
  checked_at: z.string().nullable(),
  stated_rtp: z.number(),
  rtp_variants: z.array(z.number()),
});
export type PublicSource = z.output<typeof PublicSourceSchema>;

/**
 * How much evidence stands behind the stated RTP: `verified` (a provider page read here states it,
 * or a licensed operator and a source of another origin state it and no source states a higher
 * figure), `corroborated` (sources of two or more origins state it), `single_source` (otherwise).
 */
export const CONFIDENCE_LEVELS = ['verified', 'corroborated', 'single_source'] as const;
export const ConfidenceSchema = z.enum(CONFIDENCE_LEVELS);
export type Confidence = z.output<typeof ConfidenceSchema>;

export const SOURCE_KINDS = ['provider_page', 'third_party'] as const;
export const SourceKindSchema = z.enum(SOURCE_KINDS);
export type SourceKind = z.output<typeof SourceKindSchema>;

/** How an operator's build compares with the stated RTP: equal (`top`), below it (`lower`), above it (`higher`). */
export const OPERATOR_BUILDS = ['top', 'lower', 'higher'] as const;
export const OperatorBuildKindSchema = z.enum(OPERATOR_BUILDS);
export type OperatorBuildKind = z.output<typeof OperatorBuildKindSchema>;

/**
 * The build one licensed casino's catalogue showed for the game on the date its source was pinned
 * (an observation, not a live reading).
 */
export const OperatorBuildSchema = z.strictObject({
  operator: z.string(),
  display: z.string(),
  market: z.string().nullable(),
  rtp: z.number(),
  build: OperatorBuildKindSchema,
  /** For a `lower` or `higher` build: the record's variant at that RTP (its kind); else null. */
  variant: z.strictObject({ rtp: z.number(), kind: VariantKindSchema }).nullable(),
  /** For a `higher` build: the record's reason why the stated RTP stays; else null. */
  reason: z.string().nullable(),
  /** The pinned line the figure was read from: the file and line here, the catalogue file and array index it names, and when the source was pinned. */
  source: z.strictObject({
    file: z.string(),
    line: z.int(),
    catalogue_file: z.string().nullable(),
    index: z.int().nullable(),
    url: z.string(),
    pinned_at: z.string(),
  }),
});
export type OperatorBuild = z.output<typeof OperatorBuildSchema>;

/** The spec's fields first, in the spec's order, then the documented further fields. */
export const GameRecordSchema = z.strictObject({
  canonical_slug: z.string(),
  canonical_name: z.string(),
  provider: z.string(),
  provider_display: z.string(),
  stated_rtp: z.number(),
  rtp_variants: z.array(z.number()),
  rtp_min: z.number(),
  rtp_max: z.number(),
  variants_count: z.int(),
  volatility: VolatilitySchema.nullable(),
  max_win: z.number().nullable(),
  release_year: z.int().nullable(),
  game_type: GameTypeSchema,
  last_verified: z.string(),
  snapshot_id: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  source_url: z.string(),
  badges: z.array(BadgeSchema),
  // Further fields (documented in docs/data-model.md).
  variants: z.array(z.strictObject({ rtp: z.number(), kind: VariantKindSchema, jurisdiction: z.string().nullable() })),
  source_kind: SourceKindSchema,
  /** How much evidence stands behind `stated_rtp` (CONFIDENCE_LEVELS). */
  confidence: ConfidenceSchema,
  /** The studio that made the game where a source names it apart from the provider publishing it (Reel Kingdom, for Pragmatic Play); else null. */
  studio: z.string().nullable(),
  evidence_url: z.string(),
  notes: z.string(),
  /** Every source that states the figures, in precedence order; the first states `stated_rtp`. */
  sources: z.array(PublicSourceSchema),
  /** What each licensed casino's catalogue showed for the game when its source was pinned; empty when none is known. */
  operators: z.array(OperatorBuildSchema),
});
export type GameRecord = z.output<typeof GameRecordSchema>;
