// Finds the system programs the tests and `npm run edge` drive (Debian's `chromium`, `redis-server`
// and `nginx`): an environment variable first, then PATH, then the places Debian installs them; and
// installs the missing ones with apt when running as root. One helper for the tests, `npm test`'s
// provisioning (scripts/test.ts) and `npm run edge` (scripts/edge.ts), so all agree on what is there.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

export interface Tool {
  /** Environment variable naming the program's path. */
  env: string;
  /** Names looked up on PATH, in order. */
  names: readonly string[];
  /** Where Debian (and common installs) put it. */
  known: readonly string[];
  /** The Debian package that provides it. */
  apt: string;
}

export const TOOLS = {
  chromium: { env: 'CHROMIUM_PATH', names: ['chromium', 'chromium-browser'], known: ['/usr/bin/chromium', '/usr/lib/chromium/chromium'], apt: 'chromium' },
  'redis-server': { env: 'REDIS_SERVER_PATH', names: ['redis-server'], known: ['/usr/bin/redis-server', '/usr/local/bin/redis-server'], apt: 'redis-server' },
  // /usr/sbin is not on every user's PATH.
  nginx: { env: 'NGINX_PATH', names: ['nginx'], known: ['/usr/sbin/nginx', '/usr/local/sbin/nginx'], apt: 'nginx' },
} as const satisfies Record<string, Tool>;

export type ToolName = keyof typeof TOOLS;

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The path of `name`, or null when it is not installed. */
export function findTool(name: ToolName, env: NodeJS.ProcessEnv = process.env): string | null {
  const tool = TOOLS[name];
  const fromEnv = env[tool.env];
  if (fromEnv !== undefined && fromEnv !== '') return executable(fromEnv) ? fromEnv : null;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    for (const n of tool.names) if (executable(path.join(dir, n))) return path.join(dir, n);
  }
  return tool.known.find(executable) ?? null;
}

/** What to do when `name` is missing, in one sentence. */
export function missingMessage(name: ToolName): string {
  const tool = TOOLS[name];
  return `${name} is not installed: install Debian's package (apt-get install -y ${tool.apt}; \`npm test\` does it when run as root), or set ${tool.env} to the program's path`;
}

/** The path of `name`; throws with what to do when it is missing (a test that cannot run fails with the reason). */
export function requireTool(name: ToolName): string {
  const found = findTool(name);
  if (found === null) throw new Error(missingMessage(name));
  return found;
}

/**
 * Installs the missing programs of `names` with apt (when running as root on a machine with
 * apt-get), or says on stderr what to install; `why` names what needs them. True when all are there.
 */
export function provisionTools(names: readonly ToolName[], why: string, prefix: string): boolean {
  const missing = names.filter((t) => findTool(t) === null);
  if (missing.length === 0) return true;
  const packages = missing.map((t) => TOOLS[t].apt);
  const root = process.getuid?.() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (!root || !apt) {
    for (const t of missing) console.error(`${prefix}: ${missingMessage(t)}`);
    return false;
  }
  console.log(`${prefix}: installing Debian's ${packages.join(' and ')} with apt-get (needed by ${why})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...packages],
  ]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) {
      console.error(`${prefix}: apt-get ${args[0]} failed (exit code ${r.status ?? r.signal})`);
      return false;
    }
  }
  const still = missing.filter((t) => findTool(t) === null);
  for (const t of still) console.error(`${prefix}: ${missingMessage(t)}`);
  return still.length === 0;
}
