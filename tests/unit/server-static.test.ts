// Static file mapping: which URL a dist/client file answers, and where a URL's file is.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyedFile, urlOfFile } from '../../src/routes/paths.ts';
import { contentTypeOf } from '../../src/server/mime.ts';

describe('urlOfFile', () => {
  it.each([
    ['index.html', '/'],
    ['about.html', '/about'],
    ['providers/netent.html', '/providers/netent'],
    ['docs/index.html', '/docs'],
    ['api/openapi.json', '/api/openapi.json'],
    ['_astro/app.123.js', '/_astro/app.123.js'],
    ['favicon.svg', '/favicon.svg'],
    ['404.html', null],
    ['500.html', null],
    ['_headers', null],
    ['_redirects', null],
    ['.well-known/x', null],
    ['a/.hidden', null],
  ])('%s → %s', (rel, url) => {
    expect(urlOfFile(rel)).toEqual(url === null ? null : { path: url, keyed: false });
  });

  it.each([
    ['api/rtp/book-of-dead', '/api/rtp/book-of-dead'],
    ['api/rtp/provider/playngo', '/api/rtp/provider/playngo'],
    ['api/widget/rtp/book-of-dead', '/api/widget/rtp/book-of-dead'],
    ['widget/rtp/book-of-dead.html', '/widget/rtp/book-of-dead'],
    ['rtp/book-of-dead.html', '/rtp/book-of-dead'],
  ])('keyed file %s → %s, and back', (rel, url) => {
    expect(urlOfFile(rel)).toEqual({ path: url, keyed: true });
    expect(keyedFile(url)?.file).toBe(rel);
  });
});

describe('contentTypeOf', () => {
  it.each([
    ['a.html', 'text/html; charset=utf-8'],
    ['a.JSON', 'application/json; charset=utf-8'],
    ['_astro/x.css', 'text/css; charset=utf-8'],
    ['x.woff2', 'font/woff2'],
    ['noext', 'application/octet-stream'],
    [path.posix.join('dir.v1', 'file'), 'application/octet-stream'],
  ])('%s → %s', (name, type) => {
    expect(contentTypeOf(name)).toBe(type);
  });
});
