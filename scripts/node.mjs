// Runs a project command under the Node the project needs (package.json `engines`, `.nvmrc`): with
// the running Node when it is recent enough, otherwise with `node@<major>` from the npm registry,
// installed once into a cache folder. Plain JavaScript, so any Node from 18 on can start it.
//
//   node scripts/node.mjs node [node flags] <script.ts> [args]   the script under the right Node
//   node scripts/node.mjs <command> [args]                        a command (astro, vitest, tsc, npm…)
//                                                                 with that Node first on PATH
//
// Cache folder: RTP_NODE_CACHE, else $XDG_CACHE_HOME/rtp-registry/node<major>, else
// ~/.cache/rtp-registry/node<major>. Signals are passed on; the exit code is the command's. The
// command gets ENV_DEFAULTS unless its environment sets them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The lowest major version `engines.node` accepts (`>=24` → 24). */
export function requiredMajor(range) {
  const m = /^\s*>=?\s*v?(\d+)/.exec(range ?? '');
  if (m === null) throw new Error(`package.json engines.node must read ">=N" (it reads ${JSON.stringify(range)})`);
  return Number(m[1]);
}

function majorOf(version) {
  return Number(String(version).replace(/^v/, '').split('.')[0]);
}

function cacheDir(major) {
  if (process.env.RTP_NODE_CACHE) return path.resolve(process.env.RTP_NODE_CACHE);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'rtp-registry', `node${major}`);
}

/** The version a node binary reports, or null when it cannot run. */
function versionOf(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** A node binary of at least `major`: this one, or the cached one (installed on first use). */
function provideNode(major) {
  if (majorOf(process.versions.node) >= major) return process.execPath;
  const dir = cacheDir(major);
  const bin = path.join(dir, 'node_modules', '.bin', 'node');
  const cached = existsSync(bin) ? versionOf(bin) : null;
  if (cached !== null && majorOf(cached) >= major) return bin;
  console.error(
    `rtp-registry: this is Node ${process.versions.node}; the project needs Node ${major}. Installing node@${major} from the npm registry into ${dir} (once)…`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `node@${major}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const installed = r.status === 0 && existsSync(bin) ? versionOf(bin) : null;
  if (installed === null || majorOf(installed) < major) {
    console.error(
      `rtp-registry: could not install node@${major}. Install Node ${major} yourself (nvm install ${major}; see docs/setup.md) and run the command again.`,
    );
    process.exit(1);
  }
  console.error(`rtp-registry: using Node ${installed} from ${dir}`);
  return bin;
}

/**
 * Environment defaults for every command (a value already set wins). glibc gives each thread that
 * allocates its own malloc arena, up to 8 per core, and memory freed into an arena stays resident:
 * V8's garbage collector and compiler threads allocate beside the server's main thread. With two
 * arenas the server's resident size at 50k games after the uncached stream and the cycled mix was
 * 205-221 MiB, against 214-242 MiB with glibc's default (3 runs each, docs/server.md).
 */
export const ENV_DEFAULTS = { MALLOC_ARENA_MAX: '2' };

/**
 * The Node flags (`--…`) of the `serve` script in the package at `root`: `npm start`, `npm run serve`,
 * the tests' servers and the bench's all run with them (package.json is their one source).
 * @param {string} [root]
 * @returns {string[]}
 */
export function serveFlags(root = ROOT) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return pkg.scripts.serve.split(/\s+/).filter((arg) => arg.startsWith('--'));
}

function main(argv) {
  if (argv.length === 0) {
    console.error('usage: node scripts/node.mjs node [flags] <script> [args] | <command> [args]');
    process.exit(2);
  }
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const node = provideNode(requiredMajor(pkg.engines?.node));
  // Child processes (npm run build from `npm start`, vitest's workers, the bench's servers) find the same Node first on PATH.
  const env = {
    ...ENV_DEFAULTS,
    ...process.env,
    PATH: [path.dirname(node), path.join(ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(path.delimiter),
  };
  const [command, ...args] = argv[0] === 'node' ? [node, ...argv.slice(1)] : argv;
  const child = spawn(command, args, { stdio: 'inherit', env });
  child.on('error', (err) => {
    console.error(`rtp-registry: cannot run ${command}: ${err.message}`);
    process.exit(127);
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    if (signal !== null) {
      // Re-raise with the default action, so the caller sees the same signal.
      for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.removeAllListeners(sig);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
