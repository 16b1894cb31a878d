// Request-target normalisation: decoding once and refusing paths that could leave dist/client.
import { describe, expect, it } from 'vitest';
import { MAX_PATH_LENGTH, normalizeTarget } from '../../src/server/request-target.ts';

describe('normalizeTarget', () => {
  it('splits path and query, decoding the path once', () => {
    expect(normalizeTarget('/api/rtp/list?q=book%20of&limit=2')).toEqual({ ok: true, pathname: '/api/rtp/list', search: 'q=book%20of&limit=2' });
    expect(normalizeTarget('/widget/rtp/b%C3%B6%C3%B6k')).toEqual({ ok: true, pathname: '/widget/rtp/böök', search: '' });
    expect(normalizeTarget('/a%2520b')).toEqual({ ok: true, pathname: '/a%20b', search: '' });
    expect(normalizeTarget('/')).toEqual({ ok: true, pathname: '/', search: '' });
    expect(normalizeTarget('/api/rtp/list?')).toEqual({ ok: true, pathname: '/api/rtp/list', search: '' });
  });

  it('reduces absolute-form targets to their path', () => {
    expect(normalizeTarget('http://example.com/api/rtp/list?q=a')).toEqual({ ok: true, pathname: '/api/rtp/list', search: 'q=a' });
    expect(normalizeTarget('http://example.com')).toEqual({ ok: true, pathname: '/', search: '' });
  });

  it.each([
    '/../etc/passwd',
    '/api/rtp/../../etc/passwd',
    '/api/rtp/%2e%2e/%2e%2e/etc/passwd',
    '/api/rtp/%2E%2E',
    '/api/rtp/.',
    '/api/./rtp/list',
    '/api/rtp/..%2fserver%2fregistry-bundle.json',
    '/api/rtp/..%2Fx',
    '/api%2frtp%2flist',
    '/api/rtp/%5c..%5cx',
    '/api/rtp/a\\b',
    '/api/rtp/%00',
    '/api/rtp/book-of-dead%00.json',
    '/api/rtp/a%0ab',
    '/api//rtp/list',
    '//etc/passwd',
    '/api/rtp/%E0%A4%A',
    '/api/rtp/%',
    `/${'a'.repeat(MAX_PATH_LENGTH)}`,
    '*',
    '',
    'api/rtp/list',
    'ftp://example.com/x',
  ])('refuses %s', (target) => {
    expect(normalizeTarget(target).ok).toBe(false);
  });

  it('keeps a dotted file name that is not a dot segment', () => {
    expect(normalizeTarget('/api/openapi.json')).toMatchObject({ ok: true, pathname: '/api/openapi.json' });
    expect(normalizeTarget('/_astro/app.abc123.js')).toMatchObject({ ok: true });
    expect(normalizeTarget('/a/..b')).toMatchObject({ ok: true, pathname: '/a/..b' });
  });
});
