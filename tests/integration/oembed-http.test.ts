// Link previews as served by the real server over the shipped data: game pages carry Open Graph and
// Twitter tags and the oEmbed discovery link; following that link (and a widget's) answers an
// oEmbed 1.0 `rich` response whose iframe the server serves; unknown URLs are 404, other formats
// 501, both JSON; the route is exempt from the rate limit and answers 304 to its ETag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { OembedResponseSchema } from '../../src/schemas/oembed.ts';
import { type Server, startServer, testDataDir } from '../helpers/server.ts';

let server: Server;
let bundle: RegistryBundle;
/** The served game page (fetched once: pages count against the small budget below). */
let page: string;

beforeAll(async () => {
  bundle = makeBundle(await loadRegistryOrThrow(testDataDir()));
  // A small budget on counted routes: the oEmbed route must answer past it.
  server = await startServer({ env: { RATE_LIMIT: '3' } });
  page = await (await fetch(`${server.url}/rtp/book-of-dead`)).text();
});

afterAll(async () => {
  await server?.stop();
});

const unescapeHtml = (v: string) =>
  v.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
/** The served path of an absolute URL of the build's site (the build's RTP_SITE is not this server's address). */
const local = (url: string) => {
  const u = new URL(url);
  return `${server.url}${u.pathname}${u.search}`;
};

describe('link previews', () => {
  it('a game page carries Open Graph and Twitter tags with the stated RTP, provider and canonical URL', async () => {
    const r = bundle.records.find((x) => x.canonical_slug === 'book-of-dead')!;
    const meta = (attr: string, name: string) => unescapeHtml(new RegExp(`<meta ${attr}="${name}" content="([^"]*)">`).exec(page)?.[1] ?? '');
    expect(meta('property', 'og:title')).toBe(`${r.canonical_name} RTP ${r.stated_rtp.toFixed(2)}% (${r.provider_display})`);
    expect(meta('name', 'twitter:title')).toBe(meta('property', 'og:title'));
    expect(meta('property', 'og:description')).toContain(`stated RTP ${r.stated_rtp.toFixed(2)}%`);
    const canonical = /<link rel="canonical" href="([^"]+)">/.exec(page)![1]!;
    expect(canonical).toMatch(/\/rtp\/book-of-dead$/);
    expect(meta('property', 'og:url')).toBe(canonical);
  });

  it("the page's discovery link answers an oEmbed rich response whose iframe is served", async () => {
    const href = unescapeHtml(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page)![1]!);
    const res = await fetch(local(href));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = OembedResponseSchema.parse(await res.json());
    expect(body).toMatchObject({ version: '1.0', type: 'rich', provider_name: 'RTP Registry', width: 480, height: 220 });
    const src = unescapeHtml(/<iframe src="([^"]+)"/.exec(body.html)![1]!);
    const widget = await fetch(local(src));
    expect(widget.status).toBe(200);
    const html = await widget.text();
    expect(html).toContain('<html lang="en">');
    // The widget names the same endpoint for itself.
    const own = unescapeHtml(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(html)![1]!);
    const again = await fetch(local(own));
    expect(again.status).toBe(200);
    expect(((await again.json()) as { title: string }).title).toBe(body.title);
  });

  it("passes a widget URL's operator= on to the iframe, whose page holds that operator's line", async () => {
    // The build's site: the game page's own URL, as its discovery link names it.
    const own = unescapeHtml(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page)![1]!);
    const site = new URL(own).searchParams.get('url')!.slice(0, -'/rtp/book-of-dead'.length);
    const res = await fetch(`${server.url}/api/oembed?url=${encodeURIComponent(`${site}/widget/rtp/book-of-dead?lang=de&operator=711nl&v=1`)}`);
    expect(res.status).toBe(200);
    const src = unescapeHtml(/<iframe src="([^"]+)"/.exec(OembedResponseSchema.parse(await res.json()).html)![1]!);
    expect(new URL(src).search).toBe('?lang=de&operator=711nl');
    const html = await (await fetch(local(src))).text();
    expect(html).toContain('<p class="o" data-k="711nl" hidden>711.nl<span data-t="k">: </span>');
  });

  it('is exempt from the rate limit and revalidates with its ETag', async () => {
    const href = local(unescapeHtml(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page)![1]!));
    // Spend the rest of the budget on a counted route first.
    for (let k = 0; k < 5 && (await fetch(`${server.url}/api/rtp/book-of-dead`)).status !== 429; k++);
    expect((await fetch(`${server.url}/api/rtp/book-of-dead`)).status).toBe(429);
    let etag = '';
    for (let k = 0; k < 5; k++) {
      const res = await fetch(href);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      etag = res.headers.get('etag')!;
      await res.arrayBuffer();
    }
    expect((await fetch(href, { headers: { 'If-None-Match': etag } })).status).toBe(304);
  });

  it('404 for an unknown URL and 501 for another format, as JSON', async () => {
    const missing = await fetch(`${server.url}/api/oembed?url=${encodeURIComponent('https://elsewhere.example/rtp/book-of-dead')}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ statusCode: 404, statusMessage: 'no embeddable registry page at this url' });
    const href = local(unescapeHtml(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page)![1]!)).replace(
      'format=json',
      'format=xml',
    );
    const xml = await fetch(href);
    expect(xml.status).toBe(501);
    expect(await xml.json()).toEqual({ statusCode: 501, statusMessage: 'format not implemented: only json' });
  });
});
