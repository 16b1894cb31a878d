// Helpers for the production integration tests: `npm run release` / `npm run keys:*` as child
// processes, loopback HTTP requests that never throw (errors come back as status 0), and a forced
// reload of a running server (the server itself: startServer in ./server.ts).
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { Server } from './server.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node script of the project (`scripts/release.ts`, `scripts/keys.ts`) to completion. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 170_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, script), ...args],
      { cwd: ROOT, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...env }, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: number | string; signal?: NodeJS.Signals }) | null;
        resolve({ code: e === null ? 0 : typeof e.code === 'number' ? e.code : null, signal: e?.signal ?? null, stdout, stderr });
      },
    );
  });
}

export interface Answer {
  /** 0 when the request failed below HTTP (connection refused or reset). */
  status: number;
  headers: Headers;
  text: string;
  error?: string;
}

/** A GET (or other method) that never throws. */
export async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  try {
    const res = await fetch(url, { redirect: 'manual', ...init });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    return { status: 0, headers: new Headers(), text: '', error: String((err as Error).cause ?? err) };
  }
}

/** Sends SIGHUP (a forced reload) and resolves once the server has logged it, checking it serves release `name`. */
export async function reloadedOn(server: Server, name: string): Promise<void> {
  const serving = (out: string) => out.split('\n').filter((l) => l.includes('release: now serving'));
  const before = serving(server.output()).length;
  server.signal('SIGHUP');
  await server.waitForOutput((out) => serving(out).length > before);
  const line = serving(server.output()).at(-1)!;
  if (!line.includes(`${name} `)) throw new Error(`after SIGHUP the server serves another release than ${name}: ${line}`);
}
