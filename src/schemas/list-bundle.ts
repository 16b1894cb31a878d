// The list bundle, dist/server/list-bundle.bin: the one index format between the build, which
// compiles it (src/emit/list/), and the list engine, which answers queries from it (src/list/).
// Records and default list items pre-encoded, filter columns, sort permutations and the search index, with the
// registry's meta and history, in one file read with zero-copy typed-array views.
//
// Layout: "RTPL" magic, uint32 LE header length, the JSON header (ListBundleHeaderSchema), then each
// section at an 8-byte aligned offset (offsets in the header count from the start of the file).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type HistoryEntrySchema, RegistryFileSchema, VOLATILITIES, type Volatility } from './authoring.ts';
import { BADGES, type Badge, CONFIDENCE_LEVELS, type Confidence, OPERATOR_BUILDS } from './game-record.ts';
import type { ListSort } from './list.ts';
import { SEARCH_FIELDS, SearchIndexHeadSchema } from './search-index.ts';

/** The orders with a precomputed permutation (relevance depends on `q` and comes from the search). */
export type StaticSort = Exclude<ListSort, 'relevance'>;
export const STATIC_SORTS: readonly StaticSort[] = ['name', 'provider', 'rtp_desc', 'rtp_asc', 'variants_desc', 'recent'];

/** The bit of a badge in the `badges` column (BADGES order). */
export function badgeBit(badge: Badge): number {
  return 1 << BADGES.indexOf(badge);
}

/** Operators the list bundle can index: three build bits each in a 32-bit column. */
export const MAX_LIST_OPERATORS = 10;

/** The bit of operator `k` (its index in operatorKeys) observed at `build` (an index into OPERATOR_BUILDS) in the `operatorBuilds` column. */
export function operatorBit(k: number, build: number): number {
  return 2 ** (k * OPERATOR_BUILDS.length + build);
}

/** The index of a confidence level in the `confidence` column (CONFIDENCE_LEVELS order). */
export function confidenceIndex(level: Confidence): number {
  return CONFIDENCE_LEVELS.indexOf(level);
}

/** The `volatilityOf` value of a volatility level, or of an unknown one (null). */
export function volatilityIndex(level: Volatility | null): number {
  return level === null ? VOLATILITIES.length : VOLATILITIES.indexOf(level);
}

/**
 * The search index (src/emit/list/search-index.ts builds it, src/list/search.ts reads it): its head
 * as JSON (SearchIndexHeadSchema: the statistics scoring needs), per word and field the records
 * that hold it with how often, each record's field lengths, and the words as a trie, all typed
 * arrays. F is SEARCH_FIELDS.length; records are named by their index, words by their term number.
 */
export interface PackedSearchIndex {
  /** JSON of a SearchIndexHead. */
  head: string;
  /** Posting range of term t, field f: postingStart[t * F + f] .. postingStart[t * F + f + 1]. */
  postingStart: Uint32Array;
  /** Record indexes, ascending within each range. */
  postingIds: Int32Array;
  /** How often the term occurs in that record's field. */
  postingFreqs: Uint32Array;
  /** Distinct terms of each record's fields: record r, field f at fieldLength[r * F + f]. */
  fieldLength: Uint32Array;
  /** The words' trie (src/list/term-trie.ts), nodes in depth-first order, children by code unit, node 0 the root: each node's code unit. */
  trieChar: Uint16Array;
  /** Each node's subtree end: node i's subtree is i .. trieEnd[i] - 1. */
  trieEnd: Int32Array;
  /** The term number of the word each node ends, or -1. */
  trieTerm: Int32Array;
}

/** Identifies the registry bundle file a list bundle was compiled from. */
export const ListBundleSourceSchema = z.strictObject({
  /** SHA-256 (hex) of the registry bundle file's bytes. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Its size in bytes (checked at start, where hashing 40 MB would cost more than the load). */
  bytes: z.int().min(0),
});
export type ListBundleSource = z.output<typeof ListBundleSourceSchema>;

