// API key material: format, uniform generation, hashing, reading the presented key, the key ring.
import { describe, expect, it } from 'vitest';
import { generateKey, hashKey, KeyRing, keyIdOf, maskKey, presentedKey } from '../../src/keys/keys.ts';
import { API_KEY_PATTERN, type ApiKeyRecord } from '../../src/schemas/api-keys.ts';

const KEY = 'rtp_live_AbCd1234EfGh5678IjKl9012MnOp3456';

function record(key: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: keyIdOf(key),
    hash: hashKey(key),
    owner: 'Example',
    use: 'tables',
    daily: 100,
    created_at: '2026-11-21T00:00:00.000Z',
    revoked_at: null,
    ...overrides,
  };
}

describe('generateKey', () => {
  it('is rtp_live_ and 32 base62 characters, different every time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateKey()));
    expect(keys.size).toBe(200);
    for (const k of keys) expect(k).toMatch(API_KEY_PATTERN);
  });

  it('skips bytes that would bias the alphabet (rejection sampling)', () => {
    // 248..255 are dropped; 0 → '0', 61 → 'z', 62 → '0' again, 247 → 247 % 62 = 61 → 'z'.
    const bytes = [255, 248, 0, 61, 62, 247];
    let calls = 0;
    const key = generateKey((n) => {
      calls++;
      return Uint8Array.from({ length: n }, (_, i) => bytes[i % bytes.length]!);
    });
    expect(key).toBe(`rtp_live_${'0z0z'.repeat(8)}`);
    expect(calls).toBe(1);
  });

  it('has an 8-character id and a mask that hides the rest', () => {
    expect(keyIdOf(KEY)).toBe('AbCd1234');
    expect(maskKey('AbCd1234')).toBe('rtp_live_AbCd1234…');
  });
});

describe('presentedKey', () => {
  it.each([
    [undefined, undefined, { kind: 'none' }],
    [`Bearer ${KEY}`, undefined, { kind: 'key', key: KEY }],
    [[`Bearer ${KEY}`], [KEY], { kind: 'key', key: KEY }],
    [`bearer   ${KEY}  `, undefined, { kind: 'key', key: KEY }],
    [undefined, KEY, { kind: 'key', key: KEY }],
    [undefined, ` ${KEY} `, { kind: 'key', key: KEY }],
    [`Bearer ${KEY}`, KEY, { kind: 'key', key: KEY }],
  ])('%s / %s', (auth, header, expected) => {
    expect(presentedKey(auth, header)).toEqual(expected);
  });

  it.each([
    ['Basic dXNlcjpwYXNz', undefined],
    [`Token ${KEY}`, undefined],
    [KEY, undefined],
    ['', undefined],
    ['Digest username="a"', undefined],
    [['Basic dXNlcjpwYXNz', 'Basic b3RoZXI6cGFzcw=='], undefined],
  ])('another scheme is not ours and is ignored: %s / %s', (auth, header) => {
    expect(presentedKey(auth, header)).toEqual({ kind: 'none' });
  });

  it('another scheme beside a valid X-API-Key: the X-API-Key counts', () => {
    expect(presentedKey('Basic dXNlcjpwYXNz', KEY)).toEqual({ kind: 'key', key: KEY });
  });

  it.each([
    ['Bearer', undefined],
    ['Bearer ', undefined],
    [`Bearer ${KEY} extra`, undefined],
    ['Bearer rtp_live_short', undefined],
    [`Bearer ${KEY}x`, undefined],
    [`Bearer rtp_test_${KEY.slice(9)}`, undefined],
    [undefined, ''],
    [undefined, `${KEY}, ${KEY}`],
    [undefined, [KEY, KEY]],
    [`Bearer ${KEY}`, 'rtp_live_0000000000000000000000000000000X'],
    // Two Authorization headers with a Bearer token among them: two credentials, whichever comes first.
    [['Bearer x', 'Bearer y'], undefined],
    [[`Bearer ${KEY}`, 'Bearer rtp_live_0000000000000000000000000000000X'], undefined],
    [[`Bearer ${KEY}`, `Bearer ${KEY}`], undefined],
    [['Basic dXNlcjpwYXNz', `Bearer ${KEY}`], undefined],
    [[`Bearer ${KEY}`, 'Basic dXNlcjpwYXNz'], KEY],
  ])('malformed: %s / %s', (auth, header) => {
    expect(presentedKey(auth, header)).toEqual({ kind: 'malformed' });
  });
});

describe('KeyRing', () => {
  const other = 'rtp_live_ZzYy9876XxWw5432VvUu1098TtSs7654';
  const ring = new KeyRing([record(KEY), record(other, { revoked_at: '2026-11-22T00:00:00.000Z' })]);

  it('accepts an active key and answers its record', () => {
    expect(ring.verify(KEY)?.id).toBe('AbCd1234');
  });

  it('refuses a revoked key, an unknown id, and a right id with a wrong secret', () => {
    expect(ring.verify(other)).toBeNull();
    expect(ring.verify('rtp_live_00000000EfGh5678IjKl9012MnOp3456')).toBeNull();
    expect(ring.verify('rtp_live_AbCd1234EfGh5678IjKl9012MnOp3457')).toBeNull();
    expect(ring.verify('not a key')).toBeNull();
  });

  it('stores nothing from which the key could be read back', () => {
    expect(JSON.stringify(record(KEY))).not.toContain(KEY.slice(17));
  });
});
