// The keys file and `npm run keys:*`: only hashes stored, written atomically (0600), the key
// printed once, listings that never show a key or hash, revocation, and the server's reload.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeyAuth } from '../../src/keys/auth.ts';
import { formatKeyList, issueKey, parseKeysFile, readKeysFile, revokeKey, withKeysLock, writeKeysFile } from '../../src/keys/file.ts';
import { hashKey } from '../../src/keys/keys.ts';
import { API_KEY_PATTERN, type KeysFile } from '../../src/schemas/api-keys.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-keys-'));
  file = path.join(dir, 'var/keys.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const EMPTY: KeysFile = { format: 1, keys: [] };
const T0 = new Date('2026-11-21T10:00:00.000Z');

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [path.join(ROOT, 'scripts/keys.ts'), ...args], { cwd: ROOT, env: { ...process.env, RTP_KEYS_FILE: file } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const fakeReq = (headers: Record<string, string>) =>
  ({ headers, headersDistinct: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])) }) as unknown as IncomingMessage;

describe('keys file operations', () => {
  it('issues a key whose record holds its hash and the stated fields', () => {
    const { key, record, data } = issueKey(EMPTY, { owner: ' Example Reviews ', use: 'comparison tables', daily: 5000 }, T0);
    expect(key).toMatch(API_KEY_PATTERN);
    expect(record).toEqual({
      id: key.slice(9, 17),
      hash: hashKey(key),
      owner: 'Example Reviews',
      use: 'comparison tables',
      daily: 5000,
      created_at: '2026-11-21T10:00:00.000Z',
      revoked_at: null,
    });
    expect(data.keys).toEqual([record]);
  });

  it('draws again when a new key would reuse an id', () => {
    const first = issueKey(EMPTY, { owner: 'a', use: 'b', daily: 1 }, T0, () => 'rtp_live_SAMEID00aaaaaaaaaaaaaaaaaaaaaaaa');
    const keys = ['rtp_live_SAMEID00bbbbbbbbbbbbbbbbbbbbbbbb', 'rtp_live_OTHERID0cccccccccccccccccccccccc'];
    const second = issueKey(first.data, { owner: 'a', use: 'b', daily: 1 }, T0, () => keys.shift()!);
    expect(second.record.id).toBe('OTHERID0');
  });

  it('revokes once; a second revocation keeps the first time', () => {
    const { data, record } = issueKey(EMPTY, { owner: 'a', use: 'b', daily: 1 }, T0);
    const once = revokeKey(data, record.id, new Date('2026-11-22T00:00:00.000Z'));
    const twice = revokeKey(once, record.id, new Date('2026-11-23T00:00:00.000Z'));
    expect(twice.keys[0]!.revoked_at).toBe('2026-11-22T00:00:00.000Z');
  });

  it('lists keys masked, never a key or a hash', () => {
    const { key, data, record } = issueKey(EMPTY, { owner: 'Example', use: 'widgets\non pages', daily: 10 }, T0);
    const text = formatKeyList(data);
    expect(text).toContain(`rtp_live_${record.id}…`);
    expect(text).toContain('widgets on pages');
    expect(text).not.toContain(key);
    expect(text).not.toContain(record.hash.slice(0, 16));
    expect(formatKeyList(EMPTY)).toBe('no keys issued\n');
  });

  it('writes the file atomically with mode 0600 and reads it back; a missing file is empty', async () => {
    expect(await readKeysFile(file)).toEqual(EMPTY);
    const { data } = issueKey(EMPTY, { owner: 'a', use: 'b', daily: 1 }, T0);
    await writeKeysFile(file, data);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readKeysFile(file)).toEqual(data);
  });

  it('names every problem of an invalid keys file', () => {
    const text = JSON.stringify({ format: 1, keys: [{ id: 'short', hash: 'xyz', owner: '', use: 'u', daily: 0, created_at: 'yesterday', revoked_at: null }] });
    expect(() => parseKeysFile(text, 'keys.json')).toThrow(
      /keys\.0\.id: must be 8 base62 characters\n {2}keys\.0\.hash: must be 64 lowercase hex digits\n {2}keys\.0\.owner: .*\n {2}keys\.0\.daily: .*\n {2}keys\.0\.created_at: /,
    );
    expect(() => parseKeysFile('{', 'keys.json')).toThrow('keys.json is not valid JSON');
  });

  it('refuses to run two commands at once', async () => {
    await withKeysLock(file, async () => {
      await expect(withKeysLock(file, async () => 1)).rejects.toThrow(`${file}.lock is held by process ${process.pid}: another keys command is running.`);
    });
    expect(await withKeysLock(file, async () => 2)).toBe(2);
  });
});

