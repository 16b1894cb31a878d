// Child process: reads the registry bundle, sends the search documents to the server first (so it
// can build the search index while this process goes on), compiles the rest into a compiled list
// file (compiled-file.ts), reports, and exits. Parsing the whole bundle leaves a large heap
// behind; in a separate process all of it goes back to the system on exit.
import { open } from 'node:fs/promises';
import { compileColumns, searchDocuments, sortedRecords } from './compile.ts';
import { encodeCompiled } from './compiled-file.ts';
import type { SearchDocument } from './search.ts';
import { readBundleFile } from './service.ts';

/** Messages to the server, in this order: `docs`, then `done` (or `failed` at any point). */
export type CompilerMessage = { kind: 'docs'; docs: SearchDocument[] } | { kind: 'done' } | { kind: 'failed'; message: string };

function send(message: CompilerMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, undefined, {}, () => resolve()));
}

const [bundleFile, outFile] = [process.argv[2]!, process.argv[3]!];
try {
  const bundle = await readBundleFile(bundleFile);
  const records = sortedRecords(bundle);
  await send({ kind: 'docs', docs: searchDocuments(records) });
  const chunks = encodeCompiled({ compiled: compileColumns(bundle, records), meta: bundle.meta, history: bundle.history });
  const handle = await open(outFile, 'w');
  try {
    await handle.writev(chunks);
  } finally {
    await handle.close();
  }
  await send({ kind: 'done' });
} catch (err) {
  await send({ kind: 'failed', message: (err as Error).message });
}
process.exit(0);
