// The widget's operator line (`operator=<key>`) in real Chromium over the real server: the line in
// English, German and French at 600 and 320 px inside the 220 px frame (nothing clipped), a lower build,
// and no line for an unknown key or a game the operator's pinned catalogue does not list.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { percent } from '../../src/lib/percent.ts';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { launchBrowser, type Trap, trapPage } from '../helpers/browser.ts';
import { type Server, startServer, testDataDir } from '../helpers/server.ts';

let server: Server;
let browser: Browser;
let bundle: RegistryBundle;

beforeAll(async () => {
  bundle = makeBundle(await loadRegistryOrThrow(testDataDir()));
  server = await startServer(); // the build under test (tests/helpers/global-setup.ts)
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const clean = (trap: Trap) => expect(trap).toEqual({ errors: [], dialogs: [], consoleErrors: [] });

/** What the widget shows at a size: the shown operator lines' text, the variants line, and whether anything is cut off. */
interface Seen {
  lines: string[];
  variantsShown: boolean;
  lang: string;
  /** Elements whose box ends below the inside of the widget's border, or an operator line that overflows sideways (clipped text). */
  clipped: string[];
  sideways: number;
}

async function see(slug: string, query: string, width: number): Promise<{ seen: Seen; trap: Trap }> {
  const page: Page = await browser.newPage({ viewport: { width, height: 220 } });
  const trap = trapPage(page);
  await page.goto(`${server.url}/widget/rtp/${slug}?${query}`);
  await page.waitForLoadState('domcontentloaded');
  const seen = await page.evaluate(() => {
    const main = document.querySelector('main')!;
    // The frame clips at the inside of the widget's border (overflow: hidden).
    const bottom = main.getBoundingClientRect().bottom - Number.parseFloat(getComputedStyle(main).borderBottomWidth);
    const shown = [...document.querySelectorAll<HTMLElement>('main p, main footer')].filter((n) => n.offsetParent !== null);
    return {
      lines: [...document.querySelectorAll<HTMLElement>('p.o')].filter((n) => !n.hidden).map((n) => n.textContent!),
      variantsShown: document.querySelector<HTMLElement>('p.z')!.offsetParent !== null,
      lang: document.documentElement.lang,
      clipped: shown
        .filter((n) => n.getBoundingClientRect().bottom > bottom + 0.5 || (n.classList.contains('o') && n.scrollWidth > n.clientWidth + 1))
        .map((n) => n.className),
      sideways: document.documentElement.scrollWidth - window.innerWidth,
    };
  });
  await page.close();
  return { seen, trap };
}

describe('widget operator line (operator=)', () => {
  // Book of Dead: 711.nl's catalogue, pinned 2026-11-28, showed 96.21%, the stated RTP (the top build).
  const BOOK: Record<string, string> = {
    en: '711.nl: 96.21% (top build) · catalogue as pinned 2026-11-28',
    de: '711.nl: 96,21\u00a0% (höchste Version) · Katalogstand vom 28.11.2026',
    fr: '711.nl\u00a0: 96,21\u202f% (version maximale) · catalogue au 28/11/2026',
  };

  it('shows the line in the chosen language, in place of the variants as text, unclipped at 600 and 320 px', async () => {
    for (const [lang, line] of Object.entries(BOOK)) {
      for (const width of [600, 320]) {
        const { seen, trap } = await see('book-of-dead', `operator=711nl&lang=${lang}&v=1`, width);
        expect(seen, `${lang} ${width}`).toEqual({ lines: [line], variantsShown: false, lang, clipped: [], sideways: 0 });
        clean(trap);
      }
    }
  });

  it('names a lower build with its figure, and fits the longest game name and build label', async () => {
    const lower = bundle.records.find((r) => r.operators.some((o) => o.operator === '711nl' && o.build === 'lower'))!;
    const o = lower.operators.find((x) => x.operator === '711nl')!;
    const { seen } = await see(lower.canonical_slug, 'operator=711nl', 320);
    expect(seen.lines).toEqual([`711.nl: ${percent(o.rtp)} (lower build) · catalogue as pinned ${o.source.pinned_at.slice(0, 10)}`]);
    expect(seen.clipped).toEqual([]);
    // The longest label of the six languages, on a game with an operator line.
    const higher = bundle.records.find((r) => r.operators.some((x) => x.operator === '711nl' && x.build === 'higher'))!;
    const fr = await see(higher.canonical_slug, 'operator=711nl&lang=fr', 320);
    expect(fr.seen.lines[0]).toContain('(au-dessus de l’annonce)');
    expect(fr.seen.clipped).toEqual([]);
  });

  it('an unknown, empty or hostile key, or a game the catalogue does not list: the widget as without the option', async () => {
    const plain = (await see('book-of-dead', 'v=1', 320)).seen;
    expect(plain).toMatchObject({ lines: [], variantsShown: true });
    for (const q of ['operator=nope', 'operator=', 'operator=711NL', 'operator=__proto__', 'operator=%22%5D%2C*%5Bdata-k', `operator=${'7'.repeat(500)}`]) {
      const { seen, trap } = await see('book-of-dead', q, 320);
      expect(seen, q).toEqual(plain);
      clean(trap);
    }
    const unlisted = bundle.records.find((r) => r.operators.length === 0)!;
    const { seen } = await see(unlisted.canonical_slug, 'operator=711nl&lang=de', 320);
    expect(seen).toMatchObject({ lines: [], variantsShown: true, lang: 'de', clipped: [] });
  });
});
