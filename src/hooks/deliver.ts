// Sends the outbox: each delivery once its release serves, retried with exponential backoff on a
// non-2xx answer, a timeout or a network error, up to a bounded number of tries; every try and
// outcome logged. One deliverer runs at a time (a pid lock); `npm run release` starts it detached,
// so a slow subscriber never holds a release up. A delivery answered 2xx is recorded before
// anything else and never sent again.
import { createHash } from 'node:crypto';
import path from 'node:path';
import pLimit from 'p-limit';
import { acquirePidLock } from '../lib/write.ts';
import { paths } from '../routes/paths.ts';
import type { Delivery, Subscriber } from '../schemas/hooks.ts';
import { pending, save } from './outbox.ts';
import { type PostOutcome, postOnce } from './post.ts';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signBody } from './sign.ts';
import { readSubscribers } from './subscribers.ts';

export const DELIVER_LOCK = 'deliver.lock';
/** Deliveries sent at the same time. */
export const DELIVERY_CONCURRENCY = 8;
/** Longest wait between two tries, whatever the backoff base. */
export const MAX_BACKOFF_MS = 6 * 3600_000;

export interface DeliverySettings {
  /** Tries per delivery, the first included. */
  maxAttempts: number;
  /** Wait before the second try; doubled before each next one. */
  backoffMs: number;
  /** Time allowed for one try, connection to answer. */
  timeoutMs: number;
  /** The origin to check a release serves at before its deliveries (null: the switch of `current` is enough). */
  servingUrl: string | null;
  /** How long to wait for the release to serve there before giving its deliveries up. */
  servingTimeoutMs: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
    return fallback;
  }
  return Number(raw);
}

