// Hostile text in the data executes nothing: a fixture registry (tests/fixtures/xss) whose game names,
// provider name, notes and source URL hold <img onerror>, <script>, </textarea> and quote breakers is
// built and served for real; the widget, game pages, provider page and search results are visited with
// traps for errors, dialogs and console errors, and checked for elements created from the text.
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistry, launchBrowser, removeTemp, type Trap, tempDir, trapPage } from '../helpers/browser.ts';
import { type Server, startServer } from '../helpers/server.ts';

const NAME = `Book of <img src=x onerror="window.__xss='name';alert(1)"> XSS`;
const QUOTE_NAME = `Quote" onmouseover="window.__xss='attr'" ' </iframe></textarea><svg onload=alert(3)>`;
let out: string | undefined;
let server: Server;
let browser: Browser;

beforeAll(async () => {
  out = await tempDir('rtp-e2e-xss-');
  await buildRegistry('tests/fixtures/xss', out);
  server = await startServer({ outDir: out });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeTemp(out);
});

/** Elements no page of the registry has, unless created from data; and the flag every payload would set. */
function injected(target: Page | Frame): Promise<{ imgs: number; svgs: number; payloadScripts: number; xss: unknown; handlers: string[] }> {
  return target.evaluate(() => ({
    imgs: document.querySelectorAll('img').length,
    // The widget's ladder and the site's charts (an svg.chart as the first child of a figure.chart-box,
    // with its own title and desc) are the only svgs any page has.
    svgs: [...document.querySelectorAll('svg')].filter((s) => {
      if (s.closest('main.c') !== null) return false;
      const chart = s.matches('figure.chart-box > svg.chart:first-child') && s.children[0]?.tagName === 'title' && s.children[1]?.tagName === 'desc';
      return !chart || s.querySelector('svg, script, foreignObject, image, a') !== null;
    }).length,
    payloadScripts: [...document.scripts].filter((s) => /__xss|alert\(/.test(s.textContent ?? '')).length,
    xss: (window as unknown as { __xss?: unknown }).__xss ?? null,
    handlers: [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}.${a.name}`)),
  }));
}

const nothing = { imgs: 0, svgs: 0, payloadScripts: 0, xss: null, handlers: [] };
const clean = (trap: Trap) => expect(trap).toEqual({ errors: [], dialogs: [], consoleErrors: [] });

async function visit(path: string): Promise<{ page: Page; trap: Trap }> {
  const page = await browser.newPage();
  const trap = trapPage(page);
  const res = await page.goto(`${server.url}${path}`);
  expect(res!.status(), path).toBe(200);
  return { page, trap };
}

describe('hostile names execute nothing', () => {
  it('widget page shows the name as text', async () => {
    const { page, trap } = await visit('/widget/rtp/book-of-xss?theme=dark');
    await page.hover('h1');
    expect(await page.locator('h1').textContent()).toBe(NAME);
    expect(await injected(page)).toEqual(nothing);
    clean(trap);
    await page.close();
  });

  for (const slug of ['book-of-xss', 'quote-breaker']) {
    it(`game page /rtp/${slug}: text stays text, also after using the embed builder`, async () => {
      const { page, trap } = await visit(`/rtp/${slug}`);
      expect(await page.locator('h1').textContent()).toBe(slug === 'book-of-xss' ? NAME : QUOTE_NAME);
      await page.hover('h1');
      await page.locator('#eb-theme').selectOption('dark');
      await page.locator('#eb-radius').fill('0');
      await page.waitForFunction(() => document.querySelector('[data-embed-preview]')?.getAttribute('src')?.includes('radius=0'));
      const frame = (await (await page.$('[data-embed-preview]'))!.contentFrame())!;
      await frame.waitForSelector('main.c h1');
      expect(await injected(page)).toEqual(nothing);
      expect(await injected(frame)).toEqual(nothing);
      // The embed code holds the name escaped: parsing it yields one iframe and one link, nothing else.
      const parsed = await page.evaluate(() => {
        const doc = new DOMParser().parseFromString(document.querySelector<HTMLTextAreaElement>('[data-embed-snippet]')!.value, 'text/html');
        return { tags: [...doc.body.querySelectorAll('*')].map((e) => e.tagName), title: doc.querySelector('iframe')!.title };
      });
      expect(parsed.tags).toEqual(['IFRAME', 'P', 'A']);
      expect(parsed.title).toBe(`${slug === 'book-of-xss' ? NAME : QUOTE_NAME} RTP · RTP Registry`);
      clean(trap);
      await page.close();
    });
  }

  it('search results render the names as text (pre-rendered and fetched)', async () => {
    const { page, trap } = await visit('/');
    expect(await page.locator('[data-search-results] a.name').allTextContents()).toContain(NAME);
    expect(await injected(page)).toEqual(nothing);
    await page.waitForSelector('form[data-search-form][data-ready="true"]');
    await page.locator('#q').pressSequentially('book', { delay: 20 });
    await page.waitForSelector('[data-search-results][data-query="q=book"]', { state: 'attached' });
    expect(await page.locator('[data-search-results] a.name').allTextContents()).toEqual([NAME]);
    await page.locator('#q').fill('');
    await page.locator('#q').pressSequentially('quote', { delay: 20 });
    await page.waitForSelector('[data-search-results][data-query="q=quote"]', { state: 'attached' });
    expect(await page.locator('[data-search-results] a.name').allTextContents()).toEqual([QUOTE_NAME]);
    const providerOptions = await page.locator('#provider option').allTextContents();
    expect(providerOptions.some((o) => o.startsWith("Evil <script>window.__xss='provider'</script> Games"))).toBe(true);
    expect(await injected(page)).toEqual(nothing);
    clean(trap);
    await page.close();
  });

  for (const slug of ['book-of-xss', 'quote-breaker']) {
    it(`RTP badge /api/badge/rtp/${slug}.svg: an SVG of text only, its title the name as text`, async () => {
      const { page, trap } = await visit(`/api/badge/rtp/${slug}.svg`);
      const badge = await page.evaluate(() => ({
        root: document.documentElement.tagName,
        tags: [...new Set([...document.querySelectorAll('*')].map((el) => el.tagName))].sort(),
        title: document.querySelector('title')?.textContent ?? null,
        label: document.documentElement.getAttribute('aria-label'),
        handlers: [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
        xss: (window as unknown as { __xss?: unknown }).__xss ?? null,
      }));
      expect(badge.root).toBe('svg');
      expect(badge.tags).toEqual(['g', 'rect', 'svg', 'text', 'title']);
      expect(badge.title).toMatch(
        new RegExp(`^${(slug === 'book-of-xss' ? NAME : QUOTE_NAME).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(.+\\): provider-stated RTP \\d+\\.\\d\\d%$`),
      );
      expect(badge.label).toMatch(/^RTP: \d+\.\d\d%$/);
      expect(badge.handlers).toEqual([]);
      expect(badge.xss).toBeNull();
      clean(trap);
      await page.close();
    });
  }

  it('provider page and provider index', async () => {
    for (const path of ['/providers/evil-games', '/providers', '/about']) {
      const { page, trap } = await visit(path);
      expect(await injected(page), path).toEqual(nothing);
      clean(trap);
      await page.close();
    }
  });
});
