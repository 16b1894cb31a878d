// Production settings of the server from the environment (docs/production.md), validated all at
// once like the base settings of src/server/config.ts: release following, the shared rate-limit
// store, and API keys.
import { keysFilePath } from '../keys/file.ts';
import { int } from './config.ts';
import { DEFAULT_REDIS_PREFIX, DEFAULT_REDIS_TIMEOUT_MS } from './rate-limit-store.ts';

export interface ProductionSettings {
  /** How often RTP_OUT_DIR's target is checked for a new release (ms; 0: only on SIGHUP). */
  releasePollMs: number;
  /** Where rate-limit counters live: this process, or Redis shared by every instance. */
  rateLimitStore: 'memory' | 'redis';
  redisUrl: string;
  redisPrefix: string;
  redisTimeoutMs: number;
  /** The API keys file and how often it is checked for changes (ms; 0: only on SIGHUP). */
  keysFile: string;
  keysPollMs: number;
}

/** Reads RELEASE_POLL_MS, RATE_LIMIT_STORE, REDIS_URL, REDIS_PREFIX, REDIS_TIMEOUT_MS, RTP_KEYS_FILE, KEYS_POLL_MS. */
export function readProductionSettings(env: NodeJS.ProcessEnv = process.env): ProductionSettings {
  const problems: string[] = [];
  const text = (name: string, fallback: string) => (env[name] !== undefined && env[name] !== '' ? env[name] : fallback);
  const store = text('RATE_LIMIT_STORE', 'memory');
  if (store !== 'memory' && store !== 'redis') problems.push(`RATE_LIMIT_STORE=${JSON.stringify(store)}: must be memory or redis`);
  const settings: ProductionSettings = {
    releasePollMs: int(env, 'RELEASE_POLL_MS', 1000, 0, 3_600_000, problems),
    rateLimitStore: store === 'redis' ? 'redis' : 'memory',
    redisUrl: text('REDIS_URL', 'redis://127.0.0.1:6379'),
    redisPrefix: text('REDIS_PREFIX', DEFAULT_REDIS_PREFIX),
    redisTimeoutMs: int(env, 'REDIS_TIMEOUT_MS', DEFAULT_REDIS_TIMEOUT_MS, 1, 60_000, problems),
    keysFile: keysFilePath(env),
    keysPollMs: int(env, 'KEYS_POLL_MS', 2000, 0, 3_600_000, problems),
  };
  if (!/^rediss?:\/\/[^\s]+$/.test(settings.redisUrl)) problems.push('REDIS_URL: must be a redis:// or rediss:// URL');
  if (problems.length > 0) throw new Error(`Invalid server settings:\n${problems.join('\n')}`);
  return settings;
}
