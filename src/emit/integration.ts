// The Astro integration of the build: validates the registry and every response before the build
// writes anything.
// Then, while Astro runs Vite and prerenders, two worker threads compile the list bundle
// (src/emit/list/) and write the per-game and per-provider files into a staging folder
// beside the output (src/emit/staging.ts); astro:build:done moves those into dist/client and
// writes the registry bundle, build-info.json and dist/server/list-bundle.bin, and bundles the
// production server into dist/server/runtime (server-bundle.ts). The game pages are written from
// the Astro-rendered shell as soon as Astro has generated it (game-pages.ts); _headers and
// dist/edge/nginx.conf, which name every page, come last.
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { dataDir, loadRegistryOrThrow } from '../registry/load.ts';
import { siteUrl, websubHub } from '../routes/urls.ts';
import { correctionsTemplate } from '../site/corrections.ts';
import { sharePreparedBuild } from '../site/registry.ts';
import { assertValidBuild, type PreparedBuild, prepareBuild, serialise, writeExtras, writeRouteFiles } from './emit.ts';
import { emitGamePages } from './game-pages.ts';
import { writeListBundle } from './list/list-bundle.ts';
import { bundleServer } from './server-bundle.ts';
import { type StagedWrite, startStagedWrite } from './staging.ts';
import { compileListBundleInWorker } from './workers.ts';

/** The rtp-registry integration (docs/api-static.md). */
export default function rtpRegistry(): AstroIntegration {
  let prepared: PreparedBuild | undefined;
  let serverDir: string | undefined;
  let bundleText: string | undefined;
  let listBundle: Promise<Uint8Array> | undefined;
  let staged: StagedWrite | undefined;
  let pages: { dir: string; done: Promise<{ count: number; ms: number }> } | undefined;
  return {
    name: 'rtp-registry',
    hooks: {
      // Runs before Astro empties or writes outDir, so invalid data leaves the output untouched.
      'astro:config:setup': async ({ command, config, logger, updateConfig }) => {
        // Never inline bundled scripts: the game-page shell is copied into every game page, so its
        // script must stay one cached file rather than bytes repeated 50k times.
        updateConfig({ vite: { build: { assetsInlineLimit: (file: string) => (file.endsWith('.js') ? false : undefined) } } });
        if (command !== 'build') return;
        const dir = dataDir();
        const started = performance.now();
        let registry;
        try {
          registry = await loadRegistryOrThrow(dir);
          // Build-time settings fail here, before anything is written, naming the fix.
          websubHub();
          correctionsTemplate();
          prepared = prepareBuild(registry, siteUrl());
          assertValidBuild(prepared);
          // The list bundle is compiled in a worker thread while Astro builds; written in astro:build:done.
          bundleText = serialise(prepared.bundle);
          listBundle = compileListBundleInWorker(bundleText, new URL('./src/emit/list/worker.ts', config.root));
          listBundle.catch(() => undefined); // awaited (and reported) in astro:build:done
          // The per-game and per-provider files are written into a staging folder beside the output
          // folder by another worker meanwhile, and moved into dist/client in astro:build:done.
          staged = startStagedWrite(bundleText, prepared.site, fileURLToPath(config.outDir), new URL('./src/emit/write-worker.ts', config.root));
          staged.done.catch(() => undefined); // awaited (and reported) in astro:build:done
          // The registry pages reuse the data instead of loading it again.
          sharePreparedBuild(dir, prepared);
        } catch (err) {
          // The message lists every problem; a stack trace would only bury it.
          (err as Error).stack = '';
          throw err;
        }
        logger.info(
          `${dir}: ${registry.games.length} games, ${registry.providers.length} providers, data ${registry.meta.data_version}, site ${prepared.site}: valid (${Math.round(performance.now() - started)} ms)`,
        );
      },
      'astro:config:done': ({ config }) => {
        serverDir = fileURLToPath(config.build.server);
      },
      // The shell exists as soon as Astro has prerendered the pages: the game pages are written
      // from then on, while the other files are finished.
      'astro:build:generated': ({ dir }) => {
        const clientDir = fileURLToPath(dir);
        pages = { dir: clientDir, done: emitGamePages(clientDir) };
        pages.done.catch(() => undefined); // awaited (and reported) in astro:build:done
      },
      'astro:build:done': async ({ dir, logger }) => {
        if (prepared === undefined || serverDir === undefined || bundleText === undefined || listBundle === undefined || staged === undefined) {
          throw new Error('rtp-registry: the registry was not loaded before the build');
        }
        const started = performance.now();
        const clientDir = fileURLToPath(dir);
        const runtime = bundleServer(serverDir);
        runtime.catch(() => undefined); // awaited (and reported) below
        const count = (await staged.done) + (await writeExtras(prepared, clientDir, serverDir, bundleText));
        staged.moveInto(clientDir);
        await writeListBundle(serverDir, await listBundle); // the list engine's index (src/schemas/list-bundle.ts)
        await runtime;
        logger.info(`wrote ${count + 1} files (waited ${Math.round(performance.now() - started)} ms for them after Astro)`);
        if (pages === undefined || pages.dir !== clientDir) pages = { dir: clientDir, done: emitGamePages(clientDir) };
        const written = await pages.done;
        logger.info(`wrote ${written.count} game pages in ${Math.round(written.ms)} ms`);
        // Last: _headers and nginx.conf name every page, so they come once every page is in place.
        await writeRouteFiles(prepared, clientDir, serverDir);
      },
    },
  };
}
