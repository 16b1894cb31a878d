// The widget in a real browser, embedded in an iframe on a page from another origin: light and dark
// theme, border=none and radius=0, checked by computed styles inside the frame and by screenshots.
// RTP_SCREENSHOTS=1 writes docs/screenshots/widget-light.png and widget-dark.png (committed images).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { averageColour, launchBrowser, removeTemp, screenshotDir, startOriginServer, tempDir, trapPage, type OriginServer } from '../helpers/browser.ts';
import { startServer, testOutDir, type RunningServer } from '../helpers/server.ts';
import { BUILD_INFO_FILE, BuildInfoSchema } from '../../src/schemas/dist.ts';

const SLUG = 'book-of-dead';
/** Base URL of absolute links in the build under test (the widget's attribution link), from its build-info.json. */
let site: string;
let shots: string | undefined;
let server: RunningServer;
let origin: OriginServer;
let browser: Browser;

function embedPage(registry: string, query: string, bg: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Embedding site</title></head>` +
    `<body style="margin:0;padding:16px;background:${bg};font-family:sans-serif">` +
    `<iframe id="w" src="${registry}/widget/rtp/${SLUG}?${query}" width="100%" height="220" frameborder="0" loading="lazy" title="Book of Dead RTP"></iframe>` +
    `<p><a href="${registry}/rtp/${SLUG}">Book of Dead RTP · RTP Registry · CC BY 4.0</a></p></body></html>`
  );
}

beforeAll(async () => {
  shots = await tempDir('rtp-e2e-shots-');
  site = BuildInfoSchema.parse(JSON.parse(await readFile(path.join(testOutDir(), 'server', BUILD_INFO_FILE), 'utf8'))).site;
  server = await startServer(); // the build under test (tests/e2e/global-setup.ts)
  origin = await startOriginServer({
    '/light.html': embedPage(server.url, 'border=none&radius=0&v=1.0.0', '#f0f0f0'),
    '/dark.html': embedPage(server.url, 'theme=dark&border=none&radius=0&v=1.0.0', '#202020'),
    '/custom.html': embedPage(server.url, 'theme=dark&border=%23ff6600&radius=20', '#ffffff'),
    '/default.html': embedPage(server.url, 'v=1.0.0', '#ffffff'),
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await origin?.close();
  await server?.stop();
  await removeTemp(shots);
});

/** Opens an embed page and returns the page and the widget's frame once the widget is rendered. */
async function openEmbed(file: string): Promise<{ page: Page; frame: Frame; trap: ReturnType<typeof trapPage> }> {
  const page = await browser.newPage({ viewport: { width: 640, height: 320 } });
  const trap = trapPage(page);
  await page.goto(`${origin.url}/${file}`);
  const handle = await page.waitForSelector('#w');
  const frame = (await handle.contentFrame())!;
  await frame.waitForSelector('main.c h1');
  return { page, frame, trap };
}

type Styles = { theme: string | null; bg: string; borderWidth: string; borderStyle: string; borderColor: string; radius: string; name: string; rtp: string; attribution: string | null };

function widgetStyles(frame: Frame): Promise<Styles> {
  return frame.evaluate(() => {
    const main = document.querySelector('main.c')!;
    const cs = getComputedStyle(main);
    return {
      theme: document.documentElement.getAttribute('data-theme'),
      bg: cs.backgroundColor,
      borderWidth: cs.borderTopWidth,
      borderStyle: cs.borderTopStyle,
      borderColor: cs.borderTopColor,
      radius: cs.borderTopLeftRadius,
      name: document.querySelector('h1')!.textContent!,
      rtp: document.querySelector('.r b')!.textContent!,
      attribution: document.querySelector('footer > a')!.getAttribute('href'),
    };
  });
}

describe('widget embedded on another origin', () => {
  it('runs in a cross-origin frame', async () => {
    const { page, frame, trap } = await openEmbed('light.html');
    expect(new URL(frame.url()).origin).toBe(server.url);
    expect(new URL(page.url()).origin).toBe(origin.url);
    expect(new URL(frame.url()).origin).not.toBe(new URL(page.url()).origin);
    // The embedding page cannot reach into the frame: the browser enforces the origin boundary.
    const blocked = await page.evaluate(() => {
      try {
        return (document.getElementById('w') as HTMLIFrameElement).contentDocument === null;
      } catch {
        return true;
      }
    });
    expect(blocked).toBe(true);
    expect(trap).toEqual({ errors: [], dialogs: [], consoleErrors: [] });
    await page.close();
  });

  it('light theme, border=none, radius=0: computed styles and screenshot', async () => {
    const { page, frame, trap } = await openEmbed('light.html');
    const s = await widgetStyles(frame);
    expect(s).toMatchObject({ theme: null, bg: 'rgb(255, 255, 255)', borderWidth: '0px', radius: '0px', name: 'Book of Dead', rtp: '96.21%' });
    expect(s.attribution).toBe(`${site}/rtp/${SLUG}`);
    const png = await (await page.$('#w'))!.screenshot();
    await writeFile(path.join(screenshotDir(shots!), 'widget-light.png'), png);
    // The widget's background fills the frame: the middle of the right half is white, not the page's grey.
    expect(await averageColour(page, png, { x: 400, y: 60, w: 60, h: 10 })).toEqual([255, 255, 255]);
    expect(trap).toEqual({ errors: [], dialogs: [], consoleErrors: [] });
    await page.close();
  });

  it('dark theme, border=none, radius=0: computed styles and screenshot', async () => {
    const { page, frame, trap } = await openEmbed('dark.html');
    const s = await widgetStyles(frame);
    expect(s).toMatchObject({ theme: 'dark', bg: 'rgb(19, 23, 32)', borderWidth: '0px', radius: '0px', name: 'Book of Dead', rtp: '96.21%' });
    const png = await (await page.$('#w'))!.screenshot();
    await writeFile(path.join(screenshotDir(shots!), 'widget-dark.png'), png);
    expect(await averageColour(page, png, { x: 400, y: 60, w: 60, h: 10 })).toEqual([19, 23, 32]);
    expect(trap).toEqual({ errors: [], dialogs: [], consoleErrors: [] });
    await page.close();
  });

  it('a hex border colour and a radius are applied; the defaults show a 1px border and 12px radius', async () => {
    const custom = await openEmbed('custom.html');
    expect(await widgetStyles(custom.frame)).toMatchObject({ theme: 'dark', borderWidth: '1px', borderStyle: 'solid', borderColor: 'rgb(255, 102, 0)', radius: '20px' });
    await custom.page.close();
    const plain = await openEmbed('default.html');
    expect(await widgetStyles(plain.frame)).toMatchObject({ theme: null, borderWidth: '1px', borderColor: 'rgb(213, 218, 227)', radius: '12px' });
    expect(plain.trap).toEqual({ errors: [], dialogs: [], consoleErrors: [] });
    await plain.page.close();
  });
});
