// Astro build: static pages plus on-demand list/history endpoints (node adapter, middleware mode);
// the rtp-registry integration validates data/ and writes the per-game API, widget and page files.

import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import rtpRegistry from './src/emit/integration.ts';

export default defineConfig({
  // RTP_OUT_DIR lets tests and benchmarks build a fixture registry without touching dist/.
  outDir: process.env.RTP_OUT_DIR ?? './dist',
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  session: false,
  trailingSlash: 'never',
  build: { format: 'file' },
  integrations: [rtpRegistry(), bundleDependenciesForBuild()],
});

/**
 * Bundles dependencies into the server and prerender output of `astro build` only, so a dist built
 * anywhere (RTP_OUT_DIR outside the project, a release folder) runs without a node_modules beside
 * it. Not applied to `astro dev`, where inlining CommonJS dependencies breaks ("require is not defined").
 */
function bundleDependenciesForBuild() {
  return {
    name: 'rtp-bundle-dependencies',
    hooks: {
      'astro:config:setup': ({ command, updateConfig }) => {
        if (command !== 'build') return;
        updateConfig({ vite: { ssr: { noExternal: true }, environments: { prerender: { resolve: { noExternal: true } } } } });
      },
    },
  };
}
