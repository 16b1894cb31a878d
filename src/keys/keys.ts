// API key material: generation (rtp_live_ + 32 base62 characters), SHA-256 hashing, the key id,
// reading the key a request presents, and a constant-time lookup over the stored hashes.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PATTERN, API_KEY_PREFIX, type ApiKeyRecord } from '../schemas/api-keys.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_BODY_LENGTH = 32;
export const KEY_ID_LENGTH = 8;

/**
 * A new random key. Bytes at or above 248 (4 × 62) are skipped so every character is uniform
 * (rejection sampling; `byte % 62` alone would favour the first characters).
 */
export function generateKey(random: (size: number) => Uint8Array = randomBytes): string {
  let body = '';
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of random(48)) {
      if (byte >= 248) continue;
      body += BASE62[byte % 62];
      if (body.length === KEY_BODY_LENGTH) break;
    }
  }
  return API_KEY_PREFIX + body;
}

/** Lowercase hex SHA-256 of a key: all the keys file keeps of it. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The id of a well-formed key: the first 8 characters after the prefix. */
export function keyIdOf(key: string): string {
  return key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + KEY_ID_LENGTH);
}

/** How a key is shown in listings: its prefix and id, the rest elided. */
export function maskKey(id: string): string {
  return `${API_KEY_PREFIX}${id}…`;
}

/** What a request presents: no key, a well-formed key, or something malformed. */
export type Presented = { kind: 'none' } | { kind: 'key'; key: string } | { kind: 'malformed' };

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const BEARER_SCHEME = /^Bearer(?:[ \t]|$)/i;

/**
 * Reads `Authorization: Bearer <key>` and `X-API-Key: <key>`, each given as its one value or as every
 * value the request carries (IncomingMessage.headersDistinct). No route requires a key
 * (public-api.md), so an Authorization header of another scheme (`Basic …`, a proxy's own
 * credentials) is not ours and is ignored. A Bearer token that is not a key, a malformed
 * X-API-Key, conflicting keys, and a header given twice (two keys: Node would keep only the first
 * Authorization and join two X-API-Key values) are malformed (401, not ignored).
 */
export function presentedKey(authorization: string | readonly string[] | undefined, apiKey: string | readonly string[] | undefined): Presented {
  const auths = authorization === undefined ? [] : typeof authorization === 'string' ? [authorization] : authorization;
  const bearers = auths.filter((a) => BEARER_SCHEME.test(a.trimStart()));
  // Two Authorization headers are two credentials; when either is a Bearer token, which one counts is not for us to guess.
  if (bearers.length > 0 && auths.length > 1) return { kind: 'malformed' };
  const auth = bearers.length === 1 ? bearers[0]!.trim() : undefined;
  const keys = apiKey === undefined ? [] : typeof apiKey === 'string' ? [apiKey] : apiKey;
  if (auth === undefined && keys.length === 0) return { kind: 'none' };
  let fromAuth: string | undefined;
  let fromHeader: string | undefined;
  if (auth !== undefined) {
    const m = BEARER.exec(auth);
    if (m === null || !API_KEY_PATTERN.test(m[1]!)) return { kind: 'malformed' };
    fromAuth = m[1]!;
  }
  if (keys.length > 0) {
    // A joined value (", ") matches no key, and two headers are two keys.
    const value = keys.length === 1 ? keys[0]!.trim() : '';
    if (!API_KEY_PATTERN.test(value)) return { kind: 'malformed' };
    fromHeader = value;
  }
  if (fromAuth !== undefined && fromHeader !== undefined && fromAuth !== fromHeader) return { kind: 'malformed' };
  return { kind: 'key', key: (fromAuth ?? fromHeader)! };
}

const DUMMY_HASH = Buffer.alloc(32);

/** The issued keys, indexed by id, checked against the hash of the presented key in constant time. */
export class KeyRing {
  private readonly byId: Map<string, { record: ApiKeyRecord; hash: Buffer }>;

  constructor(records: readonly ApiKeyRecord[]) {
    this.byId = new Map(records.map((r) => [r.id, { record: r, hash: Buffer.from(r.hash, 'hex') }]));
  }

  get size(): number {
    return this.byId.size;
  }

  /** The active record a well-formed key belongs to, or null (unknown, wrong secret or revoked). */
  verify(key: string): ApiKeyRecord | null {
    if (!API_KEY_PATTERN.test(key)) return null;
    const entry = this.byId.get(keyIdOf(key));
    const presented = createHash('sha256').update(key, 'utf8').digest();
    // Compare even when the id is unknown, so both cases cost the same.
    const same = timingSafeEqual(presented, entry?.hash ?? DUMMY_HASH);
    if (entry === undefined || !same || entry.record.revoked_at !== null) return null;
    return entry.record;
  }
}
