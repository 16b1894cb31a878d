// Global setup of the integration and browser projects: makes sure the build under test (RTP_OUT_DIR or dist/) is current for its data
// (RTP_DATA_DIR or data/), running `npm run build` only when it is missing or older than the data,
// and that its bundled server is current with src/ (bundled again after an edit).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { EDGE_DIR, NGINX_CONF_FILE } from '../../src/emit/nginx.ts';
import { REDIRECTS_FILE } from '../../src/emit/redirects.ts';
import { refreshServerBundle } from '../../src/emit/server-bundle.ts';
import { checkFreshness } from '../../src/server/freshness.ts';
import { REPO_ROOT, testDataDir, testOutDir } from './server.ts';

export default async function setup(): Promise<void> {
  const fresh = await checkFreshness(testOutDir(), testDataDir());
  // A build from before the edge (or the merged slugs' redirects) existed has no nginx.conf (or
  // _redirects, and an nginx.conf without them): the edge and merged-slug tests need both.
  const missing = [path.join(testOutDir(), EDGE_DIR, NGINX_CONF_FILE), path.join(testOutDir(), 'client', REDIRECTS_FILE)].find((f) => !existsSync(f));
  const status = fresh.fresh && missing !== undefined ? { fresh: false, reason: `${missing} is missing` } : fresh;
  if (status.fresh) {
    console.log(`tests: using the existing build: ${status.reason}`);
    if (await refreshServerBundle(path.join(testOutDir(), 'server'))) console.log('tests: bundled the server again: src/ changed since the build');
    return;
  }
  console.log(`tests: building: ${status.reason}`);
  execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, RTP_OUT_DIR: testOutDir(), RTP_DATA_DIR: testDataDir() } });
}
