// Public schemas of GET /api/rtp/list: the normalised query echoed in meta, facets and the response.
import { z } from 'zod';
import { GameTypeSchema, VolatilitySchema } from './authoring.ts';
import { BadgeSchema, ConfidenceSchema, GameRecordSchema, OperatorBuildKindSchema } from './game-record.ts';
import { ListIncludeSchema, ListItemSchema, PartialGameRecordSchema, RecordFieldSchema } from './list-item.ts';

/** Sort orders, the spec's six first; `relevance` is an extra that needs `q` (docs/api-list.md). */
export const LIST_SORTS = ['name', 'provider', 'rtp_desc', 'rtp_asc', 'variants_desc', 'recent', 'relevance'] as const;
export const ListSortSchema = z.enum(LIST_SORTS);
export type ListSort = z.output<typeof ListSortSchema>;

export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 200;
export const LIST_LIMIT_DEFAULT = 50;
export const LIST_OFFSET_MAX = 1_000_000;
/** Longest accepted `q` (and any other free-text parameter), in characters. */
export const TEXT_PARAM_MAX = 200;
/** Longest accepted `include` or `fields` value, in characters (every record field named once is under 300). */
export const NAMES_PARAM_MAX = 512;
/** Highest `max_win_min` accepted (a multiple of the stake). */
export const MAX_WIN_PARAM_MAX = 100_000_000;
/** Bounds of the release-year filters. */
export const YEAR_PARAM_MIN = 1000;
export const YEAR_PARAM_MAX = 9999;

/** The list route's answer formats (`format=`): JSON by default, or CSV (the dump's columns). */
export const LIST_FORMATS = ['json', 'csv'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

/** The query actually applied, defaults filled in (meta.query). */
export const ListQuerySchema = z.strictObject({
  q: z.string().min(1).max(TEXT_PARAM_MAX).nullable(),
  provider: z.string().min(1).max(TEXT_PARAM_MAX).nullable(),
  game_type: GameTypeSchema.nullable(),
  has_variants: z.boolean(),
  badge: BadgeSchema.nullable(),
  confidence: ConfidenceSchema.nullable(),
  sort: ListSortSchema,
  limit: z.int().min(LIST_LIMIT_MIN).max(LIST_LIMIT_MAX),
  offset: z.int().min(0).max(LIST_OFFSET_MAX),
  rtp_min: z.number().min(0).max(100).nullable(),
  rtp_max: z.number().min(0).max(100).nullable(),
  /** The levels asked for, in the registry's order, each once; null when not filtered. */
  volatility: z.array(VolatilitySchema).min(1).nullable(),
  max_win_min: z.number().min(0).max(MAX_WIN_PARAM_MAX).nullable(),
  released_after: z.int().min(YEAR_PARAM_MIN).max(YEAR_PARAM_MAX).nullable(),
  released_before: z.int().min(YEAR_PARAM_MIN).max(YEAR_PARAM_MAX).nullable(),
  /** Only games this operator's catalogue lists (an operator key); null when not filtered. */
  operator: z.string().min(1).max(TEXT_PARAM_MAX).nullable(),
  /** Only games observed at this build (by `operator`, or by any operator); null when not filtered. */
  operator_build: OperatorBuildKindSchema.nullable(),
  /** The parts added to each item, each once, in the record's order (`all` spelled out); null: none. */
  include: z.array(ListIncludeSchema).min(1).nullable(),
  /** The only fields of each item, each once, in the record's order; null: the item's own. */
  fields: z.array(RecordFieldSchema).min(1).nullable(),
});
export type ListQuery = z.output<typeof ListQuerySchema>;

/** The query of a request without parameters: every default (meta.query of `GET /api/rtp/list`). */
export const LIST_QUERY_DEFAULTS: ListQuery = {
  q: null,
  provider: null,
  game_type: null,
  has_variants: false,
  badge: null,
  confidence: null,
  sort: 'name',
  limit: LIST_LIMIT_DEFAULT,
  offset: 0,
  rtp_min: null,
  rtp_max: null,
  volatility: null,
  max_win_min: null,
  released_after: null,
  released_before: null,
  operator: null,
  operator_build: null,
  include: null,
  fields: null,
};

export const ListMetaSchema = z.strictObject({
  data_version: z.string(),
  frozen_at: z.string(),
  total: z.int().min(0),
  filtered: z.int().min(0),
  has_more: z.boolean(),
  query: ListQuerySchema,
});
export type ListMeta = z.output<typeof ListMetaSchema>;

export const ProviderFacetSchema = z.strictObject({ provider: z.string(), display: z.string(), count: z.int().min(0) });
export const GameTypeFacetSchema = z.strictObject({ game_type: GameTypeSchema, count: z.int().min(0) });
export const ConfidenceFacetSchema = z.strictObject({ confidence: ConfidenceSchema, count: z.int().min(0) });
export const VolatilityFacetSchema = z.strictObject({ volatility: VolatilitySchema, count: z.int().min(0) });
export const OperatorFacetSchema = z.strictObject({ operator: z.string(), display: z.string(), count: z.int().min(0) });
export const OperatorBuildFacetSchema = z.strictObject({ operator_build: OperatorBuildKindSchema, count: z.int().min(0) });

/** Each facet counts the records matching every filter except its own (docs/api-list.md). */
export const ListFacetsSchema = z.strictObject({
  providers: z.array(ProviderFacetSchema),
  game_types: z.array(GameTypeFacetSchema),
  confidence: z.array(ConfidenceFacetSchema),
  volatilities: z.array(VolatilityFacetSchema),
  /** Games each operator's catalogue lists (with operator_build: at that build), every operator listed. */
  operators: z.array(OperatorFacetSchema),
  /** Games observed at each build (by `operator` when given), every build listed. */
  operator_builds: z.array(OperatorBuildFacetSchema),
});
export type ListFacets = z.output<typeof ListFacetsSchema>;

export const ListResponseSchema = z.strictObject({
  meta: ListMetaSchema,
  facets: ListFacetsSchema,
  /** Default items (no `include=`, no `fields=`). */
  items: z.array(ListItemSchema),
});
export type ListResponse = z.output<typeof ListResponseSchema>;

/**
 * The answer to a query with `include=` or `fields=`: the same meta and facets, each item the
 * record's fields asked for (with `include=all`, the full GameRecord; docs/api-list.md).
 */
export const ListShapedResponseSchema = z.strictObject({
  meta: ListMetaSchema,
  facets: ListFacetsSchema,
  items: z.array(z.union([GameRecordSchema, PartialGameRecordSchema])),
});
export type ListShapedResponse = z.output<typeof ListShapedResponseSchema>;
