// Astro integration for the registry pages: writes one HTML page per game (/rtp/{slug} ->
// rtp/{slug}.html) by filling the Astro-rendered shell, instead of prerendering 50k Astro pages.
//
//   /rtp/{slug}   one file per game in the client output folder
import { writeFileSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { parseShell, renderGamePage } from '../site/game-page.ts';
import { siteData, type SiteData } from '../site/registry.ts';

/** Output file of the shell page (src/pages/rtp-game-shell.astro with build.format 'file'). */
export const SHELL_FILE = 'rtp-game-shell.html';
/** Writes every game page under `clientDir` from the shell HTML, one after another (see emit.ts writeAll); returns the number of pages. */
export async function writeGamePages(clientDir: string, shellHtml: string, data: SiteData): Promise<number> {
  const shell = parseShell(shellHtml);
  const outDir = path.join(clientDir, 'rtp');
  await mkdir(outDir, { recursive: true });
  const { site } = data;
  const meta = data.bundle.meta;
  for (const r of data.bundle.records) {
    const html = renderGamePage(shell, r, { meta, site, history: data.historyBySlug.get(r.canonical_slug) ?? [] });
    writeFileSync(path.join(outDir, `${r.canonical_slug}.html`), html);
  }
  return data.bundle.records.length;
}

/** Fills the shell in `clientDir` for every game, then deletes the shell; resolves to the page count and time taken. */
async function emitGamePages(clientDir: string): Promise<{ count: number; ms: number }> {
  const started = performance.now();
  const shellPath = path.join(clientDir, SHELL_FILE);
  const shellHtml = await readFile(shellPath, 'utf8');
  const count = await writeGamePages(clientDir, shellHtml, await siteData());
  await rm(shellPath);
  return { count, ms: performance.now() - started };
}

/** The rtp-pages integration: register after rtp-registry in astro.config.mjs. */
export default function rtpPages(): AstroIntegration {
  let writing: { dir: string; done: Promise<{ count: number; ms: number }> } | undefined;
  return {
    name: 'rtp-pages',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        // Never inline bundled scripts: the game-page shell is copied into every game page, so its
        // script must stay one cached file rather than bytes repeated 50k times.
        updateConfig({ vite: { build: { assetsInlineLimit: (file: string) => (file.endsWith('.js') ? false : undefined) } } });
      },
      // The shell exists as soon as Astro has prerendered the pages: start writing then, so the game
      // pages are written while the other integrations finish their own files.
      'astro:build:generated': ({ dir }) => {
        const clientDir = fileURLToPath(dir);
        const done = emitGamePages(clientDir);
        done.catch(() => undefined); // awaited (and reported) in astro:build:done
        writing = { dir: clientDir, done };
      },
      'astro:build:done': async ({ dir, logger }) => {
        const clientDir = fileURLToPath(dir);
        if (writing === undefined || writing.dir !== clientDir) writing = { dir: clientDir, done: emitGamePages(clientDir) };
        const { count, ms } = await writing.done;
        logger.info(`wrote ${count} game pages in ${Math.round(ms)} ms`);
      },
    },
  };
}
