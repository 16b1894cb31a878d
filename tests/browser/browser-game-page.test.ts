// A game page in a real browser: the embed builder's live preview and its code carry the same src for
// every option, the preview shows the options, invalid input is flagged, and the copy button copies.
// Runs on the build under test of the shipped registry (Book of Dead).
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, trapPage } from '../helpers/browser.ts';
import { readDataFiles } from '../helpers/data-files.ts';
import { type Server, startServer, testDataDir } from '../helpers/server.ts';

const SLUG = 'book-of-dead';
/** The data version the build under test was made from (the widget links carry it as `v`). */
const VERSION = readDataFiles(testDataDir()).meta.data_version;
let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer(); // the build under test (tests/helpers/global-setup.ts): data/ unless RTP_DATA_DIR says otherwise
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The preview iframe's src attribute and the src of the iframe in the embed code (parsed as HTML by the browser). */
function srcs(page: Page): Promise<{ preview: string; snippet: string; link: string; code: string }> {
  return page.evaluate(() => {
    const preview = document.querySelector<HTMLIFrameElement>('[data-embed-preview]')!.getAttribute('src')!;
    const code = document.querySelector<HTMLTextAreaElement>('[data-embed-snippet]')!.value;
    const parsed = new DOMParser().parseFromString(code, 'text/html');
    return { preview, snippet: parsed.querySelector('iframe')!.getAttribute('src')!, link: parsed.querySelector('a')!.getAttribute('href')!, code };
  });
}

async function previewFrame(page: Page, src: string): Promise<Frame> {
  await page.waitForFunction((s) => document.querySelector('[data-embed-preview]')?.getAttribute('src') === s, src);
  const frame = (await (await page.$('[data-embed-preview]'))!.contentFrame())!;
  await frame.waitForURL(src);
  await frame.waitForSelector('main.c h1');
  return frame;
}