/** Reads HOOKS_MAX_ATTEMPTS, HOOKS_BACKOFF_MS, HOOKS_TIMEOUT_MS, HOOKS_SERVING_URL, HOOKS_SERVING_TIMEOUT_MS; throws naming every bad one. */
export function deliverySettings(env: NodeJS.ProcessEnv = process.env): DeliverySettings {
  const problems: string[] = [];
  const settings: DeliverySettings = {
    maxAttempts: int(env, 'HOOKS_MAX_ATTEMPTS', 6, 1, 20, problems),
    backoffMs: int(env, 'HOOKS_BACKOFF_MS', 30_000, 1, 3_600_000, problems),
    timeoutMs: int(env, 'HOOKS_TIMEOUT_MS', 10_000, 100, 120_000, problems),
    servingUrl: null,
    servingTimeoutMs: int(env, 'HOOKS_SERVING_TIMEOUT_MS', 300_000, 100, 3_600_000, problems),
  };
  const serving = env.HOOKS_SERVING_URL?.trim() ?? '';
  if (serving !== '') {
    if (!/^https?:\/\/[^/?#]+\/?$/.test(serving))
      problems.push(`HOOKS_SERVING_URL must be the origin of the server the release switches, such as http://127.0.0.1:4321 (got ${JSON.stringify(serving)})`);
    else settings.servingUrl = serving.replace(/\/$/, '');
  }
  if (problems.length > 0) throw new Error(problems.join('; '));
  return settings;
}

/** The wait after try `attempt` (1-based) failed: base × 2^(attempt−1), at most MAX_BACKOFF_MS. */
export function backoff(settings: Pick<DeliverySettings, 'backoffMs'>, attempt: number): number {
  return Math.min(settings.backoffMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Resolves once `{servingUrl}/api/rtp/dump/datapackage.json` hashes to `hash` (the release's own), or false at the deadline. */
async function waitServing(settings: DeliverySettings, hash: string): Promise<boolean> {
  if (settings.servingUrl === null) return true;
  const deadline = Date.now() + settings.servingTimeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${settings.servingUrl}${paths.dump.dataPackage}`, {
        signal: AbortSignal.timeout(settings.timeoutMs),
        redirect: 'manual',
        headers: { 'cache-control': 'no-cache' },
      });
      if (res.ok && sha256(new Uint8Array(await res.arrayBuffer())) === hash) return true;
      else await res.body?.cancel();
    } catch {
      // not up yet: asked again below
    }
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(250, deadline - Date.now()));
  }
}

/**
 * One try: the HTTP status (0: no answer) and an error text for anything but 2xx. A webhook goes only
 * to a public address unless its subscriber allows a private one; the WebSub hub is the operator's
 * own setting (WEBSUB_HUB) and is not checked.
 */
function attempt(d: Delivery, sub: Subscriber | null, settings: DeliverySettings): Promise<PostOutcome> {
  const headers: Record<string, string> = { 'content-type': d.content_type, 'user-agent': 'rtp-registry-hooks/1' };
  if (d.kind === 'webhook' && sub !== null) {
    headers[SIGNATURE_HEADER] = signBody(sub.key_hash, d.body);
    headers[DELIVERY_HEADER] = d.id;
    headers[EVENT_HEADER] = 'release';
  }
  const allowPrivate = d.kind === 'websub' || sub?.allow_private === true;
  return postOnce(d.url, { body: d.body, headers, timeoutMs: settings.timeoutMs, allowPrivate });
}

export interface DeliverOptions {
  dir: string;
  settings: DeliverySettings;
  log: (line: string) => void;
  now?: () => Date;
}

/** Sends one delivery to its end (delivered, or failed after the last try), saving after every try. */
async function run(d: Delivery, o: DeliverOptions, served: (d: Delivery) => Promise<boolean>): Promise<void> {
  const now = o.now ?? (() => new Date());
  const to = `${d.kind === 'webhook' ? `subscriber ${d.subscriber}` : 'WebSub hub'} ${d.url}`;
  const finish = async (status: 'delivered' | 'failed', last: { status: number | null; error: string | null }) => {
    await save(o.dir, { ...d, status, next_at: null, last_status: last.status, last_error: last.error });
    o.log(`delivery ${d.id} to ${to}: ${status}${last.error === null ? '' : ` (${last.error})`} after ${d.attempts} ${d.attempts === 1 ? 'try' : 'tries'}`);
  };
  if (!(await served(d)))
    return finish('failed', { status: null, error: `release ${d.release} did not serve at ${o.settings.servingUrl} within ${o.settings.servingTimeoutMs} ms` });
  while (d.attempts < o.settings.maxAttempts) {
    if (d.next_at !== null) await sleep(Date.parse(d.next_at) - now().getTime());
    let sub: Subscriber | null = null;
    if (d.kind === 'webhook') {
      sub = (await readSubscribers(o.dir)).subscribers.find((s) => s.id === d.subscriber) ?? null;
      if (sub === null) return finish('failed', { status: null, error: 'the subscriber was removed' });
    }
    const r = await attempt(d, sub, o.settings);
    d = { ...d, attempts: d.attempts + 1, last_status: r.status, last_error: r.error };
    if (r.error === null) return finish('delivered', r);
    if (d.attempts >= o.settings.maxAttempts) break;
    const wait = backoff(o.settings, d.attempts);
    d = { ...d, next_at: new Date(now().getTime() + wait).toISOString() };
    await save(o.dir, d);
    o.log(`delivery ${d.id} to ${to}: try ${d.attempts} of ${o.settings.maxAttempts} failed (${r.error}); next in ${wait} ms`);
  }
  return finish('failed', { status: d.last_status, error: d.last_error });
}

/**
 * Sends every pending delivery of `dir`, and those queued meanwhile, then returns. Returns false
 * at once when another deliverer holds the lock (it picks up new deliveries before it exits).
 */
export async function deliverAll(o: DeliverOptions): Promise<boolean> {
  const started = new Set<string>();
  const servingChecks = new Map<string, Promise<boolean>>();
  const served = (d: Delivery) => {
    if (d.serving_hash === null) return Promise.resolve(true);
    let p = servingChecks.get(d.release);
    if (p === undefined) servingChecks.set(d.release, (p = waitServing(o.settings, d.serving_hash)));
    return p;
  };
  const limit = pLimit(DELIVERY_CONCURRENCY);
  let sent = 0;
  // A deliverer started while this one held the lock gave up at once; what it was started for is
  // in the outbox before it tried, so one more look after unlocking finds it.
  for (let rounds = 0; ; rounds++) {
    let unlock: () => Promise<void>;
    try {
      unlock = await acquirePidLock(path.join(o.dir, DELIVER_LOCK), (pid) => `another deliverer (process ${pid}) is running`, o.log);
    } catch (err) {
      o.log(`deliveries: ${(err as Error).message}; it sends the new deliveries`);
      return rounds > 0;
    }
    try {
      for (;;) {
        const todo = (await pending(o.dir, o.log)).filter((d) => !started.has(d.id));
        if (todo.length === 0) break;
        for (const d of todo) started.add(d.id);
        o.log(`deliveries: sending ${todo.length}`);
        await Promise.all(
          todo.map((d) =>
            limit(() => run(d, o, served).catch((err: unknown) => o.log(`delivery ${d.id}: stopped: ${err instanceof Error ? err.message : String(err)}`))),
          ),
        );
        sent += todo.length;
      }
    } finally {
      await unlock();
    }
    if ((await pending(o.dir, o.log)).every((d) => started.has(d.id))) break;
  }
  o.log(`deliveries: finished (${sent} handled)`);
  return true;
}
