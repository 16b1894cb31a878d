// A binary file holding a compiled list and the bundle's meta and history, so one process can
// compile and another load with a single read and zero-copy typed-array views.
//
// Layout: "RTPL" magic, uint32 LE header length, the JSON header, then each binary section at a
// 8-byte aligned offset (offsets in the header are relative to the start of the file).
import type { RegistryBundle } from '../registry/bundle.ts';
import { STATIC_SORTS, type CompiledColumns, type StaticSort } from './compile.ts';

const MAGIC = 'RTPL';

/** What crosses between the compiling and the serving process; the search index is optional. */
export interface ServiceInputData {
  compiled: CompiledColumns & { searchIndex?: string };
  meta: RegistryBundle['meta'];
  history: RegistryBundle['history'];
}

type SectionName = 'offsets' | 'providerOf' | 'typeOf' | 'multi' | 'recordBytes' | 'searchIndex' | `order_${StaticSort}`;

interface Header {
  format: 1;
  dataVersion: string;
  frozenAt: string;
  total: number;
  providerKeys: string[];
  providerDisplay: string[];
  meta: RegistryBundle['meta'];
  history: RegistryBundle['history'];
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
    ...STATIC_SORTS.map((s): [SectionName, Uint8Array] => [`order_${s}`, bytesOf(c.orders[s])]),
    ['recordBytes', c.recordBytes],
    ...(c.searchIndex === undefined ? [] : [['searchIndex', Buffer.from(c.searchIndex, 'utf8')] as [SectionName, Uint8Array]]),
  ];
  // The header's length depends on the offsets it holds: lay the sections out after a generous
  // header estimate, then pad the header to exactly that size.
  const estimate = Buffer.byteLength(JSON.stringify({ ...input.meta, h: input.history, p: c.providerKeys, d: c.providerDisplay })) + 4096;
  const start = 8 + estimate + (8 - ((8 + estimate) % 8)) % 8;
  const layout: Header['sections'] = {};
  let at = start;
  for (const [name, bytes] of sections) {
    layout[name] = { offset: at, length: bytes.byteLength };
    at += bytes.byteLength;
    at += (8 - (at % 8)) % 8;
  }
  const header: Header = {
    format: 1,
    dataVersion: c.dataVersion,
    frozenAt: c.frozenAt,
    total: c.total,
    providerKeys: c.providerKeys,
    providerDisplay: c.providerDisplay,
    meta: input.meta,
    history: input.history,
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
  return {
    compiled: {
      dataVersion: header.dataVersion,
      frozenAt: header.frozenAt,
      total: header.total,
      recordBytes: u8('recordBytes'),
      offsets: new Uint32Array(file.buffer, offsets.offset, offsets.length / 4),
      providerKeys: header.providerKeys,
      providerDisplay: header.providerDisplay,
      providerOf: i32('providerOf'),
      typeOf: u8('typeOf'),
      multi: u8('multi'),
      orders,
      ...(search === null ? {} : { searchIndex: Buffer.from(file.buffer, search.offset, search.length).toString('utf8') }),
    },
    meta: header.meta,
    history: header.history,
  };
}
