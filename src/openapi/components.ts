// The component schemas of the OpenAPI document: the public zod schemas as JSON Schema (draft
// 2020-12, as OpenAPI 3.1 uses), with the field descriptions of fields.ts, and query parameters' schemas.
import { z } from 'zod';
import { BatchResponseSchema } from '../schemas/batch.ts';
import {
  DataPackageSchema,
  DumpMetaSchema,
  RegistryDumpSchema,
  ReleaseChangesSchema,
  ReleaseGameSchema,
  RemovedGameSchema,
  RemovedResponseSchema,
} from '../schemas/dump.ts';
import { ErrorBodySchema } from '../schemas/errors.ts';
import { GameRecordSchema } from '../schemas/game-record.ts';
import { HistoryItemSchema, HistoryQuerySchema, HistoryResponseSchema } from '../schemas/history.ts';
import { IdentifyResponseSchema, KnownFigureSchema } from '../schemas/identify.ts';
import {
  ConfidenceFacetSchema,
  GameTypeFacetSchema,
  ListFacetsSchema,
  ListMetaSchema,
  ListQuerySchema,
  ListResponseSchema,
  ListShapedResponseSchema,
  ProviderFacetSchema,
  VolatilityFacetSchema,
} from '../schemas/list.ts';
import { ListItemSchema, PartialGameRecordSchema } from '../schemas/list-item.ts';
import { OembedResponseSchema } from '../schemas/oembed.ts';
import { OperatorRecordSchema } from '../schemas/operator.ts';
import { ProviderRecordSchema } from '../schemas/provider.ts';
import { RateLimitedBodySchema } from '../schemas/rate-limit.ts';
import { LicenseSchema, ProviderMetaSchema, SlotHistoryEntrySchema, SlotRecordSchema } from '../schemas/slot.ts';
import { SyncRecordSchema, SyncResponseSchema } from '../schemas/sync.ts';
import { WidgetAttributionSchema, WidgetDataSchema, WidgetOperatorSchema } from '../schemas/widget.ts';
import { FIELD_DESCRIPTIONS } from './fields.ts';

/** A JSON object of the document. */
export type Json = Record<string, unknown>;

/** Every component schema, by name, in document order. */
export const COMPONENT_SCHEMAS = {
  GameRecord: GameRecordSchema,
  ListItem: ListItemSchema,
  PartialGameRecord: PartialGameRecordSchema,
  ListQuery: ListQuerySchema,
  ListMeta: ListMetaSchema,
  ProviderFacet: ProviderFacetSchema,
  GameTypeFacet: GameTypeFacetSchema,
  ConfidenceFacet: ConfidenceFacetSchema,
  VolatilityFacet: VolatilityFacetSchema,
  ListFacets: ListFacetsSchema,
  ListResponse: ListResponseSchema,
  ListShapedResponse: ListShapedResponseSchema,
  ProviderMeta: ProviderMetaSchema,
  SlotHistoryEntry: SlotHistoryEntrySchema,
  License: LicenseSchema,
  SlotRecord: SlotRecordSchema,
  WidgetAttribution: WidgetAttributionSchema,
  WidgetData: WidgetDataSchema,
  WidgetOperator: WidgetOperatorSchema,
  ProviderRecord: ProviderRecordSchema,
  OperatorRecord: OperatorRecordSchema,
  HistoryQuery: HistoryQuerySchema,
  HistoryMeta: HistoryResponseSchema.shape.meta,
  HistoryItem: HistoryItemSchema,
  HistoryResponse: HistoryResponseSchema,
  ErrorBody: ErrorBodySchema,
  BatchResponse: BatchResponseSchema,
  SyncRecord: SyncRecordSchema,
  SyncResponse: SyncResponseSchema,
  KnownFigure: KnownFigureSchema,
  IdentifyResponse: IdentifyResponseSchema,
  DumpMeta: DumpMetaSchema,
  RegistryDump: RegistryDumpSchema,
  ReleaseGame: ReleaseGameSchema,
  RemovedGame: RemovedGameSchema,
  ReleaseChanges: ReleaseChangesSchema,
  RemovedResponse: RemovedResponseSchema,
  DataPackage: DataPackageSchema,
  RateLimitedBody: RateLimitedBodySchema,
  OembedResponse: OembedResponseSchema,
} as const;

