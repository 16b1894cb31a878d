// scripts/node.mjs: the environment defaults (ENV_DEFAULTS) it gives the command it runs.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const launcher = path.resolve(import.meta.dirname, '../../scripts/node.mjs');
const arenaOf = (env: NodeJS.ProcessEnv) =>
  execFileSync(process.execPath, [launcher, 'node', '-e', 'process.stdout.write(String(process.env.MALLOC_ARENA_MAX))'], { env, encoding: 'utf8' });

describe('scripts/node.mjs', () => {
  it('runs its command with two malloc arenas unless the environment says otherwise', () => {
    const { MALLOC_ARENA_MAX: _, ...rest } = process.env;
    expect(arenaOf(rest)).toBe('2');
    expect(arenaOf({ ...rest, MALLOC_ARENA_MAX: '8' })).toBe('8');
  });
});
