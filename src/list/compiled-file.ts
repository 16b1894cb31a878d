// A binary file holding a compiled list and the bundle's meta and history, so one process can
// compile and another load with a single read and zero-copy typed-array views.
//
// Layout: "RTPL" magic, uint32 LE header length, the JSON header, then each binary section at a
// 8-byte aligned offset (offsets in the header are relative to the start of the file).
import type { RegistryBundle } from '../registry/bundle.ts';
import { STATIC_SORTS, type CompiledColumns, type StaticSort } from './compile.ts';
import type { PackedSearchIndex } from './search.ts';

const MAGIC = 'RTPL';

/** What crosses between the compiling and the serving process; the search index (JSON or packed) is optional. */
export interface ServiceInputData {
  compiled: CompiledColumns & { searchIndex?: string | PackedSearchIndex };
  meta: RegistryBundle['meta'];
  history: RegistryBundle['history'];
  /** The registry bundle file this was compiled from (list bundles written by the build). */
  source?: CompiledSource;
}

/** Identifies the registry bundle file a compiled list was made from. */
export interface CompiledSource {
  /** SHA-256 (hex) of the registry bundle file's bytes. */
  sha256: string;
  /** Its size in bytes (checked at start, where hashing 40 MB would cost more than the load). */
  bytes: number;
}

type SectionName = 'offsets' | 'providerOf' | 'typeOf' | 'multi' | 'badges' | 'recordBytes' | 'searchIndex' | `order_${StaticSort}` | `search_${PackedPart}`;
type PackedPart = keyof PackedSearchIndex;
const PACKED_PARTS: readonly PackedPart[] = ['head', 'postingStart', 'postingIds', 'postingFreqs', 'documentIds', 'fieldLength'];

function searchSections(index: string | PackedSearchIndex | undefined): Array<[SectionName, Uint8Array]> {
  if (index === undefined) return [];
  if (typeof index === 'string') return [['searchIndex', Buffer.from(index, 'utf8')]];
  return PACKED_PARTS.map((part): [SectionName, Uint8Array] => {
    const value = index[part];
    return [`search_${part}`, typeof value === 'string' ? Buffer.from(value, 'utf8') : bytesOf(value)];
  });
}

/** Version of the file layout; a file of another version is refused (rebuild). */
const FORMAT = 3;

