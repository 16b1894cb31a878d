// Production settings (docs/production.md): defaults, every value read, every bad value named.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProductionSettings } from '../../src/server/production.ts';

describe('readProductionSettings', () => {
  it('defaults: poll the release link every second, memory store, ./var/keys.json', () => {
    expect(readProductionSettings({})).toEqual({
      releasePollMs: 1000,
      rateLimitStore: 'memory',
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'rtp:rl:',
      redisTimeoutMs: 250,
      keysFile: path.resolve('var/keys.json'),
      keysPollMs: 2000,
    });
  });

  it('reads every setting', () => {
    expect(
      readProductionSettings({
        RELEASE_POLL_MS: '0',
        RATE_LIMIT_STORE: 'redis',
        REDIS_URL: 'rediss://u:p@cache:6380/2',
        REDIS_PREFIX: 'a:',
        REDIS_TIMEOUT_MS: '50',
        RTP_KEYS_FILE: '/etc/rtp/keys.json',
        KEYS_POLL_MS: '0',
      }),
    ).toEqual({
      releasePollMs: 0,
      rateLimitStore: 'redis',
      redisUrl: 'rediss://u:p@cache:6380/2',
      redisPrefix: 'a:',
      redisTimeoutMs: 50,
      keysFile: '/etc/rtp/keys.json',
      keysPollMs: 0,
    });
  });

  it('refuses bad values, naming all of them', () => {
    expect(() => readProductionSettings({ RATE_LIMIT_STORE: 'memcached', REDIS_URL: 'http://cache', REDIS_TIMEOUT_MS: '0', RELEASE_POLL_MS: 'soon' })).toThrow(
      'Invalid server settings:\nRATE_LIMIT_STORE="memcached": must be memory or redis\nRELEASE_POLL_MS="soon": must be an integer from 0 to 3600000\nREDIS_TIMEOUT_MS="0": must be an integer from 1 to 60000\nREDIS_URL: must be a redis:// or rediss:// URL',
    );
  });
});
