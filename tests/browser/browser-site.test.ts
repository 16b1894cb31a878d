// Every page type of the site in real Chromium, as people use it: axe-core (WCAG 2.1 A/AA and best
// practice) finds no violation of any impact at 1280 and 375 px, in light and dark; phones
// from 360 to 390 px never scroll sideways, and what overflows scrolls inside a focusable region;
// tap targets pass axe's target-size rule (24 px, WCAG 2.2 2.5.8); the charts are images with a text
// alternative that states their numbers, and stay visible in dark mode and in print.

import { writeFile } from 'node:fs/promises';
import nodePath from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings, launchBrowser, openPage, removeTemp, screenshotDir, type Trap, tempDir } from '../helpers/browser.ts';
import { type Server, startServer } from '../helpers/server.ts';

let server: Server;
let browser: Browser;
/** Where screenshots go: a temp folder, or docs/screenshots with RTP_SCREENSHOTS=1 (committed images). */
let shots: string | undefined;

/** One of each page type (the last is the not-found page); the second game page has an RTP history chart (its variants changed in 1.1.0). */
const PAGES = [
  '/',
  '/?q=bok+of+ded',
  '/?operator=711nl&operator_build=lower',
  '/about',
  '/providers',
  '/providers/playngo',
  '/rtp/book-of-dead',
  '/rtp/gates-of-olympus-1000',
  '/compare?slugs=book-of-dead,starburst,gates-of-olympus-1000',
  '/widget/rtp/book-of-dead?lang=de',
  '/widget/rtp/book-of-dead?operator=711nl&lang=it',
  '/no-such-page',
] as const;

beforeAll(async () => {
  shots = await tempDir('rtp-e2e-site-shots-');
  server = await startServer(); // the build under test (tests/helpers/global-setup.ts)
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeTemp(shots);
});

/** Opens a page and waits until its script has rendered (search results, embed builder, comparison). */
async function open(path: string, width: number, colorScheme: 'light' | 'dark' = 'light'): Promise<{ page: Page; trap: Trap }> {
  const opened = await openPage(browser, `${server.url}${path}`, width, colorScheme);
  const { page } = opened;
  if (path.startsWith('/?')) await page.waitForFunction(() => document.querySelector('[data-search-results]')?.getAttribute('data-query') !== '');
  if (path.startsWith('/rtp/')) await page.waitForSelector('[data-embed-builder][data-ready="true"]');
  if (path.startsWith('/compare')) await page.waitForSelector('[data-compare-region]:not([hidden]) table tbody tr');
  return opened;
}

describe('axe-core on every page type', () => {
  for (const path of PAGES) {
    for (const [width, scheme] of [
      [1280, 'light'],
      [375, 'light'],
      [375, 'dark'],
    ] as const) {
      it(`${path} at ${width} px, ${scheme}: no violation of any impact`, async () => {
        const { page, trap } = await open(path, width, scheme);
        // Moderate and minor findings count too: a game page once had two unlabelled main
        // landmarks (its own and its embedded widget preview's), a moderate best-practice finding.
        expect(await axeFindings(page)).toEqual([]);
        expect(trap.errors).toEqual([]);
        await page.close();
      });
    }
  }
});

