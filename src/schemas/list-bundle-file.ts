// The list bundle's file layout (list-bundle.ts holds what it carries), read with zero-copy
// typed-array views: "RTPL" magic, uint32 LE header length, the JSON header
// (ListBundleHeaderSchema), then each section at an 8-byte aligned offset (offsets in the header
// count from the start of the file).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { RegistryFileSchema } from './authoring.ts';
import { type ListBundle, ListBundleSourceSchema, MAX_LIST_OPERATORS, STATIC_SORTS, type StaticSort } from './list-bundle.ts';
import { SEARCH_FIELDS, SearchIndexHeadSchema } from './search-index.ts';

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
