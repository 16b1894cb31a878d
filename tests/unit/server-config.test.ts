// Server settings from the environment.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config.ts';

describe('readConfig', () => {
  it('defaults to 127.0.0.1:4321, dist/, 1,000 requests per 24 h, no trusted proxy', () => {
    expect(readConfig({})).toEqual({
      host: '127.0.0.1', port: 4321, outDir: path.resolve('dist'), rateLimit: 1000, rateLimitWindowMs: 86_400_000, rateLimitMaxKeys: 200_000,
      trustProxy: 0, staticCacheBytes: 16 * 1024 * 1024, listCacheBytes: 8 * 1024 * 1024, searchCacheBytes: 16 * 1024 * 1024, shutdownTimeoutMs: 10_000,
    });
  });

  it('reads every setting', () => {
    expect(readConfig({ HOST: '0.0.0.0', PORT: '0', RTP_OUT_DIR: '/tmp/x', RATE_LIMIT: '0', RATE_LIMIT_WINDOW_MS: '60000', RATE_LIMIT_MAX_KEYS: '10', TRUST_PROXY: '2', STATIC_CACHE_MB: '1', LIST_CACHE_MB: '2', SEARCH_CACHE_MB: '3', SHUTDOWN_TIMEOUT_MS: '5' })).toEqual({
      host: '0.0.0.0', port: 0, outDir: '/tmp/x', rateLimit: 0, rateLimitWindowMs: 60_000, rateLimitMaxKeys: 10, trustProxy: 2,
      staticCacheBytes: 1024 * 1024, listCacheBytes: 2 * 1024 * 1024, searchCacheBytes: 3 * 1024 * 1024, shutdownTimeoutMs: 5,
    });
  });

  it('refuses bad values, naming all of them', () => {
    expect(() => readConfig({ PORT: '70000', TRUST_PROXY: 'yes', RATE_LIMIT: '-1' })).toThrow(
      'Invalid server settings:\nPORT="70000": must be an integer from 0 to 65535\nRATE_LIMIT="-1": must be an integer from 0 to 1000000000\nTRUST_PROXY="yes": must be an integer from 0 to 100',
    );
  });
});