/** Everything of a list bundle; the typed arrays are views into the file when decoded. */
export interface ListBundle {
  dataVersion: string;
  frozenAt: string;
  /** Records, in slug order; record i is bytes offsets[i]..offsets[i+1] of recordBytes. */
  total: number;
  recordBytes: Uint8Array;
  offsets: Uint32Array;
  /** Each record's default list item (src/schemas/list-item.ts): item i is bytes itemOffsets[i]..itemOffsets[i+1] of itemBytes. */
  itemBytes: Uint8Array;
  itemOffsets: Uint32Array;
  /** SHA-256 (hex) of `offsets`, `recordBytes`, `itemOffsets` and `itemBytes`: names the records' and items' exact bytes. */
  recordsDigest: string;
  /** Provider keys ascending, with their display names; providerOf[i] indexes them. */
  providerKeys: string[];
  providerDisplay: string[];
  providerOf: Int32Array;
  /** Index into GAME_TYPES. */
  typeOf: Uint8Array;
  /** 1 when the record has more than one RTP variant. */
  multi: Uint8Array;
  /** Per record, bit k set when it carries BADGES[k] (`badgeBit`). */
  badges: Uint8Array;
  /** Per record, the index of its confidence level in CONFIDENCE_LEVELS (`confidenceIndex`). */
  confidence: Uint8Array;
  /** Index into VOLATILITIES, or VOLATILITIES.length when unknown (`volatilityIndex`). */
  volatilityOf: Uint8Array;
  /** Operator keys ascending, with their display names; bit `operatorBit(k, build)` of operatorBuilds indexes them. */
  operatorKeys: string[];
  operatorDisplay: string[];
  /** Per record, the builds each operator was observed at (`operatorBit`). */
  operatorBuilds: Uint32Array;
  /** stated_rtp. */
  rtp: Float64Array;
  /** max_win (a multiple of the stake), NaN when unknown. */
  maxWin: Float64Array;
  /** release_year, 0 when unknown. */
  year: Uint16Array;
  /** Record indexes in each order. */
  orders: Record<StaticSort, Int32Array>;
  searchIndex: PackedSearchIndex;
  meta: z.output<typeof RegistryFileSchema>;
  history: Array<z.output<typeof HistoryEntrySchema>>;
  source: ListBundleSource;
}

const MAGIC = 'RTPL';
const PACKED_PARTS = ['head', 'postingStart', 'postingIds', 'postingFreqs', 'fieldLength', 'trieChar', 'trieEnd', 'trieTerm'] as const;
const SECTIONS = [
  'offsets',
  'providerOf',
  'typeOf',
  'multi',
  'badges',
  'confidence',
  'volatilityOf',
  'operatorBuilds',
  'rtp',
  'maxWin',
  'year',
  ...STATIC_SORTS.map((s) => `order_${s}` as const),
  'recordBytes',
  'itemOffsets',
  'itemBytes',
  ...PACKED_PARTS.map((p) => `search_${p}` as const),
] as const;
type SectionName = (typeof SECTIONS)[number];

const SectionSchema = z.strictObject({ offset: z.int().min(8), length: z.int().min(0) });

/** The JSON header of a list bundle file. */
export const ListBundleHeaderSchema = z.strictObject({
  format: z.string(),
  dataVersion: z.string(),
  frozenAt: z.string(),
  total: z.int().min(0),
  recordsDigest: z.string(),
  providerKeys: z.array(z.string()),
  providerDisplay: z.array(z.string()),
  operatorKeys: z.array(z.string()).max(MAX_LIST_OPERATORS),
  operatorDisplay: z.array(z.string()),
  meta: RegistryFileSchema,
  // Each entry was validated against HistoryEntrySchema when the build wrote it (and dist-check
  // reads it again); at start only the array is checked: thousands of entries would cost the
  // server tens of milliseconds of its start-up.
  history: z.array(z.unknown()),
  source: ListBundleSourceSchema,
  sections: z.strictObject(Object.fromEntries(SECTIONS.map((s) => [s, SectionSchema])) as Record<SectionName, typeof SectionSchema>),
});

