// The list engine contract: what the response shaping needs from whatever evaluates a list query.
// The in-memory engine (memory-engine.ts) builds everything from the registry bundle at start; a
// faster engine can replace it behind this interface without changing a byte of the responses.
import type { ListFacets, ListQuery } from '../schemas/list.ts';

/** The evaluated query: how many records match, the page (record indexes, in order), and the facets. */
export interface ListResult {
  filtered: number;
  items: ArrayLike<number>;
  facets: ListFacets;
}

export interface ListEngine {
  readonly dataVersion: string;
  readonly frozenAt: string;
  /** Records in the whole registry. */
  readonly total: number;
  /** Evaluates a validated, normalised query. */
  run(query: ListQuery): ListResult;
  /** The JSON bytes of record `index`, exactly `JSON.stringify` of the public record. */
  recordJson(index: number): Uint8Array;
}