describe('phones', () => {
  for (const path of PAGES) {
    it(`${path}: no sideways scrolling at 360, 375 and 390 px; wide content scrolls in a focusable region`, async () => {
      for (const width of [360, 375, 390]) {
        const { page } = await open(path, width);
        const facts = await page.evaluate(() => {
          const root = document.scrollingElement ?? document.documentElement;
          const overflowing = [...document.querySelectorAll<HTMLElement>('body *')].filter((el) => {
            const cs = getComputedStyle(el);
            return (cs.overflowX === 'auto' || cs.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
          });
          return {
            sideways: root.scrollWidth - window.innerWidth,
            unfocusable: overflowing
              .filter((el) => el.tabIndex < 0 && !el.querySelector('a, button, input, select, textarea'))
              .map((el) => el.outerHTML.slice(0, 80)),
            unlabelled: overflowing
              .filter((el) => el.tabIndex >= 0 && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby') && el.tagName !== 'TEXTAREA')
              .map((el) => el.outerHTML.slice(0, 80)),
          };
        });
        expect(facts, `${path} at ${width}`).toEqual({ sideways: 0, unfocusable: [], unlabelled: [] });
        await page.close();
      }
    });

    it(`${path}: tap targets of at least 24 px (axe target-size) at 375 px`, async () => {
      const { page } = await open(path, 375);
      expect(await axeFindings(page, ['wcag22aa'])).toEqual([]);
      await page.close();
    });
  }

  it('the embed code wraps inside its box on a phone', async () => {
    const { page } = await open('/rtp/book-of-dead', 360);
    const box = await page
      .locator('[data-embed-snippet]')
      .evaluate((t) => ({ scroll: t.scrollWidth, client: t.clientWidth, right: t.getBoundingClientRect().right }));
    expect(box.scroll).toBeLessThanOrEqual(box.client);
    expect(box.right).toBeLessThanOrEqual(360);
    await page.close();
  });
});

/** Relative luminance contrast of two computed CSS colours (rgb/rgba), WCAG 2.1. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = c
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((x) => {
        const v = Number(x) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

describe('charts', () => {
  it('are images whose text alternative states the numbers: game ladder and history, provider and registry histograms', async () => {
    const cases: Array<[string, RegExp]> = [
      [
        '/rtp/book-of-dead',
        /^RTP ladder 5 RTP variants, highest first: 96\.21% · Standard · stated RTP · 711\.nl; 94\.25% · Operator ladder; .*84\.18% · Operator ladder\./,
      ],
      [
        '/rtp/gates-of-olympus-1000',
        /^RTP history Stated RTP and RTP variants per data version, oldest first: 1\.0\.0 \(2026-11-21\): stated 96\.50%, variants 96\.50%; 1\.1\.0 \(2026-11-23\): stated 96\.50%, variants 96\.49%, 96\.50%\./,
      ],
      [
        '/providers/playngo',
        /^Distribution of stated RTP of the \d+ Play'n GO games Stated RTP of the \d+ Play'n GO games, \d+ in all, in bins of [\d.]+ points?: .*Play'n GO median: \d+\.\d\d%; Registry median: \d+\.\d\d%\./,
      ],
      ['/about', /^Distribution of stated RTP of every game in the registry .*Registry median: \d+\.\d\d%\./],
    ];
    for (const [path, name] of cases) {
      const { page } = await open(path, 1280);
      const names = await page.locator('svg.chart[role="img"]').evaluateAll((svgs) =>
        svgs.map((s) =>
          (s.getAttribute('aria-labelledby') ?? '')
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' '),
        ),
      );
      expect(
        names.some((n) => name.test(n)),
        `${path}: ${names.join(' | ')}`,
      ).toBe(true);
      const shot = { '/rtp/book-of-dead': 'chart-ladder.png', '/providers/playngo': 'chart-histogram.png' }[path];
      if (shot !== undefined) await writeFile(nodePath.join(screenshotDir(shots!), shot), await page.locator('figure.chart-box').first().screenshot());
      await page.close();
    }
  });

  it('keep their marks visible against the page in light, dark and print', async () => {
    for (const [scheme, media] of [
      ['light', 'screen'],
      ['dark', 'screen'],
      ['dark', 'print'],
    ] as const) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
      await page.emulateMedia({ media, colorScheme: scheme });
      await page.goto(`${server.url}/providers/playngo`);
      const colours = await page.evaluate(() => {
        const fill = (sel: string) => getComputedStyle(document.querySelector(sel)!).fill;
        const stroke = (sel: string) => getComputedStyle(document.querySelector(sel)!).stroke;
        return {
          bg: getComputedStyle(document.body).backgroundColor,
          bar: fill('svg.chart .bar'),
          text: fill('svg.chart text'),
          median: stroke('svg.chart .mark'),
          ref: stroke('svg.chart .mark.ref'),
        };
      });
      const label = `${scheme} ${media}`;
      // WCAG 1.4.11: graphical objects at least 3:1 against what is around them; text 4.5:1.
      expect(contrast(colours.bar, colours.bg), label).toBeGreaterThanOrEqual(3);
      expect(contrast(colours.median, colours.bg), label).toBeGreaterThanOrEqual(3);
      expect(contrast(colours.ref, colours.bg), label).toBeGreaterThanOrEqual(3);
      expect(contrast(colours.text, colours.bg), label).toBeGreaterThanOrEqual(4.5);
      if (media === 'print') expect(colours.bg, label).toBe('rgb(255, 255, 255)');
      await page.close();
    }
  });
});

describe('compare page', () => {
  it('shows the games side by side in the order given, adds one from a misspelt search and removes one, keeping the URL', async () => {
    const { page, trap } = await open('/compare?slugs=book-of-dead,starburst', 1280);
    const heads = () => page.locator('[data-compare-table] thead th a:first-child').allTextContents();
    expect(await heads()).toEqual(['Book of Dead', 'Starburst']);
    const row = (label: string) => page.locator(`[data-compare-table] tbody tr:has(th:text-is("${label}")) td`).allTextContents();
    expect(await row('Stated RTP')).toEqual(['96.21% (highest)', '96.09%']);
    expect(await row('Volatility')).toEqual(['High', 'Low']);
    expect(await page.locator('[data-compare-table] svg.chart[role="img"]').count()).toBe(2);
    expect((await row('Sources'))[0]).toContain('Hand-checked: slotsscience.com (96.21%)');
    expect((await row('Sources'))[0]).toContain('Catalogue (provider page as cited by the Slotfolio catalogue, not checked here): www.playngo.com (96.21%)');

    await page.locator('#cq').fill('gatesofolympus');
    await page.getByRole('button', { name: /^Add Gates of Olympus ·/ }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-compare-table] thead th').length === 3);
    expect(await heads()).toEqual(['Book of Dead', 'Starburst', 'Gates of Olympus']);
    expect(new URL(page.url()).search).toBe('?slugs=book-of-dead,starburst,gates-of-olympus');

    await page.getByRole('button', { name: 'Remove Starburst from the comparison' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-compare-table] thead th').length === 2);
    expect(await heads()).toEqual(['Book of Dead', 'Gates of Olympus']);
    expect(new URL(page.url()).search).toBe('?slugs=book-of-dead,gates-of-olympus');
    expect(trap).toEqual({ errors: [], dialogs: [], consoleErrors: [] });
    await page.close();
  });

  it('takes at most four games, names the unknown ones and leaves out what is not a slug', async () => {
    const { page } = await open('/compare?slugs=book-of-dead,nope-not-a-game,starburst,wolf-gold,reactoonz,fire-joker,<b>', 1280);
    await page.waitForFunction(() => document.querySelector('[data-compare-status]')?.textContent?.includes('Only the first'));
    expect(await page.locator('[data-compare-table] thead th a:first-child').allTextContents()).toEqual(['Book of Dead', 'Starburst', 'Wolf Gold']);
    const status = await page.locator('[data-compare-status]').textContent();
    expect(status).toBe(
      "Comparing 3 games. Not in the registry: nope-not-a-game. Only the first 4 games are compared; 2 more left out. 1 value is not a game's slug and left out.",
    );
    // The unknown game leaves the list: three shown, a fourth may be added.
    expect(new URL(page.url()).search).toBe('?slugs=book-of-dead,starburst,wolf-gold');
    expect(await page.locator('#cq').isDisabled()).toBe(false);
    await page.close();
  });

  it('stops adding at four games', async () => {
    const { page } = await open('/compare?slugs=book-of-dead,starburst,wolf-gold,reactoonz', 1280);
    expect(await page.locator('#cq').isDisabled()).toBe(true);
    expect(await page.locator('#cq').getAttribute('placeholder')).toBe('4 games at most: remove one to add another');
    await page.close();
  });

  it('is linked from every game page', async () => {
    const { page } = await open('/rtp/book-of-dead', 1280);
    await page.getByRole('link', { name: 'Compare with other games…' }).click();
    await page.waitForSelector('[data-compare-region]:not([hidden]) table tbody tr');
    expect(new URL(page.url()).search).toBe('?slugs=book-of-dead');
    await page.close();
  });
});
