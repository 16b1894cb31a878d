// Astro integration: validates the registry and every response before the build writes anything,
// then writes the per-game, per-provider and server files next to Astro's own output (src/build/emit.ts)
// and the compiled list bundle dist/server/list-bundle.bin (src/list/list-bundle.ts).
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { dataDir, loadRegistryOrThrow } from '../registry/load.ts';
import { sharePreparedBuild } from '../site/registry.ts';
import { writeListBundle } from '../list/list-bundle.ts';
import { assertValidBuild, prepareBuild, writeBuild, type PreparedBuild } from './emit.ts';
import { siteUrl } from './site.ts';

/** The rtp-registry integration (docs/api-static.md). */
export default function rtpRegistry(): AstroIntegration {
  let prepared: PreparedBuild | undefined;
  let serverDir: string | undefined;
  return {
    name: 'rtp-registry',
    hooks: {
      // Runs before Astro empties or writes outDir, so invalid data leaves the output untouched.
      'astro:config:setup': async ({ command, logger }) => {
        if (command !== 'build') return;
        const dir = dataDir();
        const started = performance.now();
        let registry;
        try {
          registry = await loadRegistryOrThrow(dir);
          prepared = prepareBuild(registry, siteUrl());
          assertValidBuild(prepared);
          sharePreparedBuild(dir, prepared); // the registry pages reuse it instead of loading the data again
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
      'astro:build:done': async ({ dir, logger }) => {
        if (prepared === undefined || serverDir === undefined) throw new Error('rtp-registry: the registry was not loaded before the build');
        const started = performance.now();
        const count = await writeBuild(prepared, fileURLToPath(dir), serverDir);
        await writeListBundle(serverDir, prepared.bundle); // the list engine's compiled form (src/list/list-bundle.ts)
        logger.info(`wrote ${count + 1} files in ${Math.round(performance.now() - started)} ms`);
      },
    },
  };
}