export type ComponentName = keyof typeof COMPONENT_SCHEMAS;

const SAFE_INT = Number.MAX_SAFE_INTEGER;

/** JSON Schema options shared by components and parameters. */
const JSON_SCHEMA_OPTIONS = {
  target: 'draft-2020-12',
  io: 'output',
  unrepresentable: 'throw',
  // z.int() carries the safe-integer range as bounds; they say nothing to a reader, so drop them.
  override: ({ jsonSchema }: { jsonSchema: Json }) => {
    if (jsonSchema.minimum === -SAFE_INT) delete jsonSchema.minimum;
    if (jsonSchema.maximum === SAFE_INT) delete jsonSchema.maximum;
  },
} as const;

/** The inline object a property holds, directly or as the non-null branch of an `anyOf`. */
function inlineObject(prop: Json): Json | undefined {
  if (prop.type === 'object' && prop.properties !== undefined) return prop;
  const branches = prop.anyOf as Json[] | undefined;
  return branches?.find((b) => b.type === 'object' && b.properties !== undefined);
}

/** Walks a schema's properties (into inline objects, nullable or not, and arrays of them) and yields `path, schema`. */
export function* propertyPaths(schema: Json, prefix = ''): Generator<[string, Json]> {
  const props = schema.properties as Record<string, Json> | undefined;
  if (props === undefined) return;
  for (const [name, prop] of Object.entries(props)) {
    const path = `${prefix}${name}`;
    yield [path, prop];
    const obj = inlineObject(prop);
    if (obj !== undefined) yield* propertyPaths(obj, `${path}.`);
    const items = prop.items as Json | undefined;
    const itemObj = prop.type === 'array' && items !== undefined ? inlineObject(items) : undefined;
    if (itemObj !== undefined) yield* propertyPaths(itemObj, `${path}[].`);
  }
}

function describe(name: string, schema: Json): void {
  const docs = FIELD_DESCRIPTIONS[name] ?? {};
  for (const [path, prop] of propertyPaths(schema)) {
    const text = docs[path];
    if (text !== undefined) prop.description = text;
  }
}

/** The component schemas as JSON Schema (draft 2020-12), cross-references as `#/components/schemas/<Name>`. */
export function componentSchemas(): Record<ComponentName, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENT_SCHEMAS)) registry.add(schema as z.ZodType, { id });
  const out = z.toJSONSchema(registry, { ...JSON_SCHEMA_OPTIONS, uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Json> };
  const result = {} as Record<ComponentName, Json>;
  for (const id of Object.keys(COMPONENT_SCHEMAS) as ComponentName[]) {
    // `$schema` is the document's dialect already, and a `$id` holding a fragment is not allowed in 2020-12.
    const { $schema: _s, $id: _i, ...schema } = out.schemas[id]!;
    describe(id, schema);
    result[id] = schema;
  }
  return result;
}

/** An optional query parameter of an operation. */
export function queryParam(name: string, description: string, schema: Json, example?: unknown): Json {
  return { name, in: 'query', required: false, description, schema, ...(example === undefined ? {} : { example }) };
}

/** JSON Schema of one query parameter, from the (non-null part of the) zod schema of its echoed value. */
export function paramSchema(schema: z.ZodType): Json {
  const inner = schema instanceof z.ZodNullable ? (schema.unwrap() as z.ZodType) : schema;
  const { $schema: _s, ...json } = z.toJSONSchema(inner, JSON_SCHEMA_OPTIONS) as Json;
  return json;
}
