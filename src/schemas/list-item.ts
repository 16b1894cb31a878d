// The list route's item shapes: the lean default item, the parts `include=` adds and the fields
// `fields=` may name (docs/api-list.md, "Item shape"), and how a full record is cut to each.
import { z } from 'zod';
import { type GameRecord, GameRecordSchema } from './game-record.ts';

/** A field of the full public game record, in the record's (schema) order. */
export type RecordField = keyof GameRecord;

/** Every field of the full record, in its order: what `fields=` may name. */
export const RECORD_FIELDS = Object.keys(GameRecordSchema.shape) as RecordField[];
/** A name `fields=` accepts. */
export const RecordFieldSchema = z.enum(RECORD_FIELDS as [RecordField, ...RecordField[]]);

/**
 * The default list item: the spec's game-record fields (`canonical_slug` … `badges`) and
 * `confidence`, the one-word evidence summary a result line shows (docs/api-list.md says why each
 * other field stays out).
 */
export const LIST_ITEM_FIELDS = [
  'canonical_slug',
  'canonical_name',
  'provider',
  'provider_display',
  'stated_rtp',
  'rtp_variants',
  'rtp_min',
  'rtp_max',
  'variants_count',
  'volatility',
  'max_win',
  'release_year',
  'game_type',
  'last_verified',
  'snapshot_id',
  'source_url',
  'badges',
  'confidence',
] as const satisfies readonly RecordField[];

/** The record's parts a list item leaves out, which `include=` adds by name (`all`: every one). */
export const LIST_INCLUDES = RECORD_FIELDS.filter((f) => !(LIST_ITEM_FIELDS as readonly string[]).includes(f)) as Array<
  Exclude<RecordField, (typeof LIST_ITEM_FIELDS)[number]>
>;
export type ListInclude = (typeof LIST_INCLUDES)[number];
/** A part `include=` names (as echoed: `all` spelled out). */
export const ListIncludeSchema = z.enum(LIST_INCLUDES as [ListInclude, ...ListInclude[]]);
/** The `include=` name that stands for every part. */
export const INCLUDE_ALL = 'all';

/** The default list item (no `include=`, no `fields=`). */
export const ListItemSchema = GameRecordSchema.pick(
  Object.fromEntries(LIST_ITEM_FIELDS.map((f) => [f, true])) as { [K in (typeof LIST_ITEM_FIELDS)[number]]: true },
);
export type ListItem = z.output<typeof ListItemSchema>;

/** An item with `include=` or `fields=`: the record's fields asked for, the others absent. */
export const PartialGameRecordSchema = GameRecordSchema.partial();
export type PartialGameRecord = z.output<typeof PartialGameRecordSchema>;

/** A record's fields among `fields`, in the record's order: `JSON.stringify` of it is the item. */
export function pickFields(record: GameRecord, fields: readonly RecordField[]): PartialGameRecord {
  const out: Record<string, unknown> = {};
  for (const f of RECORD_FIELDS) if (fields.includes(f)) out[f] = record[f];
  return out as PartialGameRecord;
}

/** The default list item of a record. */
export function listItemOf(record: GameRecord): ListItem {
  return pickFields(record, LIST_ITEM_FIELDS) as ListItem;
}

/**
 * The fields of a list item given the query's `include` and `fields` (normalised: each once, in
 * record order), or null for the default item.
 */
export function itemFields(query: { include: readonly ListInclude[] | null; fields: readonly RecordField[] | null }): readonly RecordField[] | null {
  if (query.fields !== null) return query.fields;
  if (query.include === null) return null;
  return RECORD_FIELDS.filter((f) => (LIST_ITEM_FIELDS as readonly string[]).includes(f) || (query.include as readonly string[]).includes(f));
}
