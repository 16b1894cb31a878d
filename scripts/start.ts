// `npm start`: builds when dist/ is missing or older than the data (RTP_DATA_DIR or data/), bundles
// the server again when src/ changed since, then serves it with the bundled server `npm run serve` runs.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_ENTRY_FILE } from '../src/schemas/dist.ts';
import { buildFirst } from './lib/build-first.ts';

const outDir = path.resolve(process.env.RTP_OUT_DIR || 'dist');
if (!(await buildFirst(outDir, 'start')).ok) process.exit(1);
// A release made before servers were bundled has none: its data is served by the sources.
const entry = path.join(outDir, 'server', SERVER_ENTRY_FILE);
await import(existsSync(entry) ? pathToFileURL(entry).href : '../src/server/main.ts');
