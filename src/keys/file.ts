// The keys file (RTP_KEYS_FILE, default ./var/keys.json): read, written atomically with mode 0600
// under a lock, and the issue/revoke/list operations of `npm run keys:*`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { textTable } from '../lib/text-table.ts';
import { acquirePidLock, writeFileAtomic } from '../lib/write.ts';
import { type ApiKeyRecord, type KeysFile, KeysFileSchema } from '../schemas/api-keys.ts';
import { generateKey, hashKey, keyIdOf, maskKey } from './keys.ts';

export const DEFAULT_KEYS_FILE = 'var/keys.json';

/** The keys file in force: RTP_KEYS_FILE or ./var/keys.json. */
export function keysFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.RTP_KEYS_FILE !== undefined && env.RTP_KEYS_FILE !== '' ? env.RTP_KEYS_FILE : DEFAULT_KEYS_FILE);
}

/** Parses keys file text; throws one error naming every problem. */
export function parseKeysFile(text: string, file: string): KeysFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}).`);
  }
  const parsed = KeysFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `${file} does not match the keys file format:\n${parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n')}`,
    );
  }
  return parsed.data;
}

/** Reads the keys file; a missing file is an empty one. */
export async function readKeysFile(file: string): Promise<KeysFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { format: 1, keys: [] };
    throw err;
  }
  return parseKeysFile(text, file);
}

/** Writes the keys file (mode 0600) through a synced temporary sibling, a rename and a synced folder (readers see old or new, whole). */
export async function writeKeysFile(file: string, data: KeysFile): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(KeysFileSchema.parse(data), null, 2)}\n`, 0o600);
}

/**
 * Runs `fn` holding `<file>.lock` (holding our pid), so two commands never lose each other's
 * change; a lock left by a killed command is cleared with a message.
 */
export async function withKeysLock<T>(file: string, fn: () => Promise<T>, log?: (line: string) => void): Promise<T> {
  const lock = `${file}.lock`;
  const unlock = await acquirePidLock(lock, (pid) => `${lock} is held by process ${pid}: another keys command is running.`, log);
  try {
    return await fn();
  } finally {
    await unlock();
  }
}

export interface IssueRequest {
  owner: string;
  use: string;
  daily: number;
}

/** Adds a new key to `data`; returns the key (shown once, never stored) and its record. */
export function issueKey(
  data: KeysFile,
  request: IssueRequest,
  now: Date,
  generate: () => string = generateKey,
): { key: string; record: ApiKeyRecord; data: KeysFile } {
  const ids = new Set(data.keys.map((k) => k.id));
  let key = generate();
  for (let tries = 0; ids.has(keyIdOf(key)); tries++) {
    if (tries > 100) throw new Error('Cannot find an unused key id.');
    key = generate();
  }
  const record: ApiKeyRecord = {
    id: keyIdOf(key),
    hash: hashKey(key),
    owner: request.owner.trim(),
    use: request.use.trim(),
    daily: request.daily,
    created_at: now.toISOString(),
    revoked_at: null,
  };
  return { key, record, data: { format: 1, keys: [...data.keys, record] } };
}

/** Finds a key by its id (also accepted: `rtp_live_<id>…`, or the whole key). */
export function findKey(data: KeysFile, ref: string): ApiKeyRecord | undefined {
  const trimmed = ref.trim().replace(/…$/, '');
  const id = trimmed.startsWith('rtp_live_') ? keyIdOf(trimmed) : trimmed;
  return data.keys.find((k) => k.id === id);
}

/** Marks a key revoked (idempotent: an already revoked key keeps its first revocation time). */
export function revokeKey(data: KeysFile, id: string, now: Date): KeysFile {
  return { format: 1, keys: data.keys.map((k) => (k.id === id && k.revoked_at === null ? { ...k, revoked_at: now.toISOString() } : k)) };
}

/** The `keys:list` table: masked key, status, owner, use, daily volume, creation time. Never a key or hash. */
export function formatKeyList(data: KeysFile): string {
  if (data.keys.length === 0) return 'no keys issued\n';
  const rows = [['key', 'status', 'daily', 'created_at', 'owner', 'use']];
  for (const k of data.keys) {
    rows.push([maskKey(k.id), k.revoked_at === null ? 'active' : `revoked ${k.revoked_at}`, String(k.daily), k.created_at, oneLine(k.owner), oneLine(k.use)]);
  }
  return textTable(rows);
}

function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}