describe('embed builder', () => {
  it('shows the page facts: stated RTP, variants with their kind, provenance', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/rtp/${SLUG}`);
    expect(await page.locator('[data-stated-rtp]').textContent()).toBe('96.21%');
    const rows = await page.locator('section[data-variants] tbody tr').allInnerTexts();
    expect(rows).toHaveLength(5);
    expect(rows[0]).toContain('96.21%');
    expect(rows[4]).toContain('Operator ladder');
    expect(await page.locator('dt:text("Source") + dd a').getAttribute('href')).toBe('https://www.playngo.com/games/book-of-dead');
    await page.close();
  });

  it('the code reproduces the preview src exactly, for the defaults and for every option', async () => {
    const page = await browser.newPage();
    const trap = trapPage(page);
    await page.goto(`${server.url}/rtp/${SLUG}`);
    const base = `${server.url}/widget/rtp/${SLUG}`;

    let s = await srcs(page);
    expect(s.preview).toBe(`${base}?v=${VERSION}`);
    expect(s.snippet).toBe(s.preview);
    expect(s.link).toBe(`${server.url}/rtp/${SLUG}`);
    expect(s.code).toContain('width="100%" height="220" frameborder="0" loading="lazy"');

    await page.locator('#eb-theme').selectOption('dark');
    await page.locator('#eb-border').fill('none');
    await page.locator('#eb-radius').fill('0');
    const dark = `${base}?theme=dark&border=none&radius=0&v=${VERSION}`;
    const frame = await previewFrame(page, dark);
    s = await srcs(page);
    expect(s.snippet).toBe(s.preview);
    expect(s.preview).toBe(dark);
    // The preview shows what the options say.
    const style = await frame.evaluate(() => {
      const cs = getComputedStyle(document.querySelector('main.c')!);
      return { theme: document.documentElement.getAttribute('data-theme'), border: cs.borderTopWidth, radius: cs.borderTopLeftRadius, bg: cs.backgroundColor };
    });
    expect(style).toEqual({ theme: 'dark', border: '0px', radius: '0px', bg: 'rgb(19, 23, 32)' });

    await page.locator('#eb-theme').selectOption('light');
    await page.locator('#eb-border').fill('#FF6600');
    await page.locator('#eb-radius').fill('20');
    const orange = `${base}?border=ff6600&radius=20&v=${VERSION}`;
    await previewFrame(page, orange);
    s = await srcs(page);
    expect(s.snippet).toBe(orange);
    expect(s.preview).toBe(orange);
    expect(trap).toEqual({ errors: [], dialogs: [], consoleErrors: [] });
    await page.close();
  });

  it('offers the widget in six languages: the code and the preview carry lang, and the preview speaks it', async () => {
    const page = await browser.newPage();
    const trap = trapPage(page);
    await page.goto(`${server.url}/rtp/${SLUG}`);
    const options = await page.locator('#eb-lang option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(options).toEqual([
      ['en', 'English'],
      ['de', 'Deutsch'],
      ['es', 'Español'],
      ['pt', 'Português'],
      ['fr', 'Français'],
      ['it', 'Italiano'],
    ]);
    await page.locator('#eb-lang').selectOption('de');
    const de = `${server.url}/widget/rtp/${SLUG}?lang=de&v=${VERSION}`;
    const frame = await previewFrame(page, de);
    const s = await srcs(page);
    expect(s.snippet).toBe(de);
    expect(await frame.evaluate(() => [document.documentElement.lang, document.querySelector('.r b')!.textContent])).toEqual(['de', '96,21\u00a0%']);
    await page.locator('#eb-lang').selectOption('en');
    await previewFrame(page, `${server.url}/widget/rtp/${SLUG}?v=${VERSION}`);
    expect(trap).toEqual({ errors: [], dialogs: [], consoleErrors: [] });
    await page.close();
  });

  it("offers the casino line of each casino that observed the game: the code and the preview carry operator, and the preview shows that casino's build", async () => {
    const page = await browser.newPage();
    const trap = trapPage(page);
    await page.goto(`${server.url}/rtp/${SLUG}`);
    const options = await page.locator('#eb-operator option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(options).toEqual([
      ['', 'None'],
      ['711nl', '711.nl'],
    ]);
    expect(await page.getByLabel('Casino line').inputValue()).toBe('');
    await page.getByLabel('Casino line').selectOption('711nl');
    const line = `${server.url}/widget/rtp/${SLUG}?operator=711nl&v=${VERSION}`;
    const frame = await previewFrame(page, line);
    expect((await srcs(page)).snippet).toBe(line);
    const shown = frame.locator('p.o[data-k="711nl"]');
    await shown.waitFor({ state: 'visible' });
    expect(await shown.textContent()).toMatch(/^711\.nl: 96\.21% \(top build\) · catalogue as pinned \d{4}-\d{2}-\d{2}$/);
    await page.getByLabel('Casino line').selectOption('');
    await previewFrame(page, `${server.url}/widget/rtp/${SLUG}?v=${VERSION}`);
    expect(trap).toEqual({ errors: [], dialogs: [], consoleErrors: [] });
    await page.close();
  });

  it('flags an invalid border and keeps the last valid preview and code in step', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/rtp/${SLUG}`);
    await page.locator('#eb-radius').fill('4');
    await page.waitForFunction(() => document.querySelector('[data-embed-preview]')?.getAttribute('src')?.includes('radius=4'));
    await page.locator('#eb-border').fill('red');
    expect(await page.locator('#eb-border').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('[data-embed-error]').textContent()).toBe('Border: use a hex colour such as #d0d7de, none, or leave it empty.');
    const s = await srcs(page);
    expect(s.preview).toBe(`${server.url}/widget/rtp/${SLUG}?radius=4&v=${VERSION}`);
    expect(s.snippet).toBe(s.preview);
    await page.close();
  });

  it('copies the embed code with the copy button', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    await page.goto(`${server.url}/rtp/${SLUG}`);
    await page.locator('#eb-theme').selectOption('dark');
    await page.waitForFunction(() => document.querySelector('[data-embed-preview]')?.getAttribute('src')?.includes('theme=dark'));
    await page.getByRole('button', { name: 'Copy embed code' }).click();
    await page.waitForFunction(() => document.querySelector('[data-embed-copy-status]')?.textContent !== '');
    expect(await page.locator('[data-embed-copy-status]').textContent()).toBe('Copied.');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await page.locator('[data-embed-snippet]').inputValue());
    expect(copied).toContain('theme=dark');
    await context.close();
  });
});