describe('npm run keys:*', () => {
  it('issue prints the key once on stdout and stores only its hash; list and revoke never show it', async () => {
    const issued = await cli('issue', '--owner', 'Example Casino Reviews', '--use', 'comparison tables', '--daily', '5000');
    expect(issued.code).toBe(0);
    const key = issued.stdout.trim();
    expect(key).toMatch(API_KEY_PATTERN);
    expect(issued.stderr).toContain(`Issued key rtp_live_${key.slice(9, 17)}… (id ${key.slice(9, 17)}) to Example Casino Reviews`);
    expect(issued.stderr).not.toContain(key);
    const stored = await readFile(file, 'utf8');
    expect(stored).not.toContain(key);
    expect(stored).toContain(hashKey(key));

    const listed = await cli('list');
    expect(listed.stdout).toMatch(/rtp_live_\w{8}… +active +5000 /);
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toContain(hashKey(key));

    const revoked = await cli('revoke', key.slice(9, 17));
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`revoked key rtp_live_${key.slice(9, 17)}… of Example Casino Reviews`);
    expect((await cli('list')).stdout).toMatch(/revoked 20\d\d-/);
    expect((await cli('revoke', 'nosuchid')).code).toBe(1);
  });

  it.each([
    [['issue', '--owner', 'x'], 'keys: missing --use, --daily'],
    [['issue', '--owner', 'x', '--use', 'y', '--daily', '1e3'], 'keys: --daily must be a whole number'],
    [['issue', '--owner', 'x', '--use', 'y', '--daily', '5', '--key', 'k'], 'keys: unknown argument "--key"'],
    [['launch'], 'keys: unknown command "launch"'],
    [[], 'keys: missing command'],
  ])('refuses %j with usage', async (args, message) => {
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('usage: npm run keys:issue');
  });
});

describe('KeyAuth (the server side)', () => {
  let auth: KeyAuth | undefined;
  afterEach(() => auth?.close());

  it('checks presented keys and picks up issued and revoked keys when the file changes', async () => {
    const lines: string[] = [];
    auth = await KeyAuth.open({ file, pollMs: 20, log: (l) => lines.push(l) });
    const a = issueKey(EMPTY, { owner: 'a', use: 'b', daily: 1 }, T0);
    const req = fakeReq({ authorization: `Bearer ${a.key}` });
    expect(auth.check(req)).toEqual({ status: 'invalid' });
    await writeKeysFile(file, a.data);
    await vi.waitFor(() => expect(auth!.check(req)).toEqual({ status: 'valid', id: a.record.id }), { timeout: 30_000, interval: 20 });
    expect(auth.checked(req)).toEqual({ status: 'valid', id: a.record.id });
    expect(auth.check(fakeReq({}))).toEqual({ status: 'none' });
    expect(auth.check(fakeReq({ 'x-api-key': 'garbage' }))).toEqual({ status: 'invalid' });

    await writeKeysFile(file, revokeKey(a.data, a.record.id, T0));
    await vi.waitFor(() => expect(auth!.check(req)).toEqual({ status: 'invalid' }), { timeout: 30_000, interval: 20 });
    expect(lines.join('\n')).not.toContain(a.key);
  });

  it('keeps the keys in force when the file turns invalid', async () => {
    const a = issueKey(EMPTY, { owner: 'a', use: 'b', daily: 1 }, T0);
    await writeKeysFile(file, a.data);
    const lines: string[] = [];
    auth = await KeyAuth.open({ file, pollMs: 0, log: (l) => lines.push(l) });
    await writeFile(file, '{"format":1,"keys":[{}]}');
    await auth.reload();
    expect(auth.check(fakeReq({ 'x-api-key': a.key }))).toEqual({ status: 'valid', id: a.record.id });
    expect(lines[0]).toMatch(/^api keys: keeping the 1 key\(s\) in force: cannot load /);
  });

  it('refuses to start on an invalid keys file', async () => {
    await writeKeysFile(file, EMPTY);
    await writeFile(file, 'not json');
    await expect(KeyAuth.open({ file })).rejects.toThrow('is not valid JSON');
  });
});
