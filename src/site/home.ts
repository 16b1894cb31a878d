// The home page's pre-rendered first page of results: the list route's default query (sort name,
// limit 50) answered by the list module itself, so the page and GET /api/rtp/list agree byte for byte.
import type { RegistryBundle } from '../registry/bundle.ts';
import { decodeCompiled } from '../list/compiled-file.ts';
import type { CompiledList } from '../list/compile.ts';
import { createMemoryEngine } from '../list/memory-engine.ts';
import { listBody } from '../list/list.ts';
import { parseListQuery } from '../list/query.ts';
import { ListResponseSchema, type ListResponse } from '../schemas/list.ts';

/**
 * The list route's response for `query` (a query string such as `limit=50`) over a bundle, validated
 * against the public schema. Throws when the query is invalid.
 */
export function listResponse(bundle: RegistryBundle | CompiledList, query: string): ListResponse {
  const parsed = parseListQuery(query);
  if (!parsed.ok) throw new Error(`invalid list query "${query}": ${parsed.errors.map((e) => `${e.param} ${e.message}`).join('; ')}`);
  const engine = createMemoryEngine(bundle);
  const body = listBody(engine, parsed.query, engine.run(parsed.query));
  return ListResponseSchema.parse(JSON.parse(body.toString('utf8')));
}

/**
 * The default query's first page (what GET /api/rtp/list answers without parameters, `limit` pages),
 * from the list bundle's bytes when the build shares them (no second compile of the list), else
 * compiled from the bundle.
 */
export async function firstPage(bundle: RegistryBundle, limit: number, listBundle?: Promise<Uint8Array>): Promise<ListResponse> {
  if (listBundle === undefined) return listResponse(bundle, `limit=${limit}`);
  const bytes = await listBundle;
  const { compiled } = decodeCompiled(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (compiled.searchIndex === undefined) throw new Error('the shared list bundle holds no search index');
  return listResponse({ ...compiled, searchIndex: compiled.searchIndex }, `limit=${limit}`);
}

/** What the registry holds, for the home page (the same figures as docs/DATA.md). */
export interface RegistryCounts {
  games: number;
  providers: number;
  /** Games with the `verified_rtp` badge. */
  verified: number;
  /** Games whose sources state different figures. */
  disagree: number;
  /** Games with a source on the provider's own page. */
  providerPage: number;
}

export function registryCounts(bundle: RegistryBundle): RegistryCounts {
  const records = bundle.records;
  return {
    games: records.length,
    providers: new Set(records.map((r) => r.provider)).size,
    verified: records.filter((r) => r.badges.includes('verified_rtp')).length,
    disagree: records.filter((r) => r.badges.includes('sources_disagree')).length,
    providerPage: records.filter((r) => r.sources.some((s) => s.kind === 'provider')).length,
  };
}
