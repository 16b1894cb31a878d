// Astro integration: validates the registry before the build and writes the per-game files after it.
import type { AstroIntegration } from 'astro';
import { dataDir, loadRegistryOrThrow } from '../registry/load.ts';

/** The rtp-registry integration (see docs/architecture.md). */
export default function rtpRegistry(): AstroIntegration {
  return {
    name: 'rtp-registry',
    hooks: {
      'astro:build:start': async () => {
        await loadRegistryOrThrow(dataDir());
      },
    },
  };
}
