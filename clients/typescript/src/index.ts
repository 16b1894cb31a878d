// Typed client of the RTP Registry API: openapi-fetch over the types openapi-typescript generated
// from the registry's OpenAPI document (src/schema.ts), with one call per use (list, record,
// identify, batch, delta) and pagination helpers that follow `offset` until `has_more` is false.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

type Schemas = components['schemas'];
export type GameRecord = Schemas['GameRecord'];
export type SlotRecord = Schemas['SlotRecord'];
export type ListItem = Schemas['ListItem'];
export type PartialGameRecord = Schemas['PartialGameRecord'];
export type ListResponse = Schemas['ListResponse'];
/** A list page asked for with `include` or `fields`: its items the parts or fields asked for. */
export type ListShapedResponse = Schemas['ListShapedResponse'];
export type BatchResponse = Schemas['BatchResponse'];
export type SyncResponse = Schemas['SyncResponse'];
export type SyncRecord = Schemas['SyncRecord'];
export type IdentifyResponse = Schemas['IdentifyResponse'];
export type OperatorRecord = Schemas['OperatorRecord'];
export type ErrorBody = Schemas['ErrorBody'];

type ListParams = NonNullable<operations['listGames']['parameters']['query']>;
/** Names for `include` or `fields`: a list (joined with commas) or the parameter's text. */
type Names = string | readonly string[];
/**
 * The list route's search, filter, sort and paging parameters; `include` (parts added to each item)
 * and `fields` (the only fields of each item) as lists of names or comma-separated text.
 */
export type ListQuery = Omit<ListParams, 'slugs' | 'updated_since' | 'include' | 'fields'> & { include?: Names; fields?: Names };
/** A list query without `include` and `fields`: its items are ListItems. */
export type DefaultListQuery = Omit<ListQuery, 'include' | 'fields'> & { include?: undefined; fields?: undefined };
/** A list query asking for another item shape. */
export type ShapedListQuery = ListQuery & ({ include: Names } | { fields: Names });

const names = (v: Names | undefined) => (v === undefined || typeof v === 'string' ? v : v.join(','));
/** The identify route's parameters: `slug` or `name`, and the observed `rtp` (a number is sent as is). */
export type IdentifyQuery = Omit<NonNullable<operations['identifyBuild']['parameters']['query']>, 'rtp'> & { rtp: string | number };

/** Largest page the list route serves, and the most slugs one batch lookup takes. */
export const PAGE_MAX = 200;

/** A non-2xx answer: its status and the registry's JSON error body (`statusMessage`, and `errors` naming each bad parameter on a 400). */
export class RegistryError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    const b = body as Partial<ErrorBody> | undefined;
    const detail = Array.isArray(b?.errors) ? `: ${b.errors.map((e) => `${e.param} ${e.message}`).join('; ')}` : '';
    super(`RTP Registry answered ${status}${typeof b?.statusMessage === 'string' ? ` (${b.statusMessage})` : ''}${detail}`);
    this.name = 'RegistryError';
    this.status = status;
    this.body = body;
  }
}

export interface RegistryClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The registry's address, e.g. `https://rtp.example.org` (no trailing path needed). */
  baseUrl: string;
  /** An API key of the Pro tier, sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
}

/** The data of an openapi-fetch result, or a RegistryError. */
function unwrap<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.data === undefined) throw new RegistryError(r.response.status, r.error);
  return r.data;
}

