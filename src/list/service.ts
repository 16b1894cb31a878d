// Builds the dynamic routes (list and history) from a registry bundle, and reads the bundle file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type MiniSearch from 'minisearch';
import { z } from 'zod';
import { RegistryBundleSchema, type RegistryBundle } from '../registry/bundle.ts';
import type { ListEngine } from './engine.ts';
import { createHistoryHandler, type HistoryHandler } from './history.ts';
import { createListHandler, type ListHandler, type ListHandlerOptions } from './list.ts';
import { compileList, type CompiledList } from './compile.ts';
import { decodeCompiled } from './compiled-file.ts';
import type { CompilerMessage } from './compile-worker.ts';
import { buildSearchIndex, type SearchDocument } from './search.ts';
import { readListBundle } from './list-bundle.ts';
import { createMemoryEngine, type MemoryEngineOptions } from './memory-engine.ts';

/** The dynamic routes over one bundle. */
export interface RegistryServices {
  dataVersion: string;
  frozenAt: string;
  games: number;
  engine: ListEngine;
  list: ListHandler;
  history: HistoryHandler;
}

export type ServiceOptions = MemoryEngineOptions & ListHandlerOptions;

/** What the services are built from: the compiled list plus the bundle's meta and history log. */
export interface ServiceInput {
  compiled: CompiledList;
  meta: RegistryBundle['meta'];
  history: RegistryBundle['history'];
}

/** Loads the list engine and both handlers from compiled input. */
export function servicesFrom(input: ServiceInput, options: ServiceOptions = {}): RegistryServices {
  const engine = createMemoryEngine(input.compiled, options);
  return {
    dataVersion: input.meta.data_version,
    frozenAt: input.meta.frozen_at,
    games: engine.total,
    engine,
    list: createListHandler(engine, options),
    history: createHistoryHandler(input.meta, input.history),
  };
}

/** Compiles the bundle in this thread and builds the services (tests, `astro dev`). */
export function createServices(bundle: RegistryBundle, options: ServiceOptions = {}): RegistryServices {
  return servicesFrom({ compiled: compileList(bundle), meta: bundle.meta, history: bundle.history }, options);
}

// The build validated every record against GameRecordSchema when it wrote the bundle; at start the
// server checks the envelope (format, meta, providers, history) with the schema and the records
// only for the fields the index reads, which keeps start-up within its budget at 50k games.
const BundleEnvelopeSchema = RegistryBundleSchema.extend({ records: z.array(z.unknown()) });
const RECORD_STRINGS = ['canonical_slug', 'canonical_name', 'provider', 'provider_display', 'game_type', 'last_verified'] as const;

function recordProblem(records: unknown[]): string | null {
  for (let i = 0; i < records.length; i++) {
    const r = records[i] as Record<string, unknown> | null;
    if (r === null || typeof r !== 'object') return `records.${i}: not an object`;
    for (const key of RECORD_STRINGS) if (typeof r[key] !== 'string') return `records.${i}.${key}: not a string`;
    if (typeof r.stated_rtp !== 'number' || typeof r.variants_count !== 'number') return `records.${i}: stated_rtp or variants_count not a number`;
  }
  return null;
}

/** Reads and checks dist/server/registry-bundle.json; throws a readable error when missing or malformed. */
export async function readBundleFile(file: string): Promise<RegistryBundle> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new Error(`Cannot read the registry bundle ${file}: run \`npm run build\` first.`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`The registry bundle ${file} is not valid JSON (${(err as Error).message}): rebuild with \`npm run build\`.`);
  }
  const parsed = BundleEnvelopeSchema.safeParse(raw);
  const problem = parsed.success ? recordProblem(parsed.data.records) : `${parsed.error.issues[0]!.path.join('.') || '(root)'}: ${parsed.error.issues[0]!.message}`;
  if (problem !== null) throw new Error(`The registry bundle ${file} does not match its schema (${problem}): rebuild with \`npm run build\`.`);
  return parsed.data as unknown as RegistryBundle;
}

/**
 * Loads the services for the registry bundle `file`. In a build (build-info.json beside it) the
 * list bundle the build compiled (list-bundle.bin, list-bundle.ts) is read and checked against it:
 * one file read, no JSON parse of the records, no indexing; a missing or mismatched list bundle is
 * refused with an error naming `npm run build`. A bundle file on its own is compiled in a child
 * process (`compileInChild`).
 */
export async function loadServices(file: string, options: ServiceOptions = {}): Promise<RegistryServices> {
  const prebuilt = await readListBundle(path.dirname(file));
  if (prebuilt === null) return compileInChild(file, options);
  const { compiled, meta, history } = prebuilt;
  if (compiled.searchIndex === undefined) throw new Error(`The list bundle beside ${file} holds no search index: rebuild with \`npm run build\`.`);
  return servicesFrom({ compiled: { ...compiled, searchIndex: compiled.searchIndex }, meta, history }, options);
}

/**
 * Reads and compiles the bundle in a child process (src/list/compile-worker.ts) and builds the
 * services here. The child sends the search documents first and this process builds the search
 * index while the child compiles the rest into a file, read back with one read (typed arrays are
 * views into that buffer). The bundle parse's memory peak never becomes this process's own.
 */
export async function compileInChild(file: string, options: ServiceOptions = {}): Promise<RegistryServices> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rtp-list-'));
  const compiledFile = path.join(dir, 'list.bin');
  try {
    const index = await new Promise<MiniSearch<SearchDocument>>((resolve, reject) => {
      const child = fork(fileURLToPath(new URL('./compile-worker.ts', import.meta.url)), [file, compiledFile], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      let built: MiniSearch<SearchDocument> | undefined;
      let settled = false;
      const settle = (err: Error | null) => {
        if (settled) return;
        settled = true;
        if (err !== null) reject(err);
        else if (built === undefined) reject(new Error('The bundle compiler finished without sending the search documents.'));
        else resolve(built);
      };
      child.on('message', (msg: CompilerMessage) => {
        if (msg.kind === 'docs') built = buildSearchIndex(msg.docs);
        else if (msg.kind === 'done') settle(null);
        else settle(new Error(msg.message));
      });
      child.once('error', (err) => settle(err));
      child.once('exit', (code, signal) => settle(new Error(`The bundle compiler stopped (${signal ?? `exit code ${code}`}) before answering.`)));
    });
    const decoded = decodeCompiled(await readFile(compiledFile));
    return servicesFrom({ compiled: { ...decoded.compiled, searchIndex: index }, meta: decoded.meta, history: decoded.history }, options);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
