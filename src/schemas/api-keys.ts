// API keys of the Pro tier preview: the keys file (RTP_KEYS_FILE, only SHA-256 hashes of keys) and
// the 401 body of a request with an unknown, revoked or malformed key.
import { z } from 'zod';
import type { ErrorBody } from './errors.ts';

/** `rtp_live_` and 32 base62 characters (about 190 bits of randomness). */
export const API_KEY_PATTERN = /^rtp_live_[0-9A-Za-z]{32}$/;
export const API_KEY_PREFIX = 'rtp_live_';
/** A key's id: the first 8 characters after the prefix; shown in listings and logs, never the rest. */
export const KEY_ID_PATTERN = /^[0-9A-Za-z]{8}$/;

const Timestamp = z.iso.datetime();

export const ApiKeyRecordSchema = z.strictObject({
  id: z.string().regex(KEY_ID_PATTERN, 'must be 8 base62 characters'),
  /** Lowercase hex SHA-256 of the whole key. */
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits'),
  /** The site or company the key was issued to. */
  owner: z.string().trim().min(1).max(200),
  /** The intended use stated in the request. */
  use: z.string().trim().min(1).max(500),
  /** The expected daily volume stated in the request (requests per day). */
  daily: z.int().min(1).max(1_000_000_000),
  created_at: Timestamp,
  revoked_at: Timestamp.nullable(),
});
export type ApiKeyRecord = z.output<typeof ApiKeyRecordSchema>;

export const KeysFileSchema = z
  .strictObject({ format: z.literal(1), keys: z.array(ApiKeyRecordSchema) })
  .refine((f) => new Set(f.keys.map((k) => k.id)).size === f.keys.length, { message: 'key ids must be unique', path: ['keys'] });
export type KeysFile = z.output<typeof KeysFileSchema>;

export const INVALID_API_KEY_MESSAGE = 'invalid API key';
/** The answer to a request presenting a key that is unknown, revoked or malformed (never a silent downgrade). */
export const INVALID_API_KEY: ErrorBody = { statusCode: 401, statusMessage: INVALID_API_KEY_MESSAGE };
