// `npm start`: builds when dist/ is missing or older than the data (RTP_DATA_DIR or data/), bundles
// the server again when src/ changed since, then serves it with the bundled server `npm run serve` runs.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { refreshServerBundle } from '../src/build/server-bundle.ts';
import { dataDir } from '../src/registry/load.ts';
import { SERVER_ENTRY_FILE } from '../src/schemas/dist.ts';
import { checkFreshness } from '../src/server/freshness.ts';

const outDir = path.resolve(process.env.RTP_OUT_DIR || 'dist');
const status = await checkFreshness(outDir, dataDir());
const release = lstatSync(outDir, { throwIfNoEntry: false })?.isSymbolicLink() === true;
if (status.fresh) {
  console.log(`start: no build needed: ${status.reason}`);
} else if (release) {
  // A release link (releases/current): releases are never rebuilt in place (docs/production.md).
  console.log(`start: ${status.reason}; ${outDir} is a release link, so it is served as it is (make a new release with \`npm run release\`)`);
} else {
  console.log(`start: building first: ${status.reason}`);
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: process.env });
  if (build.status !== 0) {
    console.error(`start: the build failed (exit code ${build.status ?? build.signal}); not serving.`);
    process.exit(1);
  }
}
const serverDir = path.join(outDir, 'server');
if (!release && (await refreshServerBundle(serverDir))) console.log('start: bundled the server again: src/ changed since the build');
// A release made before servers were bundled has none: its data is served by the sources.
const entry = path.join(serverDir, SERVER_ENTRY_FILE);
await import(existsSync(entry) ? pathToFileURL(entry).href : '../src/server/main.ts');
