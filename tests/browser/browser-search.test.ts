// The search page in a real browser over the real server: the pre-rendered first page without
// JavaScript, typing `book` finds "Book of Dead", filters (casino catalogue and build too), paging and the URL state, accessibility basics.
// RTP_SCREENSHOTS=1 writes docs/screenshots/search.png (a committed image).
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import type { RegistryServices } from '../../src/list/service.ts';
import { makeBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import type { ListResponse } from '../../src/schemas/list.ts';
import { LIST_ITEM_SHOWN } from '../../src/site/list-item.ts';
import { launchBrowser, removeTemp, screenshotDir, type Trap, tempDir, trapPage } from '../helpers/browser.ts';
import { type Server, startServer, testDataDir } from '../helpers/server.ts';

let shots: string | undefined;
let server: Server;
let browser: Browser;
let services: RegistryServices;
let attribution: string;

/** The list route's answer computed in-process, independent of the page. */
function expected(query: string): ListResponse {
  return JSON.parse(services.list(query).body.toString()) as ListResponse;
}

beforeAll(async () => {
  shots = await tempDir('rtp-e2e-shots-');
  const bundle = makeBundle(await loadRegistryOrThrow(testDataDir()));
  services = servicesFor(bundle);
  attribution = bundle.meta.attribution;
  server = await startServer(); // the build under test (tests/helpers/global-setup.ts)
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeTemp(shots);
});

async function resultNames(page: Page): Promise<string[]> {
  return page.locator('[data-search-results] li a.name').allTextContents();
}

async function waitForQuery(page: Page, query: string): Promise<void> {
  await page.waitForSelector(`[data-search-results][data-query="${query}"]`, { state: 'attached', timeout: 30_000 });
}

const clean = (trap: Trap) => expect(trap).toEqual({ errors: [], dialogs: [], consoleErrors: [] });

describe('search page without JavaScript', () => {
  it('shows the first page of the default query, pre-rendered, with a plain GET form', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const res = await page.goto(`${server.url}/`);
    expect(res!.status()).toBe(200);
    const first = expected('');
    expect(await resultNames(page)).toEqual(first.items.map((r) => r.canonical_name));
    expect(await page.locator('[data-search-status]').textContent()).toBe(
      `Showing 1–50 of ${first.meta.filtered} games (${first.meta.total} in the registry).`,
    );
    expect(await page.locator('form[data-search-form]').getAttribute('method')).toBe('get');
    expect(await page.locator('form[data-search-form]').getAttribute('action')).toBe('/api/rtp/list');
    // Header: data version and freeze time; footer: licence and how to cite.
    expect(await page.locator('header .dataset').textContent()).toBe(`Data version ${first.meta.data_version}, frozen ${first.meta.frozen_at.slice(0, 10)}`);
    expect(await page.locator('header .dataset time').getAttribute('datetime')).toBe(first.meta.frozen_at);
    const footer = await page.locator('footer').textContent();
    expect(footer).toContain('CC BY 4.0');
    expect(footer).toContain(`Cite as: ${attribution}, data version ${first.meta.data_version}`);
    await context.close();
  });
});

