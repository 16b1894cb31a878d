// `npm run release [-- --keep N]`: builds the data (RTP_DATA_DIR) into a new release folder under
// RELEASES_DIR (default ./releases), runs dist-check on it, writes its manifest and purge list, and
// switches `current` atomically, then queues the change notifications (docs/notifications.md).
// `npm run release -- --rollback` switches back (docs/production.md).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs as parseArgv } from 'node:util';
import { dataDir } from '../src/registry/load.ts';
import { ReleaseError, type ReleasePoint, runRelease, runRollback } from '../src/release/release.ts';
import { DEFAULT_KEEP, releasesDir } from '../src/release/store.ts';
import { notifyRelease } from './lib/release-hooks.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ASTRO = path.join(ROOT, 'node_modules/astro/bin/astro.mjs');
const CHECK = path.join(ROOT, 'dist-check/check.ts');
const USAGE = 'usage: npm run release [-- --keep N] | npm run release -- --rollback';

interface Args {
  rollback: boolean;
  keep: number;
}

/** Reads the command line (node:util parseArgs: unknown options and stray arguments are errors). */
function parseArgs(argv: string[]): Args {
  let values: { rollback?: boolean; keep?: string; help?: boolean };
  try {
    ({ values } = parseArgv({
      args: argv,
      options: { rollback: { type: 'boolean' }, keep: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new Error(`${(err as Error).message}. ${USAGE}`);
  }
  if (values.help === true) {
    console.log(USAGE);
    process.exit(0);
  }
  const raw = values.keep;
  if (raw !== undefined && !/^[1-9][0-9]*$/.test(raw))
    throw new Error(`--keep needs a whole number of releases of at least 1 (got ${JSON.stringify(raw)}). ${USAGE}`);
  return { rollback: values.rollback === true, keep: raw === undefined ? DEFAULT_KEEP : Number(raw) };
}

/** Runs a Node script with the release's environment; rejects with its exit status. */
function runNode(args: string[], env: NodeJS.ProcessEnv, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${what} failed (${signal !== null ? `signal ${signal}` : `exit code ${code}`}); see its output above`));
    });
  });
}

/**
 * Test hook RTP_RELEASE_FAULT=<point>[:crash|:corrupt]: at a point (built, checked, staged,
 * switched) the release either dies at once (`crash`, the default: SIGKILL, no clean-up) or, at
 * `built`, deletes one game file so the check must fail (`corrupt`).
 */
async function fault(point: ReleasePoint, folder: string): Promise<void> {
  const spec = process.env.RTP_RELEASE_FAULT;
  if (spec === undefined || spec === '') return;
  const [at, kind = 'crash'] = spec.split(':');
  if (at !== point) return;
  if (kind === 'corrupt') {
    const dir = path.join(folder, 'client/api/rtp');
    const victim = readdirSync(dir, { withFileTypes: true }).find((e) => e.isFile());
    if (victim !== undefined) await rm(path.join(dir, victim.name));
    console.error(`release: fault injected at ${point}: removed client/api/rtp/${victim?.name ?? '(nothing)'}`);
    return;
  }
  console.error(`release: fault injected at ${point}: crashing`);
  process.kill(process.pid, 'SIGKILL');
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const dir = releasesDir();
  const log = (line: string) => console.log(`release: ${line}`);
  if (args.rollback) {
    const r = await runRollback({ dir, log });
    console.log(
      `release: now serving ${r.to} (was ${r.from ?? 'none'}); a server following ${path.join(dir, 'current')} switches within its poll interval, or at once on SIGHUP`,
    );
    return 0;
  }
  const data = dataDir();
  const env = (outDir: string): NodeJS.ProcessEnv => ({ ...process.env, RTP_DATA_DIR: data, RTP_OUT_DIR: outDir, ASTRO_TELEMETRY_DISABLED: '1' });
  const outcome = await runRelease({
    dir,
    dataDir: data,
    keep: args.keep,
    log,
    steps: {
      build: (outDir) => runNode([ASTRO, 'build'], env(outDir), 'astro build'),
      check: (outDir) => runNode([CHECK], env(outDir), 'dist:check'),
      reached: fault,
    },
  });
  const m = outcome.manifest;
  console.log(
    `release: ${outcome.switched ? 'now serving' : 'unchanged'} ${outcome.name} (data ${outcome.dataVersion}; was ${outcome.previous ?? 'none'}); ` +
      `${m.counts.changed} changed, ${m.counts.added} added, ${m.counts.removed} removed paths; purge list ${path.join(dir, outcome.name, 'purge.txt')}`,
  );
  // Subscribers and the WebSub hub hear of it once it serves, without holding the release up.
  if (outcome.switched) for (const line of await notifyRelease(dir, outcome.name, outcome.previous)) console.log(`release: ${line}`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const dir = releasesDir();
    if (err instanceof ReleaseError)
      console.error(
        `release failed at step "${err.step}": ${err.message}\nrelease: nothing was switched; ${path.join(dir, 'current')} still serves the previous release.`,
      );
    else console.error(`release failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
