// The production server as plain JavaScript: src/server/main.ts and everything it imports (the
// dependencies too), bundled by esbuild into dist/server/runtime/. `npm run serve` runs it.
//
// Why: started from source, Node strips the types of some 90 modules and resolves and links a few
// hundred files (zod's alone) before the first answer: at 50k games, with a cold compile cache,
// that was over a third of the 0.43 s to the first list answer, and the type stripper's
// WebAssembly some 30 MiB of the server's memory. The bundle starts in about 0.3 s.
//
// Emits: dist/server/runtime/server.mjs (the entry) and dist/server/runtime/chunks/*.mjs (the
// server proper, and the MCP and Redis code, loaded on first use as before).
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import fg from 'fast-glob';
import { SERVER_ENTRY_FILE, SERVER_RUNTIME_DIR } from '../schemas/dist.ts';

/** The repository the bundle is made from. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Bundles the production server into `<serverDir>/runtime` (emptied first) and returns the path of
 * its entry. The output is a function of the sources and dependencies alone: no timestamps or
 * absolute paths, so two builds are byte-identical.
 */
export async function bundleServer(serverDir: string): Promise<string> {
  const outdir = path.join(serverDir, SERVER_RUNTIME_DIR);
  await rm(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: { server: 'src/server/main.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // The server's own dynamic imports (the MCP SDK, the Redis client) stay separate files, loaded on first use.
    splitting: true,
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    // resvg is a native addon (a prebuilt .node per platform): loaded from node_modules, not bundled.
    external: ['@resvg/resvg-js'],
    // CommonJS dependencies (SonicBoom) call require(), and write-file-atomic names its temporary
    // files from __filename; an ES module has neither. Each output file defines both for itself
    // (__filename under a name of its own, so no bundled declaration can collide with it): a
    // release's copy of the bundle runs without the project's node_modules beside it.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nimport { fileURLToPath as __fileURLToPath } from 'node:url';\nconst require = __createRequire(import.meta.url);\nconst __bundleFile = __fileURLToPath(import.meta.url);",
    },
    define: { __filename: '__bundleFile' },
    // Licence comments of the bundled dependencies stay, at the end of each file.
    legalComments: 'eof',
    logLevel: 'silent',
  });
  return path.join(serverDir, SERVER_ENTRY_FILE);
}

/**
 * Whether `<serverDir>/runtime/server.mjs` is newer than every source it is made from (src/ and
 * the lockfile): false when it is missing or older, e.g. after an edit without a build.
 */
export async function serverBundleCurrent(serverDir: string): Promise<boolean> {
  const entry = await stat(path.join(serverDir, SERVER_ENTRY_FILE)).catch(() => null);
  if (entry === null) return false;
  const sources = await fg(['src/**/*', 'package-lock.json'], { cwd: ROOT, absolute: true, stats: true, onlyFiles: true });
  return sources.every((s) => s.stats!.mtimeMs <= entry.mtimeMs);
}

/**
 * Bundles the server in `serverDir` again when src/ changed since (serverBundleCurrent); returns
 * whether it did. For `npm start` and the test global setup, which run the bundle of a build made earlier.
 */
export async function refreshServerBundle(serverDir: string): Promise<boolean> {
  if (await serverBundleCurrent(serverDir)) return false;
  await bundleServer(serverDir);
  return true;
}
