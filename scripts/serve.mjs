// `npm run serve`: the production server as the build bundled it (dist/server/runtime/server.mjs,
// src/emit/server-bundle.ts), for the build in RTP_OUT_DIR (default dist). Plain JavaScript, so
// nothing of the server's start-up goes to type stripping.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const entry = path.resolve(process.env.RTP_OUT_DIR || 'dist', 'server/runtime/server.mjs');
if (!existsSync(entry)) {
  console.error(`serve: ${entry} is missing: build first with \`npm run build\` (or run \`npm start\`, which builds when needed).`);
  process.exit(1);
}
await import(pathToFileURL(entry).href);
