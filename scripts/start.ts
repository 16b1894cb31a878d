// `npm start`: builds when dist/ is missing or older than the data (RTP_DATA_DIR or data/), then serves it.
import { spawnSync } from 'node:child_process';
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from '../src/registry/load.ts';
import { checkFreshness } from '../src/server/freshness.ts';

const outDir = path.resolve(process.env.RTP_OUT_DIR || 'dist');
const status = await checkFreshness(outDir, dataDir());
if (status.fresh) {
  console.log(`start: no build needed: ${status.reason}`);
} else if (lstatSync(outDir, { throwIfNoEntry: false })?.isSymbolicLink() === true) {
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
await import('../src/server/main.ts');