interface Header {
  format: typeof FORMAT;
  dataVersion: string;
  frozenAt: string;
  total: number;
  recordsDigest: string;
  providerKeys: string[];
  providerDisplay: string[];
  meta: RegistryBundle['meta'];
  history: RegistryBundle['history'];
  source?: CompiledSource;
  sections: Record<string, { offset: number; length: number }>;
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** The file's bytes as a list of chunks (write them in order, e.g. with FileHandle.writev). */
export function encodeCompiled(input: ServiceInputData): Uint8Array[] {
  const c = input.compiled;
  const sections: Array<[SectionName, Uint8Array]> = [
    ['offsets', bytesOf(c.offsets)],
    ['providerOf', bytesOf(c.providerOf)],
    ['typeOf', c.typeOf],
    ['multi', c.multi],
    ['badges', c.badges],
    ...STATIC_SORTS.map((s): [SectionName, Uint8Array] => [`order_${s}`, bytesOf(c.orders[s])]),
    ['recordBytes', c.recordBytes],
    ...searchSections(c.searchIndex),
  ];
  // The header's length depends on the offsets it holds: lay the sections out after a generous
  // header estimate, then pad the header to exactly that size.
  const estimate = Buffer.byteLength(JSON.stringify({ ...input.meta, h: input.history, p: c.providerKeys, d: c.providerDisplay, s: input.source })) + 4096;
  const start = 8 + estimate + (8 - ((8 + estimate) % 8)) % 8;
  const layout: Header['sections'] = {};
  let at = start;
  for (const [name, bytes] of sections) {
    layout[name] = { offset: at, length: bytes.byteLength };
    at += bytes.byteLength;
    at += (8 - (at % 8)) % 8;
  }
  const header: Header = {
    format: FORMAT,
    dataVersion: c.dataVersion,
    frozenAt: c.frozenAt,
    total: c.total,
    recordsDigest: c.recordsDigest,
    providerKeys: c.providerKeys,
    providerDisplay: c.providerDisplay,
    meta: input.meta,
    history: input.history,
    ...(input.source === undefined ? {} : { source: input.source }),
    sections: layout,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  if (headerBytes.length > start - 8) throw new Error('compiled list header larger than its reserved space');
  const prefix = Buffer.alloc(start);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerBytes.length, 4);
  headerBytes.copy(prefix, 8);
  prefix.fill(0x20, 8 + headerBytes.length);
  const chunks: Uint8Array[] = [prefix];
  let written = start;
  for (const [name, bytes] of sections) {
    const pad = layout[name]!.offset - written;
    if (pad > 0) chunks.push(new Uint8Array(pad));
    chunks.push(bytes);
    written = layout[name]!.offset + bytes.byteLength;
  }
  return chunks;
}

/** Reads a file made by `encodeCompiled`; the typed arrays are views into `file` (8-byte aligned, no copies). */
export function decodeCompiled(input: Buffer): ServiceInputData {
  if (input.length < 8 || input.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a compiled list file');
  // Typed-array views need aligned offsets: copy a buffer that does not start on an 8-byte boundary.
  const file = input.byteOffset % 8 === 0 ? input : Buffer.from(Uint8Array.from(input).buffer);
  const header = JSON.parse(file.toString('utf8', 8, 8 + file.readUInt32LE(4))) as Header;
  if (header.format !== FORMAT) throw new Error(`compiled list format ${String(header.format)}, expected ${FORMAT}`);
  const section = (name: SectionName) => {
    const s = header.sections[name]!;
    return { offset: file.byteOffset + s.offset, length: s.length };
  };
  const u8 = (name: SectionName) => {
    const s = section(name);
    return new Uint8Array(file.buffer, s.offset, s.length);
  };
  const i32 = (name: SectionName) => {
    const s = section(name);
    return new Int32Array(file.buffer, s.offset, s.length / 4);
  };
  const offsets = section('offsets');
  const orders = {} as Record<StaticSort, Int32Array>;
  for (const s of STATIC_SORTS) orders[s] = i32(`order_${s}`);
  const search = header.sections.searchIndex === undefined ? null : section('searchIndex');
  const u32 = (name: SectionName) => {
    const s = section(name);
    return new Uint32Array(file.buffer, s.offset, s.length / 4);
  };
  const packed: PackedSearchIndex | null =
    header.sections.search_head === undefined
      ? null
      : {
          head: file.toString('utf8', header.sections.search_head.offset, header.sections.search_head.offset + header.sections.search_head.length),
          postingStart: u32('search_postingStart'),
          postingIds: i32('search_postingIds'),
          postingFreqs: u32('search_postingFreqs'),
          documentIds: i32('search_documentIds'),
          fieldLength: u32('search_fieldLength'),
        };
  return {
    compiled: {
      dataVersion: header.dataVersion,
      frozenAt: header.frozenAt,
      total: header.total,
      recordsDigest: header.recordsDigest,
      recordBytes: u8('recordBytes'),
      offsets: new Uint32Array(file.buffer, offsets.offset, offsets.length / 4),
      providerKeys: header.providerKeys,
      providerDisplay: header.providerDisplay,
      providerOf: i32('providerOf'),
      typeOf: u8('typeOf'),
      multi: u8('multi'),
      badges: u8('badges'),
      orders,
      ...(search === null ? {} : { searchIndex: Buffer.from(file.buffer, search.offset, search.length).toString('utf8') }),
      ...(packed === null ? {} : { searchIndex: packed }),
    },
    meta: header.meta,
    history: header.history,
    ...(header.source === undefined ? {} : { source: header.source }),
  };
}
