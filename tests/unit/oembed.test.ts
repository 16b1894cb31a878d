// GET /api/oembed in process: the oEmbed 1.0 `rich` answer for a game page or widget URL, the
// spec's statuses (404 unknown URL or a size the widget cannot fit, 501 other formats, 400 a
// missing url or bad size), escaping, and the link-preview and discovery tags of game pages.
import { beforeAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { embeddable } from '../../src/list/oembed.ts';
import type { RegistryServices } from '../../src/list/service.ts';
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { OembedResponseSchema } from '../../src/schemas/oembed.ts';
import { gameHead } from '../../src/site/game-page.ts';
import { shippedBundle } from '../helpers/shipped.ts';

const SITE = 'https://rtp.example.org/registry';
let bundle: RegistryBundle;
let services: RegistryServices;
beforeAll(async () => {
  bundle = shippedBundle();
  services = servicesFor(bundle, { site: SITE });
});

const ask = (query: Record<string, string>) => {
  const r = services.oembed(new URLSearchParams(query).toString());
  return { status: r.status, headers: r.headers, body: JSON.parse(r.body.toString('utf8')) as Record<string, unknown> };
};

describe('GET /api/oembed', () => {
  it('answers a game page URL with the widget iframe, title, provider and sizes', () => {
    const r = ask({ url: `${SITE}/rtp/book-of-dead`, format: 'json' });
    expect(r.status).toBe(200);
    expect(r.headers['Cache-Control']).toBe('public, max-age=3600, s-maxage=3600');
    expect(OembedResponseSchema.parse(r.body)).toEqual({
      version: '1.0',
      type: 'rich',
      title: "Book of Dead RTP 96.21% (Play'n GO)",
      author_name: "Play'n GO",
      author_url: `${SITE}/providers/playngo`,
      provider_name: 'RTP Registry',
      provider_url: `${SITE}/`,
      cache_age: 3600,
      html: `<iframe src="${SITE}/widget/rtp/book-of-dead" width="480" height="220" frameborder="0" loading="lazy" title="Book of Dead RTP"></iframe>`,
      width: 480,
      height: 220,
    });
  });

  it('takes a widget URL with its options, and fits maxwidth', () => {
    const r = ask({ url: `${SITE}/widget/rtp/book-of-dead?theme=dark&lang=de&radius=0&evil="><script>`, maxwidth: '320', maxheight: '600' });
    expect(r.status).toBe(200);
    expect(r.body.width).toBe(320);
    expect(r.body.html).toBe(
      `<iframe src="${SITE}/widget/rtp/book-of-dead?theme=dark&amp;radius=0&amp;lang=de" width="320" height="220" frameborder="0" loading="lazy" title="Book of Dead RTP"></iframe>`,
    );
  });

  it('carries operator= from a widget URL into the iframe, as the widget reads it', () => {
    const r = ask({ url: `${SITE}/widget/rtp/book-of-dead?operator=711nl&lang=fr` });
    expect(r.body.html).toContain(`src="${SITE}/widget/rtp/book-of-dead?lang=fr&amp;operator=711nl"`);
    // Not from a game page: the page's query is no widget option.
    expect(ask({ url: `${SITE}/rtp/book-of-dead?operator=711nl` }).body.html).toContain(`src="${SITE}/widget/rtp/book-of-dead"`);
  });

  it('404 for a URL that is no game page or widget of this registry', () => {
    for (const url of [
      `${SITE}/rtp/no-such-game`,
      'https://elsewhere.example/rtp/book-of-dead',
      `${SITE}/about`,
      `${SITE}/rtp/book-of-dead/x`,
      'not a url',
      `${SITE}x/rtp/book-of-dead`,
    ]) {
      const r = ask({ url });
      expect(r.status, url).toBe(404);
      expect(r.body).toEqual({ statusCode: 404, statusMessage: 'no embeddable registry page at this url' });
    }
    expect(ask({ url: `${SITE}/rtp/book-of-dead`, maxheight: '100' }).body).toEqual({
      statusCode: 404,
      statusMessage: 'the widget needs at least 200 px of width and 220 px of height',
    });
  });

  it("embeds the surviving record's widget for the page or widget URL of a merged slug", () => {
    for (const url of [`${SITE}/rtp/big-bass-splash-reel-kingdom`, `${SITE}/widget/rtp/big-bass-splash-reel-kingdom?theme=dark`]) {
      const r = ask({ url });
      expect(r.status, url).toBe(200);
      const survivor = ask({ url: url.replace('-reel-kingdom', '') });
      expect(r.body, url).toEqual(survivor.body);
      expect(String(r.body.html)).toContain(`src="${SITE}/widget/rtp/big-bass-splash`);
    }
  });

  it('501 for a format other than json; 400 naming a missing url or a bad size', () => {
    expect(ask({ url: `${SITE}/rtp/book-of-dead`, format: 'xml' })).toMatchObject({
      status: 501,
      body: { statusCode: 501, statusMessage: 'format not implemented: only json' },
    });
    expect(ask({ maxwidth: 'wide' })).toMatchObject({
      status: 400,
      body: {
        statusCode: 400,
        statusMessage: 'invalid query parameters',
        errors: [
          { param: 'maxwidth', message: 'must be a whole number of pixels from 1 to 100000' },
          { param: 'url', message: 'is required: the URL of a game page or widget of this registry' },
        ],
      },
    });
  });

  it('matches only paths under the site it was built for', () => {
    expect(embeddable(SITE, `${SITE}/rtp/book-of-dead?x=1#y`)).toMatchObject({ slug: 'book-of-dead' });
    expect(embeddable(SITE, 'https://rtp.example.org/rtp/book-of-dead')).toBeNull();
  });
});

describe('game page link previews', () => {
  it('carry Open Graph and Twitter tags, the canonical URL and the oEmbed discovery link', () => {
    const r = bundle.records.find((x) => x.canonical_slug === 'book-of-dead')!;
    const head = gameHead(r, SITE);
    const url = `${SITE}/rtp/book-of-dead`;
    expect(head).toContain(`<link rel="canonical" href="${url}">`);
    expect(head).toContain(`<meta property="og:title" content="Book of Dead RTP 96.21% (Play&#39;n GO)">`);
    expect(head).toContain(`<meta property="og:url" content="${url}">`);
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(head).toContain(`<meta property="og:image" content="${SITE}/api/og/rtp/book-of-dead.png">`);
    expect(head).toContain(`<meta name="twitter:image" content="${SITE}/api/og/rtp/book-of-dead.png">`);
    expect(head).toMatch(/<meta property="og:description" content="Book of Dead \(Play&#39;n GO\): stated RTP 96\.21%[^"]*">/);
    expect(head).toContain(`<link rel="alternate" type="application/json+oembed" href="${SITE}/api/oembed?url=${encodeURIComponent(url)}&amp;format=json"`);
  });
});
