// Webhook signatures: HMAC-SHA256 of the exact body bytes, keyed with the SHA-256 of the
// subscriber's secret (the subscribers file keeps only that hash), sent as
// `X-RTP-Signature-256: sha256=<hex>` beside `X-RTP-Delivery: <id>` and `X-RTP-Event: release`.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-rtp-signature-256';
export const DELIVERY_HEADER = 'x-rtp-delivery';
export const EVENT_HEADER = 'x-rtp-event';

/** `sha256=` and the HMAC-SHA256 of `body` under the key whose hex is `keyHash`. */
export function signBody(keyHash: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', Buffer.from(keyHash, 'hex')).update(body).digest('hex')}`;
}

/**
 * What a receiver runs: true when `header` is the signature of `body` under `secret` (the value
 * `npm run hooks -- add` printed). Compares in constant time.
 */
export function verifySignature(secret: string, body: string | Buffer, header: string | undefined): boolean {
  if (header === undefined) return false;
  const key = createHash('sha256').update(secret, 'utf8').digest('hex');
  const want = Buffer.from(signBody(key, body));
  const got = Buffer.from(header);
  return got.length === want.length && timingSafeEqual(got, want);
}
