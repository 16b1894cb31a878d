// Worker thread of the build: compiles the list bundle (list-bundle.ts) from the registry bundle's
// JSON text while the main thread goes on with Vite and the static files, and posts the file's
// bytes back (one transferred buffer).
import { parentPort, workerData } from 'node:worker_threads';
import type { RegistryBundle } from '../../registry/bundle.ts';
import { listBundleBytes } from './list-bundle.ts';

const text = workerData as string;
const out = listBundleBytes(JSON.parse(text) as RegistryBundle, Buffer.from(text, 'utf8'));
parentPort!.postMessage(out, [out.buffer as ArrayBuffer]);