/**
 * The layout's version: derived from the section list, the header's JSON Schema and the search
 * index's (its head's schema and field order), so any change to them makes older files "another
 * format" (rebuild) without a number to bump by hand.
 */
export const LIST_BUNDLE_FORMAT = createHash('sha256')
  .update(JSON.stringify([MAGIC, SECTIONS, z.toJSONSchema(ListBundleHeaderSchema), z.toJSONSchema(SearchIndexHeadSchema), SEARCH_FIELDS]))
  .digest('hex')
  .slice(0, 16);

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function sectionBytes(b: ListBundle): Array<[SectionName, Uint8Array]> {
  const s = b.searchIndex;
  return [
    ['offsets', bytesOf(b.offsets)],
    ['providerOf', bytesOf(b.providerOf)],
    ['typeOf', b.typeOf],
    ['multi', b.multi],
    ['badges', b.badges],
    ['confidence', b.confidence],
    ['volatilityOf', b.volatilityOf],
    ['operatorBuilds', bytesOf(b.operatorBuilds)],
    ['rtp', bytesOf(b.rtp)],
    ['maxWin', bytesOf(b.maxWin)],
    ['year', bytesOf(b.year)],
    ...STATIC_SORTS.map((o): [SectionName, Uint8Array] => [`order_${o}`, bytesOf(b.orders[o])]),
    ['recordBytes', b.recordBytes],
    ['itemOffsets', bytesOf(b.itemOffsets)],
    ['itemBytes', b.itemBytes],
    ['search_head', Buffer.from(s.head, 'utf8')],
    ...PACKED_PARTS.slice(1).map((p): [SectionName, Uint8Array] => [`search_${p}`, bytesOf(s[p] as ArrayBufferView)]),
  ];
}

const align8 = (n: number) => n + ((8 - (n % 8)) % 8);

/** The file's bytes as chunks, in order (write them with FileHandle.writev). Deterministic. */
export function encodeListBundle(b: ListBundle): Uint8Array[] {
  const sections = sectionBytes(b);
  // The header's length depends on the offsets it holds: lay the sections out after a generous
  // header estimate, then pad the header (with spaces) to exactly that size.
  const estimate =
    Buffer.byteLength(JSON.stringify([b.meta, b.history, b.providerKeys, b.providerDisplay, b.operatorKeys, b.operatorDisplay, b.source])) + 4096;
  const start = align8(8 + estimate);
  const layout = {} as Record<SectionName, { offset: number; length: number }>;
  let at = start;
  for (const [name, bytes] of sections) {
    layout[name] = { offset: at, length: bytes.byteLength };
    at = align8(at + bytes.byteLength);
  }
  const header: z.input<typeof ListBundleHeaderSchema> = {
    format: LIST_BUNDLE_FORMAT,
    dataVersion: b.dataVersion,
    frozenAt: b.frozenAt,
    total: b.total,
    recordsDigest: b.recordsDigest,
    providerKeys: b.providerKeys,
    providerDisplay: b.providerDisplay,
    operatorKeys: b.operatorKeys,
    operatorDisplay: b.operatorDisplay,
    meta: b.meta,
    history: b.history,
    source: b.source,
    sections: layout,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  if (headerBytes.length > start - 8) throw new Error('list bundle header larger than its reserved space');
  const prefix = Buffer.alloc(start, 0x20);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerBytes.length, 4);
  headerBytes.copy(prefix, 8);
  const chunks: Uint8Array[] = [prefix];
  let written = start;
  for (const [name, bytes] of sections) {
    const pad = layout[name].offset - written;
    if (pad > 0) chunks.push(new Uint8Array(pad));
    chunks.push(bytes);
    written = layout[name].offset + bytes.byteLength;
  }
  return chunks;
}

/** The length of a list bundle's header from its first 8 bytes, or null when they are not a list bundle's. */
export function listBundleHeaderLength(first8: Uint8Array): number | null {
  if (first8.byteLength < 8 || Buffer.from(first8.buffer, first8.byteOffset, 4).toString('latin1') !== MAGIC) return null;
  return Buffer.from(first8.buffer, first8.byteOffset, 8).readUInt32LE(4);
}

