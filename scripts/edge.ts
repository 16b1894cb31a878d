// `npm run edge [-- --instances N]`: the production shape on this machine (src/edge/edge.ts): nginx
// in front running the build's dist/edge/nginx.conf, N server instances (default 2) and one
// redis-server, on HOST:PORT as `npm start` reads them. Builds first when needed, as `npm start`
// does; installs Debian's nginx and redis-server with apt when missing and running as root.
// Writes EDGE_DIR/state.json (default .edge/); SIGTERM or SIGINT stops everything it started. With
// RTP_OUT_DIR=releases/current it follows the link (every RELEASE_POLL_MS, default 1000, and on SIGHUP).
// An instance that exits is started again after EDGE_RESTART_MS (default 250), doubling for each exit in a row.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEdge } from '../src/edge/edge.ts';
import { RESTART_BACKOFF } from '../src/edge/supervise.ts';
import { EDGE_DIR, NGINX_CONF_FILE } from '../src/emit/nginx.ts';
import { REDIRECTS_FILE } from '../src/emit/redirects.ts';
import { buildFirst } from './lib/build-first.ts';
import { provisionTools, requireTool } from './lib/system-tools.ts';
import { serveFlags } from './node.mjs';

const USAGE = 'usage: npm run edge [-- --instances N]   (N from 1 to 32, default 2)';

function fail(message: string): never {
  console.error(`edge: ${message}`);
  process.exit(2);
}

let instances = 2;
try {
  const { values } = parseArgs({ options: { instances: { type: 'string' } }, strict: true });
  if (values.instances !== undefined) {
    instances = /^[0-9]{1,2}$/.test(values.instances) ? Number(values.instances) : Number.NaN;
    if (!(instances >= 1 && instances <= 32)) fail(`--instances ${JSON.stringify(values.instances)}: must be a whole number from 1 to 32\n${USAGE}`);
  }
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`);
}
const host = process.env.HOST || '127.0.0.1';
const portText = process.env.PORT || '4321';
const port =
  /^[0-9]{1,5}$/.test(portText) && Number(portText) <= 65535 ? Number(portText) : fail(`PORT=${JSON.stringify(portText)}: must be an integer from 0 to 65535`);
const pollText = process.env.RELEASE_POLL_MS || '1000';
const releasePollMs = /^[0-9]{1,7}$/.test(pollText)
  ? Number(pollText)
  : fail(`RELEASE_POLL_MS=${JSON.stringify(pollText)}: must be an integer from 0 to 9999999`);
const restartText = process.env.EDGE_RESTART_MS || String(RESTART_BACKOFF.firstMs);
const restartDelayMs = /^[1-9][0-9]{0,6}$/.test(restartText)
  ? Number(restartText)
  : fail(`EDGE_RESTART_MS=${JSON.stringify(restartText)}: must be an integer from 1 to 9999999`);

if (!provisionTools(['nginx', 'redis-server'], '`npm run edge`', 'edge')) process.exit(1);
const outDir = path.resolve(process.env.RTP_OUT_DIR || 'dist');
// A build from before the merged slugs' redirects has an nginx.conf without them: built again.
if (!(await buildFirst(outDir, 'edge', [path.join(EDGE_DIR, NGINX_CONF_FILE), path.join('client', REDIRECTS_FILE)])).ok) process.exit(1);

const log = (line: string) => console.error(line);
// A stop asked for while the parts start is carried out once they have (startEdge stops what it
// started itself when it fails), so no part is left running without the edge.
let stopAsked: number | null = null;
let stopNow: ((code: number) => void) | null = null;
const ask = (code: number) => (stopNow !== null ? stopNow(code) : void (stopAsked ??= code));
process.once('SIGTERM', () => ask(0));
process.once('SIGINT', () => ask(0));
let edge;
try {
  edge = await startEdge({
    outDir,
    stateDir: path.resolve(process.env.EDGE_DIR || '.edge'),
    host,
    port,
    instances,
    env: process.env,
    programs: { nginx: requireTool('nginx'), redisServer: requireTool('redis-server'), node: process.execPath },
    nodeArgs: serveFlags(path.resolve(import.meta.dirname, '..')),
    log,
    output: process.stdout,
    releasePollMs,
    restartDelayMs,
  });
} catch (err) {
  log((err as Error).message);
  process.exit(1);
}
const running = edge;
stopNow = (code: number) => void running.stop().then(() => process.exit(code));
// A release link moved: switch now rather than at the next poll.
process.on('SIGHUP', () => void running.switchRelease());
// Without nginx there is no edge: stop the rest.
void running.nginxExited.then(() => {
  log('edge: nginx exited; stopping the instances and Redis');
  stopNow!(1);
});
if (stopAsked !== null) stopNow(stopAsked);
else {
  const { state } = running;
  console.log(
    `edge ready on ${running.url} (nginx pid ${state.nginx.pid}; ${state.instances.length} instance(s) on ports ${state.instances.map((i) => i.port).join(', ')}; redis-server on port ${state.redis.port})`,
  );
}
