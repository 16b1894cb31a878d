// The registry's game pages: one HTML page per game (/rtp/{slug} -> rtp/{slug}.html) written by
// filling the Astro-rendered shell, instead of prerendering 50k Astro pages (integration.ts runs it).
//
//   /rtp/{slug}   one file per game in the client output folder
import { writeFileSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { correctionsTemplate } from '../site/corrections.ts';
import { parseShell, renderGamePage } from '../site/game-page.ts';
import { type SiteData, siteData } from '../site/registry.ts';

/** Output file of the shell page (src/pages/rtp-game-shell.astro with build.format 'file'). */
export const SHELL_FILE = 'rtp-game-shell.html';
/** Writes every game page under `clientDir` from the shell HTML, one after another (see emit.ts writeAll); returns the number of pages. */
export async function writeGamePages(clientDir: string, shellHtml: string, data: SiteData): Promise<number> {
  const shell = parseShell(shellHtml);
  const outDir = path.join(clientDir, 'rtp');
  await mkdir(outDir, { recursive: true });
  const { site } = data;
  const meta = data.bundle.meta;
  const corrections = correctionsTemplate();
  for (const r of data.bundle.records) {
    const html = renderGamePage(shell, r, { meta, site, history: data.historyBySlug.get(r.canonical_slug) ?? [], corrections });
    writeFileSync(path.join(outDir, `${r.canonical_slug}.html`), html);
  }
  return data.bundle.records.length;
}

/** Fills the shell in `clientDir` for every game, then deletes the shell; resolves to the page count and time taken. */
export async function emitGamePages(clientDir: string): Promise<{ count: number; ms: number }> {
  const started = performance.now();
  const shellPath = path.join(clientDir, SHELL_FILE);
  const shellHtml = await readFile(shellPath, 'utf8');
  const count = await writeGamePages(clientDir, shellHtml, await siteData());
  await rm(shellPath);
  return { count, ms: performance.now() - started };
}
