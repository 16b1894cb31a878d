// Compiles the registry bundle into the list engine's columns: pre-encoded records, filter columns
// and sort permutations (src/schemas/list-bundle.ts ListBundle, without the search index).
import { createHash } from 'node:crypto';
import type { RegistryBundle } from '../../registry/bundle.ts';
import type { ProviderFile } from '../../schemas/authoring.ts';
import { GAME_TYPES } from '../../schemas/authoring.ts';
import { type GameRecord, OPERATOR_BUILDS } from '../../schemas/game-record.ts';
import { badgeBit, confidenceIndex, type ListBundle, MAX_LIST_OPERATORS, operatorBit, type StaticSort, volatilityIndex } from '../../schemas/list-bundle.ts';
import { listItemOf } from '../../schemas/list-item.ts';
import type { SearchDocument } from '../../schemas/search-index.ts';
import { compareStrings, fold } from '../../schemas/text.ts';

/** What `compileColumns` makes: the list bundle but its search index, meta, history and source. */
export type CompiledColumns = Omit<ListBundle, 'searchIndex' | 'meta' | 'history' | 'source'>;

/**
 * SHA-256 (hex) of the record offsets (as stored, little-endian), the record bytes, then the item
 * offsets and item bytes.
 */
export function digestRecords(offsets: Uint32Array, recordBytes: Uint8Array, itemOffsets: Uint32Array, itemBytes: Uint8Array): string {
  return createHash('sha256')
    .update(new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength))
    .update(recordBytes)
    .update(new Uint8Array(itemOffsets.buffer, itemOffsets.byteOffset, itemOffsets.byteLength))
    .update(itemBytes)
    .digest('hex');
}

/** JSON texts laid end to end: their offsets (n + 1) and bytes, in one owned buffer each. */
function packTexts(texts: readonly string[]): { offsets: Uint32Array; bytes: Uint8Array } {
  const n = texts.length;
  const encoded = texts.map((t) => Buffer.from(t));
  const offsets = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + encoded[i]!.length;
  // A Uint8Array owns its ArrayBuffer (unlike a pooled Buffer), so it can be transferred between threads.
  const bytes = new Uint8Array(offsets[n]!);
  for (let i = 0; i < n; i++) bytes.set(encoded[i]!, offsets[i]!);
  return { offsets, bytes };
}

function permutation(n: number, compare: (a: number, b: number) => number): Int32Array {
  const idx = Array.from({ length: n }, (_, i) => i);
  idx.sort(compare);
  return Int32Array.from(idx);
}

/** The bundle's records in slug order: record index i everywhere below. */
export function sortedRecords(bundle: RegistryBundle): GameRecord[] {
  return [...bundle.records].sort((a, b) => compareStrings(a.canonical_slug, b.canonical_slug));
}

/**
 * What the search index holds per record (id = record index): its name, slug, provider key and
 * display name, and the provider's group and source labels (`providers`, the registry's provider
 * files), and the studio that made the game where the record names one.
 */
export function searchDocuments(
  records: readonly GameRecord[],
  providers: ReadonlyArray<Pick<ProviderFile, 'provider' | 'display' | 'group' | 'aliases'>> = [],
): SearchDocument[] {
  const also = new Map(
    providers.map((p) => [p.provider, [...new Set([p.group ?? '', ...(p.aliases ?? [])])].filter((t) => t !== '' && t !== p.display).join(' ')]),
  );
  return records.map((r, id) => {
    const more = [also.get(r.provider) ?? '', r.studio ?? ''].filter((t) => t !== '').join(' ');
    return more === ''
      ? { id, name: r.canonical_name, slug: r.canonical_slug, provider: r.provider, display: r.provider_display }
      : { id, name: r.canonical_name, slug: r.canonical_slug, provider: r.provider, display: r.provider_display, also: more };
  });
}

/**
 * Compiles everything but the search index; `records` must be `sortedRecords(bundle)`. Orders (all total, ties finally by slug):
 * - name: canonical_name folded (text.ts `fold`), compared by UTF-16 code unit;
 * - provider: provider_display folded, then name;
 * - rtp_desc / rtp_asc: stated_rtp, then name;
 * - variants_desc: variants_count descending, then name;
 * - recent: release_year descending (unknown years last), then last_verified descending, then name.
 */
