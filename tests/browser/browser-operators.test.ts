// The operators on the site in real Chromium: a game page's "Which build do casinos run?" section and
// the operator pages, accessible (axe-core: no serious or critical finding, none at all on the
// operator pages) in light and dark, and never scrolling sideways on a phone (360 to 390 px).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/routes/paths.ts';
import { type AxeFinding, axeFindings, launchBrowser, openPage, WCAG } from '../helpers/browser.ts';
import { type Server, startServer } from '../helpers/server.ts';

const GAME = 'book-of-dead';
const OPERATOR = '711nl';
let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer(); // the build under test (tests/helpers/global-setup.ts)
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const open = (path: string, width: number, colorScheme: 'light' | 'dark' = 'light') => openPage(browser, `${server.url}${path}`, width, colorScheme);
const axe = (page: Page, include?: string) => axeFindings(page, WCAG, include);

const serious = (fs: AxeFinding[]) => fs.filter((f) => f.impact === 'serious' || f.impact === 'critical');

/** How far the page scrolls sideways (0: not at all). */
const sideways = (page: Page) => page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth - window.innerWidth);

describe('game page: which build do casinos run?', () => {
  it('shows each casino with its figure and source, names it on the ladder, and links its page', async () => {
    const { page, trap } = await open(paths.gamePage(GAME), 1280);
    const section = page.locator('section[data-operators]');
    await expect(section.locator('h2').textContent()).resolves.toBe('Which build do casinos run?');
    expect(await section.isVisible()).toBe(true);
    const row = await section.locator('li').first().textContent();
    expect(row).toMatch(/^711\.nl \(NL\): \d+\.\d\d%, /);
    expect(row).toMatch(/#\d+, pinned 2026-11-28$/);
    expect(await page.locator('#ladder-d').textContent()).toContain('· 711.nl');
    await section.locator(`a[href="${paths.operatorPage(OPERATOR)}"]`).click();
    await page.waitForURL(`${server.url}${paths.operatorPage(OPERATOR)}`);
    expect(await page.locator('h1').textContent()).toBe('711.nl');
    expect(trap.errors).toEqual([]);
    await page.close();
  });

  for (const [width, scheme] of [
    [1280, 'light'],
    [375, 'dark'],
  ] as const) {
    it(`the section at ${width} px, ${scheme}: no serious axe finding`, async () => {
      const { page } = await open(paths.gamePage(GAME), width, scheme);
      const found = await axe(page, 'section[data-operators]');
      expect(serious(found)).toEqual([]);
      expect(found).toEqual([]);
      await page.close();
    });
  }

  it('no sideways scrolling at 360, 375 and 390 px, the longest source line included', async () => {
    for (const width of [360, 375, 390]) {
      const { page } = await open(paths.gamePage('sweet-bonanza'), width);
      expect(await sideways(page), `${width}`).toBe(0);
      const right = await page.locator('section[data-operators]').evaluate((s) => s.getBoundingClientRect().right);
      expect(right).toBeLessThanOrEqual(width);
      await page.close();
    }
  });
});

describe('operator pages', () => {
  for (const path of [paths.pages.operators, paths.operatorPage(OPERATOR)]) {
    for (const [width, scheme] of [
      [1280, 'light'],
      [375, 'light'],
      [375, 'dark'],
    ] as const) {
      it(`${path} at ${width} px, ${scheme}: no axe finding of any impact`, async () => {
        const { page, trap } = await open(path, width, scheme);
        expect(await axe(page)).toEqual([]);
        expect(trap.errors).toEqual([]);
        await page.close();
      });
    }

    it(`${path}: no sideways scrolling at 360, 375 and 390 px; wide tables scroll in a named, focusable region`, async () => {
      for (const width of [360, 375, 390]) {
        const { page } = await open(path, width);
        expect(await sideways(page), `${path} at ${width}`).toBe(0);
        const badRegions = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('body *')]
            .filter((el) => {
              const cs = getComputedStyle(el);
              return (cs.overflowX === 'auto' || cs.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
            })
            .filter((el) => el.tabIndex < 0 || (!el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby')))
            .map((el) => el.outerHTML.slice(0, 80)),
        );
        expect(badRegions, `${path} at ${width}`).toEqual([]);
        await page.close();
      }
    });
  }

  it("the gap chart is an image whose text alternative states its bands, the table's rows", async () => {
    const { page } = await open(paths.operatorPage(OPERATOR), 1280);
    const svg = page.locator('svg[aria-labelledby="gaps-t gaps-d"]');
    expect(await svg.getAttribute('role')).toBe('img');
    const desc = (await page.locator('#gaps-d').textContent())!;
    const rows = await page.locator('[data-gap-count]').evaluateAll((tds) => tds.map((td) => [td.previousElementSibling!.textContent, td.textContent]));
    expect(rows.length).toBeGreaterThan(0);
    for (const [label, count] of rows) expect(desc).toContain(`${label}: ${count!.replace(/,/g, '')}`);
    await page.close();
  });
});
