// Authoring schemas: the shape of the files a person edits under data/ (strict: unknown keys are rejected).
import { z } from 'zod';

/** Lowercase ASCII words joined by single hyphens: the form of every slug and provider key. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Slugs that would collide with a route under /api/rtp/ or /widget/rtp/ (public-api.md, Endpoints). */
export const RESERVED_SLUGS = [
  'list',
  'history',
  'provider',
  'providers',
  'openapi',
  'openapi.json',
  'index',
  'dump',
  'removed',
  'identify',
  'operator',
  'operators',
] as const;

export const GAME_TYPES = ['slot', 'scratchcard', 'table', 'video_poker', 'instant', 'bingo', 'keno'] as const;
export const GameTypeSchema = z.enum(GAME_TYPES);
export type GameType = z.output<typeof GameTypeSchema>;

export const VOLATILITIES = ['low', 'medium', 'high', 'very-high'] as const;
export const VolatilitySchema = z.enum(VOLATILITIES);
export type Volatility = z.output<typeof VolatilitySchema>;

/**
 * What a variant is: `standard` is the provider's default (stated) build; `operator_ladder` a lower
 * build an operator may choose; `operator` the build a licensed casino's own catalogue shows it runs; `bonus_buy` the RTP of a bought feature; `ante_bet` the RTP with an
 * ante (raised) bet; `player_config` a setting the player chooses; `feature` the RTP of one feature
 * mode; `jurisdiction` a build made for one market (with its ISO 3166-1 alpha-2 code); `unknown`
 * where the source does not say.
 */
export const VARIANT_KINDS = [
  'standard',
  'operator_ladder',
  'operator',
  'bonus_buy',
  'ante_bet',
  'player_config',
  'feature',
  'jurisdiction',
  'unknown',
] as const;
export const VariantKindSchema = z.enum(VARIANT_KINDS);
export type VariantKind = z.output<typeof VariantKindSchema>;

export const SlugSchema = z.string().regex(SLUG_PATTERN, 'must be lowercase ASCII letters and digits joined by single hyphens');

/** An RTP percentage: greater than 0 and at most 100. */
export const RtpSchema = z.number().gt(0, 'must be greater than 0').lte(100, 'must be at most 100');

export const HttpUrlSchema = z.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: 'must be an absolute http(s) URL' });
export const TimestampSchema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T00:00:00Z' });
export const VersionSchema = z.string().regex(/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/, 'must be a dotted three-part version such as 1.0.0');

export const VariantSchema = z.strictObject({
  rtp: RtpSchema,
  kind: VariantKindSchema,
  jurisdiction: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as DE')
    .optional(),
});
export type Variant = z.output<typeof VariantSchema>;

/**
 * How much a source is trusted, highest first (docs/data-model.md, "Sources and precedence"): the
 * provider's own page; a licensed operator's own catalogue (the build that casino runs); the
 * hand-checked seed; a catalogue's data files; an aggregator's examples.
 */
export const SOURCE_TIERS = ['provider', 'operator', 'hand_checked', 'catalogue', 'aggregator'] as const;
export const SourceTierSchema = z.enum(SOURCE_TIERS);
export type SourceTier = z.output<typeof SourceTierSchema>;

/** One source that states a game's figures, traced to its line in the pinned file (data/sources/). */
export const SourceEntrySchema = z
  .strictObject({
    kind: SourceTierSchema,
    /**
     * How the source reached the figure when it is not what `kind` says: a catalogue line citing the
     * provider's page is "provider page as cited by <catalogue>, not checked here". Null or absent otherwise.
     */
    via: z.string().min(1).nullable().optional(),
    /** The page the source cites for its figures. */
    url: HttpUrlSchema,
    /** When the source says its figures were checked; null where it does not say. */
    checked_at: TimestampSchema.nullable(),
    stated_rtp: RtpSchema,
    /** Every figure the source states, ascending (the stated one included). */
    rtp_variants: z.array(RtpSchema).min(1, 'must list at least the stated RTP'),
    /** The pinned file (`sources/<file>`) and 1-based line the figures were read from. */
    file: z.string().regex(/^sources\/[\w.-]+$/, 'must be sources/<file>'),
    line: z.int().min(1),
    /** For a provider page read here: `sha256:` and the hex SHA-256 of the page as it was read. */
    page_sha256: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/, 'must be "sha256:" followed by 64 lowercase hex digits')
      .optional(),
  })
  .superRefine((s, ctx) => {
    // `provider` is reserved for a page this project read itself: it says when, and what it read.
    if (s.kind !== 'provider') return;
    if (s.checked_at === null) ctx.addIssue({ code: 'custom', path: ['checked_at'], message: 'a provider page read here needs the date it was read' });
    if (s.page_sha256 === undefined)
      ctx.addIssue({ code: 'custom', path: ['page_sha256'], message: 'a provider page read here needs the hash of the page as read' });
  });
export type SourceEntry = z.output<typeof SourceEntrySchema>;

