// Finds the system programs the tests drive (Debian's `chromium` and `redis-server`): an
// environment variable first, then PATH, then the places Debian installs them. One helper for the
// tests and for `npm test`'s provisioning (scripts/test.ts), so both agree on what is there.
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