describe('search page with JavaScript', () => {
  it('finds "Book of Dead" by typing `book`, and links to its page', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 640 } });
    const trap = trapPage(page);
    // The page asks the list route for just the fields a result line shows.
    const asked: URL[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/rtp/list?')) asked.push(new URL(r.url()));
    });
    await page.goto(`${server.url}/`);
    await page.waitForSelector('form[data-search-form][data-ready="true"]');
    await page.locator('#q').pressSequentially('book', { delay: 30 });
    await waitForQuery(page, 'q=book');
    expect(asked.length).toBeGreaterThan(0);
    for (const url of asked) expect(url.searchParams.get('fields')).toBe(LIST_ITEM_SHOWN.join(','));
    const names = await resultNames(page);
    expect(names).toContain('Book of Dead');
    // With a search, the page asks for the best match first.
    expect(names).toEqual(expected('q=book&sort=relevance').items.map((r) => r.canonical_name));
    expect(new URL(page.url()).search).toBe('?q=book');
    const want = expected('q=book&sort=relevance');
    expect(await page.locator('[data-search-status]').textContent()).toBe(
      `Showing 1–${want.items.length} of ${want.meta.filtered} games (${want.meta.total} in the registry).`,
    );
    await page.screenshot({ path: path.join(screenshotDir(shots!), 'search.png') });
    await page.getByRole('link', { name: 'Book of Dead', exact: true }).click();
    await page.waitForURL('**/rtp/book-of-dead');
    expect(await page.locator('h1').textContent()).toBe('Book of Dead');
    clean(trap);
    await page.close();
  });

  it('filters by provider with facet counts, pages, and keeps the state in the URL (back button included)', async () => {
    const page = await browser.newPage();
    const trap = trapPage(page);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('form[data-search-form][data-ready="true"]');
    await page.locator('#has_variants').check();
    await waitForQuery(page, 'has_variants=1');
    expect(await resultNames(page)).toEqual(expected('has_variants=1').items.map((r) => r.canonical_name));
    const facet = expected('has_variants=1').facets.providers[0]!;
    const option = page.locator(`#provider option[value="${facet.provider}"]`);
    expect(await option.textContent()).toBe(`${facet.display} (${facet.count})`);
    await page.locator('#provider').selectOption(facet.provider);
    await waitForQuery(page, `provider=${facet.provider}&has_variants=1`);
    expect(await resultNames(page)).toEqual(expected(`provider=${facet.provider}&has_variants=1`).items.map((r) => r.canonical_name));

    await page.locator('#has_variants').uncheck();
    await page.locator('#provider').selectOption('');
    await waitForQuery(page, '');
    await page.locator('#sort').selectOption('rtp_desc');
    await waitForQuery(page, 'sort=rtp_desc');
    await page.locator('[data-next]').click();
    await waitForQuery(page, 'sort=rtp_desc&offset=50');
    expect(await resultNames(page)).toEqual(expected('sort=rtp_desc&offset=50').items.map((r) => r.canonical_name));
    expect(await page.locator('[data-prev]').isDisabled()).toBe(false);
    await page.goBack();
    await waitForQuery(page, 'sort=rtp_desc');
    expect(await page.locator('#sort').inputValue()).toBe('rtp_desc');
    expect(await resultNames(page)).toEqual(expected('sort=rtp_desc').items.map((r) => r.canonical_name));
    clean(trap);
    await page.close();
  });

  it('filters by casino catalogue and build with facet counts, in the URL, and opens such a URL again', async () => {
    const page = await browser.newPage();
    const trap = trapPage(page);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('form[data-search-form][data-ready="true"]');
    // The pre-rendered options carry the unfiltered counts.
    const all = expected('').facets;
    expect(await page.locator('#operator option[value="711nl"]').textContent()).toBe(`711.nl (${all.operators.find((o) => o.operator === '711nl')!.count})`);
    await page.locator('#operator').selectOption('711nl');
    await waitForQuery(page, 'operator=711nl');
    expect(await resultNames(page)).toEqual(expected('operator=711nl').items.map((r) => r.canonical_name));
    const lower = expected('operator=711nl').facets.operator_builds.find((b) => b.operator_build === 'lower')!;
    expect(lower.count).toBeGreaterThan(0);
    expect(await page.locator('#operator_build option[value="lower"]').textContent()).toBe(`A lower build (${lower.count})`);
    await page.locator('#operator_build').selectOption('lower');
    await waitForQuery(page, 'operator=711nl&operator_build=lower');
    const want = expected('operator=711nl&operator_build=lower');
    expect(want.meta.filtered).toBe(lower.count);
    expect(await resultNames(page)).toEqual(want.items.map((r) => r.canonical_name));
    expect(new URL(page.url()).search).toBe('?operator=711nl&operator_build=lower');
    await page.goBack();
    await waitForQuery(page, 'operator=711nl');
    expect(await page.locator('#operator_build').inputValue()).toBe('');
    // A shared URL: the form shows its filters, the results answer them.
    await page.goto(`${server.url}/?q=book&operator_build=higher`);
    await waitForQuery(page, 'q=book&operator_build=higher');
    expect(await page.locator('#operator_build').inputValue()).toBe('higher');
    expect(await page.locator('#operator').inputValue()).toBe('');
    expect(await resultNames(page)).toEqual(expected('q=book&operator_build=higher&sort=relevance').items.map((r) => r.canonical_name));
    clean(trap);
    await page.close();
  });

  it('opens a shared URL with its query applied to the form and the results', async () => {
    const page = await browser.newPage();
    const trap = trapPage(page);
    await page.goto(`${server.url}/?q=dead&sort=rtp_asc`);
    await waitForQuery(page, 'q=dead&sort=rtp_asc');
    expect(await page.locator('#q').inputValue()).toBe('dead');
    expect(await page.locator('#sort').inputValue()).toBe('rtp_asc');
    expect(await resultNames(page)).toEqual(expected('q=dead&sort=rtp_asc').items.map((r) => r.canonical_name));
    clean(trap);
    await page.close();
  });

  it('forgives a misspelt search, typed with the keyboard only, and opens the game from the keyboard', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 640 } });
    const trap = trapPage(page);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('form[data-search-form][data-ready="true"]');
    // Skip link, then the first control of the content is the search field.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    const focus = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(focus).not.toBe('none'); // visible focus
    await page.keyboard.type('bok of ded', { delay: 20 });
    await page.keyboard.press('Enter');
    await waitForQuery(page, 'q=bok+of+ded');
    expect((await resultNames(page))[0]).toBe('Book of Dead');
    expect(await resultNames(page)).toEqual(expected('q=bok+of+ded&sort=relevance').items.map((r) => r.canonical_name));
    // Tab through the form's controls to the first result and open it.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.textContent === 'Book of Dead')) break;
    }
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Book of Dead');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/rtp/book-of-dead');
    clean(trap);
    await page.close();
  });

  it('says so when nothing matches', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/?q=zzqqxx`);
    await waitForQuery(page, 'q=zzqqxx');
    expect(await resultNames(page)).toEqual([]);
    expect(await page.locator('[data-search-status]').textContent()).toBe(`No games match (${expected('').meta.total} in the registry).`);
    await page.close();
  });
});

describe('accessibility basics', () => {
  for (const p of ['/', '/rtp/book-of-dead', '/providers/playngo', '/providers', '/about', '/compare?slugs=book-of-dead']) {
    it(`${p}: one h1, a language, labelled controls, a working skip link`, async () => {
      const page = await browser.newPage();
      await page.goto(`${server.url}${p}`);
      const facts = await page.evaluate(() => ({
        lang: document.documentElement.lang,
        h1: document.querySelectorAll('h1').length,
        unlabelled: [...document.querySelectorAll<HTMLInputElement>('input, select, textarea')]
          .filter((el) => el.type !== 'hidden' && (el.labels?.length ?? 0) === 0 && !el.getAttribute('aria-label'))
          .map((el) => el.outerHTML),
        imagesWithoutAlt: [...document.querySelectorAll('img:not([alt])')].length,
        iframesWithoutTitle: [...document.querySelectorAll('iframe:not([title])')].length,
      }));
      expect(facts).toEqual({ lang: 'en', h1: 1, unlabelled: [], imagesWithoutAlt: 0, iframesWithoutTitle: 0 });
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
      await page.close();
    });
  }
});