/** A typed client of the registry: the calls below, and `raw` (openapi-fetch) for every other route. */
export function createRegistryClient(options: RegistryClientOptions) {
  const { baseUrl, apiKey, headers, ...rest } = options;
  const raw: Client<paths> = createClient<paths>({
    ...rest,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(headers as Record<string, string> | undefined), ...(apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` }) },
  });

  const listRoute = async (query: ListParams) => unwrap(await raw.GET('/api/rtp/list', { params: { query } }));

  /**
   * One page of search results with totals and facets (GET /api/rtp/list): ListItems, or with
   * `include` / `fields` the parts or fields asked for (`include: ['all']` for full records).
   */
  async function list(query?: DefaultListQuery): Promise<ListResponse>;
  async function list(query: ShapedListQuery): Promise<ListShapedResponse>;
  async function list(query?: ListQuery): Promise<ListResponse | ListShapedResponse>;
  async function list(query: ListQuery = {}): Promise<ListResponse | ListShapedResponse> {
    const { include, fields, ...rest } = query;
    // Without `slugs` and `updated_since` the route answers a ListResponse or ListShapedResponse (the other two shapes need them).
    return (await listRoute({ ...rest, include: names(include), fields: names(fields) })) as ListResponse | ListShapedResponse;
  }

  /** Every page of a search, one after another, until `has_more` is false. */
  function pages(query?: DefaultListQuery): AsyncGenerator<ListResponse>;
  function pages(query: ShapedListQuery): AsyncGenerator<ListShapedResponse>;
  function pages(query?: ListQuery): AsyncGenerator<ListResponse | ListShapedResponse>;
  async function* pages(query: ListQuery = {}): AsyncGenerator<ListResponse | ListShapedResponse> {
    const limit = query.limit ?? PAGE_MAX;
    for (let offset = query.offset ?? 0; ; offset += limit) {
      const page = await list({ ...query, limit, offset });
      yield page;
      if (!page.meta.has_more) return;
    }
  }

  /** Every item a search matches, page after page (ListItems, or the shape `include` / `fields` ask for). */
  function items(query?: DefaultListQuery): AsyncGenerator<ListItem>;
  function items(query: ShapedListQuery): AsyncGenerator<PartialGameRecord>;
  function items(query?: ListQuery): AsyncGenerator<ListItem | PartialGameRecord>;
  async function* items(query: ListQuery = {}): AsyncGenerator<ListItem | PartialGameRecord> {
    for await (const page of pages(query)) yield* page.items;
  }

  /** Up to PAGE_MAX games' records in the order given; unknown slugs in `meta.missing` (GET /api/rtp/list?slugs=). */
  async function batch(slugs: readonly string[]): Promise<BatchResponse> {
    if (slugs.length === 0 || slugs.length > PAGE_MAX) throw new RangeError(`batch takes 1 to ${PAGE_MAX} slugs (got ${slugs.length}); use batchAll for more`);
    return (await listRoute({ slugs: slugs.join(',') })) as BatchResponse;
  }

  /** Any number of games' records, PAGE_MAX per request, in the order given; `missing` gathers every unknown slug. */
  async function batchAll(slugs: readonly string[]): Promise<{ items: GameRecord[]; missing: string[] }> {
    const out = { items: [] as GameRecord[], missing: [] as string[] };
    for (let k = 0; k < slugs.length; k += PAGE_MAX) {
      const r = await batch(slugs.slice(k, k + PAGE_MAX));
      out.items.push(...r.items);
      out.missing.push(...r.meta.missing);
    }
    return out;
  }

  /** One page of the records whose figures changed after `since` (GET /api/rtp/list?updated_since=). */
  async function delta(since: string | Date, page: { limit?: number; offset?: number } = {}): Promise<SyncResponse> {
    const updated_since = since instanceof Date ? since.toISOString() : since;
    return (await listRoute({ updated_since, ...page })) as SyncResponse;
  }

  /** Every record changed after `since`, oldest change first, page after page. */
  async function* deltaItems(since: string | Date, limit = PAGE_MAX): AsyncGenerator<SyncRecord> {
    for (let offset = 0; ; offset += limit) {
      const page = await delta(since, { limit, offset });
      yield* page.items;
      if (!page.meta.has_more) return;
    }
  }

  /** One game's single-slot record (GET /api/rtp/{slug}). */
  async function record(slug: string): Promise<SlotRecord> {
    return unwrap(await raw.GET('/api/rtp/{slug}', { params: { path: { slug } } }));
  }

  /** Which builds a licensed casino's catalogue showed, game by game (GET /api/rtp/operator/{operator}). */
  async function operator(key: string): Promise<OperatorRecord> {
    return unwrap(await raw.GET('/api/rtp/operator/{operator}', { params: { path: { operator: key } } }));
  }

  /** Which build an observed RTP is (GET /api/rtp/identify). */
  async function identify(query: IdentifyQuery): Promise<IdentifyResponse> {
    return unwrap(await raw.GET('/api/rtp/identify', { params: { query: { ...query, rtp: String(query.rtp) } } }));
  }

  return { raw, list, pages, items, batch, batchAll, delta, deltaItems, record, operator, identify };
}

export type RegistryClient = ReturnType<typeof createRegistryClient>;
