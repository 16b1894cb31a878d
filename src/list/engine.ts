// The list engine contract: what the response shaping needs from whatever evaluates a list query.
// The in-memory engine (memory-engine.ts) builds everything from the registry bundle at start; a
// faster engine can replace it behind this interface without changing a byte of the responses.
import type { ListQuery } from '../schemas/list.ts';

/** The evaluated query: how many records match, the page (record indexes, in order), and the facets. */
export interface ListResult {
  readonly filtered: number;
  readonly items: ArrayLike<number>;
  /** Writes the facets' JSON (exactly `JSON.stringify(facets)`) into `target` at `at`; returns the end. */
  writeFacets(target: Uint8Array, at: number): number;
  /** An upper bound on the bytes `writeFacets` writes. */
  readonly maxFacetsBytes: number;
}

/** A ListResult whose facets are written straight into the response (the route never builds the object). */
export class EvaluatedList implements ListResult {
  readonly filtered: number;
  readonly items: ArrayLike<number>;
  readonly writeFacets: (target: Uint8Array, at: number) => number;
  readonly maxFacetsBytes: number;

  constructor(filtered: number, items: ArrayLike<number>, writeFacets: (target: Uint8Array, at: number) => number, maxFacetsBytes: number) {
    this.filtered = filtered;
    this.items = items;
    this.writeFacets = writeFacets;
    this.maxFacetsBytes = maxFacetsBytes;
  }
}

export interface ListEngine {
  readonly dataVersion: string;
  readonly frozenAt: string;
  /** Records in the whole registry. */
  readonly total: number;
  /**
   * Identifies everything besides the query that a response's bytes depend on (the records'
   * bytes, data version, freeze time, providers): with the normalised query it names one body.
   */
  readonly contentId: string;
  /** Evaluates a validated, normalised query. */
  run(query: ListQuery): ListResult;
  /** The length in bytes of record `index`'s JSON (exactly `JSON.stringify` of the public record). */
  recordLength(index: number): number;
  /** Copies record `index`'s JSON into `target` at `at`; returns the position after it. */
  copyRecord(index: number, target: Uint8Array, at: number): number;
  /** The length in bytes of record `index`'s default list item (src/schemas/list-item.ts `listItemOf`, as JSON). */
  itemLength(index: number): number;
  /** Copies record `index`'s default list item into `target` at `at`; returns the position after it. */
  copyItem(index: number, target: Uint8Array, at: number): number;
  /** The record index of a canonical slug, or -1 when the registry has no such game. */
  indexOfSlug(slug: string): number;
}
