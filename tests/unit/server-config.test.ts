// Server settings from the environment.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSearchCacheBytes } from '../../src/list/memory-engine.ts';
import { memoryBudget, searchCacheBytes } from '../../src/server/budget.ts';
import { NO_PROXY } from '../../src/server/client-ip.ts';
import { readConfig } from '../../src/server/config.ts';

describe('readConfig', () => {
  it('defaults to 127.0.0.1:4321, dist/, 1,000 requests per 24 h, no trusted proxy', () => {
    expect(readConfig({})).toEqual({
      host: '127.0.0.1',
      port: 4321,
      outDir: path.resolve('dist'),
      rateLimit: 1000,
      rateLimitWindowMs: 86_400_000,
      rateLimitMaxKeys: 100_000,
      trustProxy: NO_PROXY,
      staticCacheBytes: 12 * 1024 * 1024,
      listCacheBytes: 8 * 1024 * 1024,
      searchCacheBytes: null,
      shutdownTimeoutMs: 10_000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5000,
      maxConnections: 4096,
      maxConnectionsPerAddress: 64,
      bodyTimeoutMs: 10_000,
      maxUnsentPerConnection: 1024 * 1024,
      maxUnsent: 64 * 1024 * 1024,
      cardCacheDir: path.resolve('.cache/cards'),
      cardCacheBytes: 512 * 1024 * 1024,
    });
  });

  it('reads every setting', () => {
    expect(
      readConfig({
        HOST: '0.0.0.0',
        PORT: '0',
        RTP_OUT_DIR: '/tmp/x',
        RATE_LIMIT: '0',
        RATE_LIMIT_WINDOW_MS: '60000',
        RATE_LIMIT_MAX_KEYS: '10',
        TRUST_PROXY: '2',
        STATIC_CACHE_MB: '1',
        LIST_CACHE_MB: '2',
        SEARCH_CACHE_MB: '3',
        SHUTDOWN_TIMEOUT_MS: '5',
        HEADERS_TIMEOUT_MS: '2000',
        REQUEST_TIMEOUT_MS: '3000',
        KEEP_ALIVE_TIMEOUT_MS: '0',
        MAX_CONNECTIONS: '100',
        MAX_CONNECTIONS_PER_ADDRESS: '7',
        BODY_TIMEOUT_MS: '500',
        MAX_UNSENT_KB_PER_CONNECTION: '256',
        MAX_UNSENT_MB: '16',
        CARD_CACHE_DIR: '/tmp/cards',
        CARD_CACHE_MB: '4',
      }),
    ).toEqual({
      host: '0.0.0.0',
      port: 0,
      outDir: '/tmp/x',
      rateLimit: 0,
      rateLimitWindowMs: 60_000,
      rateLimitMaxKeys: 10,
      trustProxy: expect.objectContaining({ active: true, hops: 2, text: '2 hop(s)' }),
      staticCacheBytes: 1024 * 1024,
      listCacheBytes: 2 * 1024 * 1024,
      searchCacheBytes: 3 * 1024 * 1024,
      shutdownTimeoutMs: 5,
      headersTimeoutMs: 2000,
      requestTimeoutMs: 3000,
      keepAliveTimeoutMs: 0,
      maxConnections: 100,
      maxConnectionsPerAddress: 7,
      bodyTimeoutMs: 500,
      maxUnsentPerConnection: 256 * 1024,
      maxUnsent: 16 * 1024 * 1024,
      cardCacheDir: '/tmp/cards',
      cardCacheBytes: 4 * 1024 * 1024,
    });
    expect(readConfig({ CARD_CACHE_DIR: 'off' }).cardCacheDir).toBeNull();
  });

  it('scales the search cache to the registry unless SEARCH_CACHE_MB is set', () => {
    const MiB = 1024 * 1024;
    expect([1_658, 50_000, 100_000, 250_000].map(defaultSearchCacheBytes)).toEqual([16 * MiB, 16 * MiB, 32 * MiB, 80 * MiB]);
    expect(searchCacheBytes(readConfig({}), 250_000)).toBe(80 * MiB);
    expect(searchCacheBytes(readConfig({ SEARCH_CACHE_MB: '3' }), 250_000)).toBe(3 * MiB);
    expect(searchCacheBytes(readConfig({ SEARCH_CACHE_MB: '0' }), 250_000)).toBe(0);
    const part = (games: number) => memoryBudget(readConfig({}), games, 0, 1).parts.find(([name]) => name.startsWith('search result cache'))![1];
    expect([part(5_000), part(250_000)]).toEqual([16 * MiB, 80 * MiB]);
    expect(() => readConfig({ SEARCH_CACHE_MB: 'lots' })).toThrow('SEARCH_CACHE_MB="lots": must be an integer from 0 to 65536');
  });

  it('reads TRUST_PROXY as a list of proxy addresses and blocks', () => {
    const { trustProxy } = readConfig({ TRUST_PROXY: '10.0.0.0/8, 2001:db8::1' });
    expect(trustProxy.active).toBe(true);
    expect(trustProxy.trusts('10.2.3.4', 0)).toBe(true);
    expect(trustProxy.trusts('2001:db8::1', 0)).toBe(true);
    expect(trustProxy.trusts('192.0.2.1', 0)).toBe(false);
  });

  it('refuses bad values, naming all of them', () => {
    expect(() => readConfig({ PORT: '70000', TRUST_PROXY: 'yes', RATE_LIMIT: '-1', MAX_CONNECTIONS: '0' })).toThrow(
      'Invalid server settings:\nPORT="70000": must be an integer from 0 to 65535\nRATE_LIMIT="-1": must be an integer from 0 to 1000000000\n' +
        'TRUST_PROXY: not an address, a CIDR block, "loopback" or "private": "yes"\nMAX_CONNECTIONS="0": must be an integer from 1 to 1000000',
    );
  });
});
