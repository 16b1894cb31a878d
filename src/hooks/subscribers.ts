// The subscribers of change notifications (RTP_HOOKS_DIR, default ./var/hooks): subscribers.json
// written atomically with mode 0600 under a lock, and the add/remove/list operations of
// `npm run hooks`. A secret is printed once by `add`; the file keeps only its SHA-256.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { textTable } from '../lib/text-table.ts';
import { acquirePidLock, writeFileAtomic } from '../lib/write.ts';
import { SlugSchema } from '../schemas/authoring.ts';
import { HOOK_SECRET_PREFIX, HookUrlSchema, type Subscriber, SubscriberSchema, type SubscribersFile, SubscribersFileSchema } from '../schemas/hooks.ts';
import { checkHookTarget, HookTargetError } from './target.ts';

export const DEFAULT_HOOKS_DIR = 'var/hooks';
export const SUBSCRIBERS_FILE = 'subscribers.json';

/** The hooks folder in force: RTP_HOOKS_DIR or ./var/hooks. */
export function hooksDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.RTP_HOOKS_DIR !== undefined && env.RTP_HOOKS_DIR !== '' ? env.RTP_HOOKS_DIR : DEFAULT_HOOKS_DIR);
}

/** A new secret: the prefix and 32 random bytes in base64url. */
export function generateSecret(random: (size: number) => Uint8Array = randomBytes): string {
  return HOOK_SECRET_PREFIX + Buffer.from(random(32)).toString('base64url');
}

/** Lowercase hex SHA-256 of a secret: all the file keeps of it, and the key deliveries are signed with. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Reads subscribers.json; a missing file has no subscribers. Throws one error naming every problem. */
export async function readSubscribers(dir: string): Promise<SubscribersFile> {
  const file = path.join(dir, SUBSCRIBERS_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { format: 1, subscribers: [] };
    throw err;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}).`);
  }
  const parsed = SubscribersFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `${file} does not match the subscribers file format:\n${parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n')}`,
    );
  return parsed.data;
}

/** Writes subscribers.json (mode 0600: its hashes sign deliveries) atomically. */
export async function writeSubscribers(dir: string, data: SubscribersFile): Promise<void> {
  await writeFileAtomic(path.join(dir, SUBSCRIBERS_FILE), `${JSON.stringify(SubscribersFileSchema.parse(data), null, 2)}\n`, 0o600);
}

/** Runs `fn` holding `subscribers.json.lock`, so two commands never lose each other's change. */
export async function withSubscribersLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(dir, `${SUBSCRIBERS_FILE}.lock`);
  const unlock = await acquirePidLock(lock, (pid) => `${lock} is held by process ${pid}: another hooks command is running.`);
  try {
    return await fn();
  } finally {
    await unlock();
  }
}

/** A subscriber the operator asked for that cannot be added: a bad URL, provider or slug (named in the message). */
export class SubscriberInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubscriberInputError';
  }
}

export interface AddRequest {
  url: string;
  providers: string[];
  games: string[];
  /** Allow a loopback, private or link-local target (a local receiver, for testing). */
  allowPrivate?: boolean;
}

/** Adds a subscriber; returns its secret (shown once, never stored) and its record. Throws naming every bad field. */
export function addSubscriber(
  data: SubscribersFile,
  request: AddRequest,
  now: Date,
  random: (size: number) => Uint8Array = randomBytes,
): { secret: string; record: Subscriber; data: SubscribersFile } {
  const ids = new Set(data.subscribers.map((s) => s.id));
  let id = Buffer.from(random(4)).toString('hex');
  for (let tries = 0; ids.has(id); tries++) {
    if (tries > 100) throw new Error('Cannot find an unused subscriber id.');
    id = Buffer.from(random(4)).toString('hex');
  }
  const problems: string[] = [];
  const url = HookUrlSchema.safeParse(request.url);
  if (!url.success) problems.push(`the URL ${url.error.issues[0]!.message}`);
  else {
    try {
      checkHookTarget(url.data, request.allowPrivate === true);
    } catch (err) {
      if (!(err instanceof HookTargetError)) throw err;
      problems.push(err.message);
    }
  }
  for (const [flag, values] of [
    ['--provider', request.providers],
    ['--games', request.games],
  ] as const) {
    for (const v of values) {
      const slug = SlugSchema.safeParse(v);
      if (!slug.success) problems.push(`${flag} ${JSON.stringify(v)} ${slug.error.issues[0]!.message}`);
    }
  }
  if (problems.length > 0) throw new SubscriberInputError(problems.join('; '));
  const secret = generateSecret(random);
  const parsed = SubscriberSchema.safeParse({
    id,
    url: request.url,
    key_hash: hashSecret(secret),
    providers: [...new Set(request.providers)].sort(),
    games: [...new Set(request.games)].sort(),
    created_at: now.toISOString(),
    ...(request.allowPrivate === true ? { allow_private: true } : {}),
  });
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return { secret, record: parsed.data, data: { format: 1, subscribers: [...data.subscribers, parsed.data] } };
}

/** Removes a subscriber by id; null when there is none. */
export function removeSubscriber(data: SubscribersFile, id: string): SubscribersFile | null {
  if (!data.subscribers.some((s) => s.id === id)) return null;
  return { format: 1, subscribers: data.subscribers.filter((s) => s.id !== id) };
}

/** What a subscriber watches, in words. */
export function watching(s: Subscriber): string {
  if (s.providers.length === 0 && s.games.length === 0) return 'everything';
  return [s.providers.length > 0 ? `providers ${s.providers.join(',')}` : '', s.games.length > 0 ? `games ${s.games.join(',')}` : '']
    .filter((x) => x !== '')
    .join('; ');
}

/** The `hooks list` table: id, creation time, what it watches, URL. Never a secret or hash. */
export function formatSubscriberList(data: SubscribersFile): string {
  if (data.subscribers.length === 0) return 'no subscribers\n';
  const rows = [
    ['id', 'created_at', 'watching', 'url'],
    ...data.subscribers.map((s) => [s.id, s.created_at, watching(s), s.allow_private === true ? `${s.url} (private allowed)` : s.url]),
  ];
  return textTable(rows);
}