export function compileColumns(bundle: RegistryBundle, records: readonly GameRecord[] = sortedRecords(bundle)): CompiledColumns {
  const n = records.length;

  const { offsets, bytes: recordBytes } = packTexts(records.map((r) => JSON.stringify(r)));
  // The default list item of each record, made here so a default page is a byte copy.
  const { offsets: itemOffsets, bytes: itemBytes } = packTexts(records.map((r) => JSON.stringify(listItemOf(r))));
  const recordsDigest = digestRecords(offsets, recordBytes, itemOffsets, itemBytes);

  // Providers: the bundle's, plus any a record names without a provider file (not expected).
  const displayOf = new Map<string, string>(bundle.providers.map((p) => [p.provider, p.display]));
  for (const r of records) if (!displayOf.has(r.provider)) displayOf.set(r.provider, r.provider_display);
  const providerKeys = [...displayOf.keys()].sort(compareStrings);
  const providerIndex = new Map(providerKeys.map((k, i) => [k, i]));
  const providerDisplay = providerKeys.map((k) => displayOf.get(k)!);
  const typeIndex = new Map<string, number>(GAME_TYPES.map((t, i) => [t, i]));

  const providerOf = new Int32Array(n);
  const typeOf = new Uint8Array(n);
  const multi = new Uint8Array(n);
  const badges = new Uint8Array(n);
  const confidence = new Uint8Array(n);
  const volatilityOf = new Uint8Array(n);
  const maxWin = new Float64Array(n);
  // Operators: the bundle's, by key (each a column of three build bits).
  const operatorKeys = bundle.operators.map((o) => o.operator).sort(compareStrings);
  if (operatorKeys.length > MAX_LIST_OPERATORS)
    throw new Error(`the list bundle indexes at most ${MAX_LIST_OPERATORS} operators; data/operators/ holds ${operatorKeys.length}`);
  const operatorIndex = new Map(operatorKeys.map((k, i) => [k, i]));
  const operatorDisplay = operatorKeys.map((k) => bundle.operators.find((o) => o.operator === k)!.display);
  const operatorBuilds = new Uint32Array(n);
  const yearOf = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const r = records[i]!;
    providerOf[i] = providerIndex.get(r.provider)!;
    typeOf[i] = typeIndex.get(r.game_type)!;
    multi[i] = r.variants_count > 1 ? 1 : 0;
    for (const b of r.badges) badges[i] = badges[i]! | badgeBit(b);
    confidence[i] = confidenceIndex(r.confidence);
    volatilityOf[i] = volatilityIndex(r.volatility);
    maxWin[i] = r.max_win ?? Number.NaN;
    yearOf[i] = r.release_year ?? 0;
    for (const o of r.operators) {
      const k = operatorIndex.get(o.operator);
      if (k !== undefined) operatorBuilds[i] = operatorBuilds[i]! | operatorBit(k, OPERATOR_BUILDS.indexOf(o.build));
    }
  }

  const nameKey = records.map((r) => fold(r.canonical_name));
  const nameOrder = permutation(n, (a, b) => compareStrings(nameKey[a]!, nameKey[b]!) || a - b);
  const nameRank = new Int32Array(n);
  for (let k = 0; k < n; k++) nameRank[nameOrder[k]!] = k;
  const displayKeys = providerDisplay.map(fold);
  const distinctDisplays = [...new Set(displayKeys)].sort(compareStrings);
  const displayRank = Int32Array.from(displayKeys, (k) => distinctDisplays.indexOf(k));
  const rtp = Float64Array.from(records, (r) => r.stated_rtp);
  const variants = Int32Array.from(records, (r) => r.variants_count);
  const year = Float64Array.from(records, (r) => r.release_year ?? Number.NEGATIVE_INFINITY);
  const verified = Float64Array.from(records, (r) => Date.parse(r.last_verified));
  const byName = (a: number, b: number) => nameRank[a]! - nameRank[b]!;
  const orders: Record<StaticSort, Int32Array> = {
    name: nameOrder,
    provider: permutation(n, (a, b) => displayRank[providerOf[a]!]! - displayRank[providerOf[b]!]! || byName(a, b)),
    rtp_desc: permutation(n, (a, b) => rtp[b]! - rtp[a]! || byName(a, b)),
    rtp_asc: permutation(n, (a, b) => rtp[a]! - rtp[b]! || byName(a, b)),
    variants_desc: permutation(n, (a, b) => variants[b]! - variants[a]! || byName(a, b)),
    recent: permutation(n, (a, b) => {
      const ya = year[a]!;
      const yb = year[b]!;
      if (ya !== yb) return ya > yb ? -1 : 1;
      return verified[b]! - verified[a]! || byName(a, b);
    }),
  };

  return {
    dataVersion: bundle.meta.data_version,
    frozenAt: bundle.meta.frozen_at,
    total: n,
    recordBytes,
    offsets,
    itemBytes,
    itemOffsets,
    recordsDigest,
    providerKeys,
    providerDisplay,
    providerOf,
    typeOf,
    multi,
    badges,
    confidence,
    volatilityOf,
    operatorKeys,
    operatorDisplay,
    operatorBuilds,
    rtp,
    maxWin,
    year: yearOf,
    orders,
  };
}
