// Change notifications at release: the subscribers file (RTP_HOOKS_DIR/subscribers.json, only a
// SHA-256 of each secret), the webhook body a subscriber receives, and the outbox records of
// deliveries in flight (RTP_HOOKS_DIR/outbox/<id>.json).
import { z } from 'zod';
import { SlugSchema } from './authoring.ts';
import { FieldChangeSchema, ReleaseGameSchema, RemovedGameSchema } from './dump.ts';
import { ReleaseNameSchema } from './release.ts';

/** A subscriber id: 8 lowercase hex digits, shown in listings and logs. */
export const HOOK_ID_PATTERN = /^[0-9a-f]{8}$/;
/** A subscriber secret: `rtphook_` and 43 base64url characters (256 random bits), printed once. */
export const HOOK_SECRET_PATTERN = /^rtphook_[A-Za-z0-9_-]{43}$/;
export const HOOK_SECRET_PREFIX = 'rtphook_';
/** Longest subscriber URL accepted. */
export const HOOK_URL_MAX = 2048;

const Timestamp = z.iso.datetime();

export const HookUrlSchema = z
  .string()
  .max(HOOK_URL_MAX, `must be at most ${HOOK_URL_MAX} characters`)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '' && u.hash === '';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL without credentials or fragment');

export const SubscriberSchema = z.strictObject({
  id: z.string().regex(HOOK_ID_PATTERN, 'must be 8 lowercase hex digits'),
  url: HookUrlSchema,
  /** Lowercase hex SHA-256 of the secret: also the HMAC-SHA256 key the deliveries are signed with. */
  key_hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits'),
  /** Providers watched (empty with `games` empty: everything). */
  providers: z.array(SlugSchema).max(200),
  /** Games watched, by slug. */
  games: z.array(SlugSchema).max(1000),
  created_at: Timestamp,
  /** Added with --allow-private: its URL may name (or resolve to) a loopback, private or link-local address. */
  allow_private: z.literal(true).optional(),
});
export type Subscriber = z.output<typeof SubscriberSchema>;

export const SubscribersFileSchema = z
  .strictObject({ format: z.literal(1), subscribers: z.array(SubscriberSchema) })
  .refine((f) => new Set(f.subscribers.map((s) => s.id)).size === f.subscribers.length, { message: 'subscriber ids must be unique', path: ['subscribers'] });
export type SubscribersFile = z.output<typeof SubscribersFileSchema>;

/** What a release changed in the games a subscriber watches (old and new figures). */
export const GameChangesSchema = z.strictObject({
  added: z.array(ReleaseGameSchema),
  removed: z.array(RemovedGameSchema),
  changed: z.array(z.strictObject({ slug: z.string(), provider: z.string(), changes: z.array(FieldChangeSchema) })),
});
export type GameChanges = z.output<typeof GameChangesSchema>;

/** The JSON body of a `release` webhook (signed in `X-RTP-Signature-256`). */
export const ReleaseWebhookSchema = z.strictObject({
  event: z.literal('release'),
  /** The same in every try of one delivery: a receiver ignores an id it has seen. */
  delivery_id: z.uuid(),
  release: z.strictObject({
    name: ReleaseNameSchema,
    data_version: z.string(),
    frozen_at: z.string(),
    released_at: Timestamp,
    previous: ReleaseNameSchema,
    previous_data_version: z.string(),
  }),
  /** What the subscriber watches: `all`, or its providers and games. */
  watching: z.union([z.literal('all'), z.strictObject({ providers: z.array(z.string()), games: z.array(z.string()) })]),
  counts: z.strictObject({ added: z.int().min(0), removed: z.int().min(0), changed: z.int().min(0) }),
  ...GameChangesSchema.shape,
});
export type ReleaseWebhook = z.output<typeof ReleaseWebhookSchema>;

/** One delivery in the outbox: a signed webhook to a subscriber, or a WebSub publish ping to the hub. */
export const DeliverySchema = z.strictObject({
  format: z.literal(1),
  id: z.uuid(),
  kind: z.enum(['webhook', 'websub']),
  /** The subscriber (webhook) or null (websub). */
  subscriber: z.string().regex(HOOK_ID_PATTERN).nullable(),
  url: HookUrlSchema,
  content_type: z.string(),
  body: z.string(),
  /** The release the delivery announces, and the hash of its datapackage.json (what "serving" is checked by). */
  release: ReleaseNameSchema,
  serving_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  created_at: Timestamp,
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.int().min(0),
  /** When the next try is due (pending only). */
  next_at: Timestamp.nullable(),
  /** The last try's HTTP status (0: no answer) and error. */
  last_status: z.int().min(0).nullable(),
  last_error: z.string().nullable(),
});
export type Delivery = z.output<typeof DeliverySchema>;
