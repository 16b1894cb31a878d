// Worker thread of the build: renders the per-game and per-provider files (emit.ts renderAll) from
// the registry bundle's JSON and writes them into a staging folder while Astro builds; the
// integration moves the folders into dist/client in astro:build:done (src/emit/staging.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { RegistryBundle } from '../registry/bundle.ts';
import { prepareBundle, writeFamiliesSync } from './emit.ts';

const { bundleText, site, stagingDir } = workerData as { bundleText: string; site: string; stagingDir: string };
const bundle = JSON.parse(bundleText) as RegistryBundle;
parentPort!.postMessage(writeFamiliesSync(prepareBundle(bundle, site), stagingDir));