/** data/games/<provider>/<slug>.json */
export const GameFileSchema = z.strictObject({
  canonical_slug: SlugSchema,
  canonical_name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  provider: SlugSchema,
  /** The studio that made the game, where a source line names it and its distributor publishes it as `provider` (data/provider-aliases.json); absent otherwise. */
  studio: z.string().trim().min(1).optional(),
  game_type: GameTypeSchema,
  stated_rtp: RtpSchema,
  rtp_variants: z.array(VariantSchema).min(1, 'must list at least the stated RTP'),
  volatility: VolatilitySchema.nullable(),
  /** Highest published win as a multiple of the stake; null where no cap is published. */
  max_win_x: z.number().positive('must be greater than 0').nullable(),
  release_year: z.int('must be a four-digit year').min(1000, 'must be a four-digit year').max(9999, 'must be a four-digit year').nullable(),
  source_url: HttpUrlSchema,
  evidence_url: HttpUrlSchema,
  last_verified: TimestampSchema,
  notes: z.string(),
  /** Every source that states the game's figures, in precedence order; the first states `stated_rtp`. */
  sources: z.array(SourceEntrySchema).min(1, 'must list the source of the stated RTP'),
});
export type GameFile = z.output<typeof GameFileSchema>;

/** data/providers/<provider>.json */
export const ProviderFileSchema = z.strictObject({
  provider: SlugSchema,
  display: z.string().trim().min(1, 'must not be empty'),
  /** The provider's own website; null where no source states it (never guessed). */
  website: HttpUrlSchema.nullable(),
  /** The group the studio belongs to (display name, from data/provider-aliases.json), or null. */
  group: z.string().trim().min(1).nullable().optional(),
  /** Every label the sources write for the provider (from data/provider-aliases.json); search finds it by each. */
  aliases: z.array(z.string().trim().min(1)).optional(),
});
export type ProviderFile = z.output<typeof ProviderFileSchema>;

/** One pinned source file an operator's observations come from, with the date it was pinned (data/sources/sources.json). */
export const OperatorSourceSchema = z.strictObject({
  file: z.string().regex(/^sources\/[\w.-]+$/, 'must be sources/<file>'),
  pinned_at: TimestampSchema,
});

/**
 * data/operators/<operator>.json: a licensed casino whose own catalogue a pinned source holds. Each
 * field is what the source's README states; null where it does not say (never guessed).
 */
export const OperatorFileSchema = z.strictObject({
  operator: SlugSchema,
  display: z.string().trim().min(1, 'must not be empty'),
  /** The market the operator is licensed for, ISO 3166-1 alpha-2; null where the source does not say. */
  market: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as NL')
    .nullable(),
  /** The licence as the source states it ("Dutch-licensed"); null where it does not say. */
  licence: z.string().trim().min(1).nullable(),
  /** The licensing authority as the source names it; null where it names none. */
  licensing_authority: z.string().trim().min(1).nullable(),
  /** The operator's website as the source names it; null where it does not. */
  website: HttpUrlSchema.nullable(),
  /** The pinned files whose lines are this operator's observations. */
  sources: z.array(OperatorSourceSchema).min(1, 'must name the pinned source of its observations'),
});
export type OperatorFile = z.output<typeof OperatorFileSchema>;

/** data/registry.json: the snapshot's version and licence. */
export const RegistryFileSchema = z.strictObject({
  data_version: VersionSchema,
  frozen_at: TimestampSchema,
  license: z.literal('CC-BY-4.0'),
  license_url: HttpUrlSchema,
  attribution: z.string().min(1, 'must not be empty'),
});
export type RegistryFile = z.output<typeof RegistryFileSchema>;

/** One line of data/history.jsonl, written only by `npm run data:freeze`. */
export const HistoryEntrySchema = z.strictObject({
  data_version: VersionSchema,
  frozen_at: TimestampSchema,
  slug: SlugSchema,
  provider: SlugSchema,
  field: z.enum(['stated_rtp', 'rtp_variants']),
  from: z.union([RtpSchema, z.array(RtpSchema)]).nullable(),
  to: z.union([RtpSchema, z.array(RtpSchema)]).nullable(),
  /** Why a removed game left (on removal entries only, when data/held-back.json or data/merged.json names it): its tombstone's reason. */
  reason: z.string().min(1).optional(),
  /** The slug a removed game was merged into (on removal entries of a merged game only, from data/merged.json). */
  merged_into: SlugSchema.optional(),
});
export type HistoryEntry = z.output<typeof HistoryEntrySchema>;

/** `sha256:` followed by 64 lowercase hex digits (the form of every snapshot_id). */
export const SnapshotIdSchema = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be "sha256:" followed by 64 lowercase hex digits');

/** One game's RTP facts as they stood at the last freeze (an entry of data/frozen.json). */
export const FrozenGameSchema = z.strictObject({
  provider: SlugSchema,
  stated_rtp: RtpSchema,
  rtp_variants: z.array(RtpSchema).min(1, 'must list at least the stated RTP'),
  snapshot_id: SnapshotIdSchema,
});
export type FrozenGame = z.output<typeof FrozenGameSchema>;

/**
 * data/frozen.json, written only by `npm run data:freeze`: the state of the last frozen version,
 * which the next freeze diffs against to append history. `games` is keyed by slug, sorted.
 */
export const FrozenFileSchema = z.strictObject({
  data_version: VersionSchema,
  frozen_at: TimestampSchema,
  games: z.record(SlugSchema, FrozenGameSchema),
});
export type FrozenFile = z.output<typeof FrozenFileSchema>;
