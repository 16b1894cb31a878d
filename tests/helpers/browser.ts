// Helpers for the real-browser tests: Debian's Chromium through playwright-core, a fixture registry
// build in a temp folder, a second-origin embed page, a page opened in its own context, axe-core's
// findings, and traps for anything a page executes by
// mistake (errors, dialogs, console errors). The server itself is started with tests/helpers/server.ts.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { requireTool } from '../../scripts/lib/system-tools.ts';

const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, '../..');
const ASTRO = path.join(ROOT, 'node_modules/astro/bin/astro.mjs');

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Launches Debian's Chromium (apt package `chromium`, found by scripts/lib/system-tools.ts; never a downloaded browser). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: requireTool('chromium'), args: CHROMIUM_ARGS, timeout: 30_000 });
}

/** A fresh temp folder, removed by `removeTemp`. */
export function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export async function removeTemp(dir: string | undefined): Promise<void> {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
}

/** Runs `astro build` of the registry in `dataDir` into `outDir`; throws with the build output on failure. */
export async function buildRegistry(dataDir: string, outDir: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const fullEnv = { ...process.env, RTP_DATA_DIR: path.resolve(ROOT, dataDir), RTP_OUT_DIR: outDir, ASTRO_TELEMETRY_DISABLED: '1', ...env };
  try {
    await run(process.execPath, [ASTRO, 'build'], { cwd: ROOT, env: fullEnv, maxBuffer: 64 * 1024 * 1024, timeout: 170_000 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`astro build of ${dataDir} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

/** A tiny page server on its own loopback port: another origin than the registry. */
export interface OriginServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `pages` (path -> HTML) from a second origin. */
export function startOriginServer(pages: Record<string, string>): Promise<OriginServer> {
  const server = http.createServer((req, res) => {
    const body = pages[new URL(req.url ?? '/', 'http://x').pathname];
    if (body === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      // "localhost" vs "127.0.0.1" would also differ, but a separate port is a different origin already.
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) });
    });
  });
}

/** What a page did that it should not: uncaught errors, dialogs (alert/confirm/prompt), console errors. */
export interface Trap {
  errors: string[];
  dialogs: string[];
  consoleErrors: string[];
}

/** Records errors, dialogs and console errors of `page` (dialogs are dismissed so nothing blocks). */
export function trapPage(page: Page): Trap {
  const trap: Trap = { errors: [], dialogs: [], consoleErrors: [] };
  page.on('pageerror', (err) => trap.errors.push(err.message));
  page.on('dialog', (dialog) => {
    trap.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') trap.consoleErrors.push(msg.text());
  });
  return trap;
}

/**
 * Opens `url` in a context of its own at `width` × 800 in `colorScheme` (axe-core runs its frames
 * through the page's own context), its trap set before it loads. Closing the page closes its context.
 */
export async function openPage(browser: Browser, url: string, width: number, colorScheme: 'light' | 'dark' = 'light'): Promise<{ page: Page; trap: Trap }> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme });
  const page = await context.newPage();
  // The last context may still be closing when afterAll closes the browser, which rejects it: that
  // is the end we want, not an error.
  page.on('close', () => {
    context.close().catch(() => undefined);
  });
  const trap = trapPage(page);
  await page.goto(url);
  return { page, trap };
}

/** The rules the site is held to: WCAG 2.1 A and AA, and axe's best practices. */
export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** One axe-core finding: its rule, impact and first three targets. */
export type AxeFinding = { id: string; impact: string | null | undefined; targets: string[] };

/** The axe-core findings on `page` for `tags`, over the whole page or the part `include` selects. */
export async function axeFindings(page: Page, tags: string[] = WCAG, include?: string): Promise<AxeFinding[]> {
  const builder = new AxeBuilder({ page }).withTags(tags);
  const result = await (include === undefined ? builder : builder.include(include)).analyze();
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}

/** The average colour of a PNG screenshot's pixels in a rectangle, decoded by the browser itself. */
export async function averageColour(page: Page, png: Buffer, rect: { x: number; y: number; w: number; h: number }): Promise<[number, number, number]> {
  return page.evaluate(
    async ({ data, rect }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(rect.x, rect.y, rect.w, rect.h).data;
      const sum = [0, 0, 0];
      for (let i = 0; i < px.length; i += 4) for (let c = 0; c < 3; c++) sum[c]! += px[i + c]!;
      const n = px.length / 4;
      return [Math.round(sum[0]! / n), Math.round(sum[1]! / n), Math.round(sum[2]! / n)] as [number, number, number];
    },
    { data: png.toString('base64'), rect },
  );
}

/** Where screenshots go: docs/screenshots/ when RTP_SCREENSHOTS=1 (to refresh the committed images), else a temp folder. */
export function screenshotDir(tmp: string): string {
  return process.env.RTP_SCREENSHOTS === '1' ? path.join(ROOT, 'docs/screenshots') : tmp;
}