/** Whether a list bundle's header (its JSON text) is of the format this code reads. */
export function isCurrentListBundleHeader(header: Uint8Array): boolean {
  try {
    return (
      (JSON.parse(Buffer.from(header.buffer, header.byteOffset, header.byteLength).toString('utf8')) as { format?: unknown }).format === LIST_BUNDLE_FORMAT
    );
  } catch {
    return false;
  }
}

/**
 * Reads a file made by `encodeListBundle`; the typed arrays are views into `input` (copied once
 * when it does not start on an 8-byte boundary). Throws a one-line reason when it is not one.
 */
export function decodeListBundle(input: Uint8Array): ListBundle {
  if (input.byteLength < 8 || Buffer.from(input.buffer, input.byteOffset, 4).toString('latin1') !== MAGIC) throw new Error('not a list bundle');
  const file = input.byteOffset % 8 === 0 ? Buffer.from(input.buffer, input.byteOffset, input.byteLength) : Buffer.from(Uint8Array.from(input).buffer);
  let raw: { format?: unknown };
  try {
    raw = JSON.parse(file.toString('utf8', 8, 8 + file.readUInt32LE(4))) as { format?: unknown };
  } catch {
    throw new Error('list bundle header is not JSON');
  }
  if (raw.format !== LIST_BUNDLE_FORMAT) throw new Error(`list bundle format ${String(raw.format)}, expected ${LIST_BUNDLE_FORMAT}`);
  const parsed = ListBundleHeaderSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`list bundle header: ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`);
  const h = parsed.data;
  const view = <T>(name: SectionName, Type: new (buffer: ArrayBufferLike, offset: number, length: number) => T, size: number): T => {
    const s = h.sections[name];
    if (s.offset + s.length > file.byteLength || s.length % size !== 0) throw new Error(`list bundle section ${name} out of bounds`);
    return new Type(file.buffer, file.byteOffset + s.offset, s.length / size);
  };
  const orders = {} as Record<StaticSort, Int32Array>;
  for (const s of STATIC_SORTS) orders[s] = view(`order_${s}`, Int32Array, 4);
  const head = h.sections.search_head;
  return {
    dataVersion: h.dataVersion,
    frozenAt: h.frozenAt,
    total: h.total,
    recordBytes: view('recordBytes', Uint8Array, 1),
    offsets: view('offsets', Uint32Array, 4),
    itemBytes: view('itemBytes', Uint8Array, 1),
    itemOffsets: view('itemOffsets', Uint32Array, 4),
    recordsDigest: h.recordsDigest,
    providerKeys: h.providerKeys,
    providerDisplay: h.providerDisplay,
    providerOf: view('providerOf', Int32Array, 4),
    typeOf: view('typeOf', Uint8Array, 1),
    multi: view('multi', Uint8Array, 1),
    badges: view('badges', Uint8Array, 1),
    confidence: view('confidence', Uint8Array, 1),
    volatilityOf: view('volatilityOf', Uint8Array, 1),
    operatorKeys: h.operatorKeys,
    operatorDisplay: h.operatorDisplay,
    operatorBuilds: view('operatorBuilds', Uint32Array, 4),
    rtp: view('rtp', Float64Array, 8),
    maxWin: view('maxWin', Float64Array, 8),
    year: view('year', Uint16Array, 2),
    orders,
    searchIndex: {
      head: file.toString('utf8', head.offset, head.offset + head.length),
      postingStart: view('search_postingStart', Uint32Array, 4),
      postingIds: view('search_postingIds', Int32Array, 4),
      postingFreqs: view('search_postingFreqs', Uint32Array, 4),
      fieldLength: view('search_fieldLength', Uint32Array, 4),
      trieChar: view('search_trieChar', Uint16Array, 2),
      trieEnd: view('search_trieEnd', Int32Array, 4),
      trieTerm: view('search_trieTerm', Int32Array, 4),
    },
    meta: h.meta,
    history: h.history as ListBundle['history'],
    source: h.source,
  };
}
