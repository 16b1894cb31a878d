// The build step of `npm start` and `npm run edge`: builds when dist/ is missing, older than the data
// (RTP_DATA_DIR or data/) or lacks a file the command needs, and bundles the server again when src/
// changed since. A release link is served as it is (releases are never rebuilt in place).
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { refreshServerBundle } from '../../src/emit/server-bundle.ts';
import { dataDir } from '../../src/registry/load.ts';
import { checkFreshness } from '../../src/server/freshness.ts';

/** Brings `outDir` up to date (logging why, `prefix` first); false when the build failed. `needs`: files under outDir the command reads. */
export async function buildFirst(outDir: string, prefix: string, needs: readonly string[] = []): Promise<{ ok: boolean; release: boolean }> {
  const status = await checkFreshness(outDir, dataDir());
  const release = lstatSync(outDir, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  const missing = status.fresh ? needs.find((f) => !existsSync(path.join(outDir, f))) : undefined;
  const reason = missing !== undefined ? `${path.join(outDir, missing)} is missing (a build from before it existed)` : status.reason;
  if (status.fresh && missing === undefined) {
    console.log(`${prefix}: no build needed: ${status.reason}`);
  } else if (release) {
    console.log(`${prefix}: ${reason}; ${outDir} is a release link, so it is served as it is (make a new release with \`npm run release\`)`);
  } else {
    console.log(`${prefix}: building first: ${reason}`);
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: process.env });
    if (build.status !== 0) {
      console.error(`${prefix}: the build failed (exit code ${build.status ?? build.signal}); not serving.`);
      return { ok: false, release };
    }
  }
  if (!release && (await refreshServerBundle(path.join(outDir, 'server')))) console.log(`${prefix}: bundled the server again: src/ changed since the build`);
  return { ok: true, release };
}
