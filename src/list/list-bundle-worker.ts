// Worker thread of the build: compiles the list bundle (list-bundle.ts) from the registry bundle's
// JSON text while the main thread goes on with Vite and the static files, and posts the file's
// bytes back (one transferred buffer).
import { parentPort, workerData } from 'node:worker_threads';
import type { RegistryBundle } from '../registry/bundle.ts';
import { encodeListBundle } from './list-bundle.ts';

const text = workerData as string;
const chunks = encodeListBundle(JSON.parse(text) as RegistryBundle, Buffer.from(text, 'utf8'));
const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.byteLength, 0));
let at = 0;
for (const c of chunks) {
  out.set(c, at);
  at += c.byteLength;
}
parentPort!.postMessage(out, [out.buffer]);
