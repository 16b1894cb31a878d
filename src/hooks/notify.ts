// What `npm run release` queues once it has switched: per subscriber, a `release` webhook with the
// games it watches that the release added, removed or changed (nothing when none); and, with
// WEBSUB_HUB, publish pings naming the feeds that changed. The deliverer (deliver.ts) sends them.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FILES_FILE, MANIFEST_FILE, readReleaseInfo } from '../release/store.ts';
import { parseHashes } from '../release/tree.ts';
import { readBuildInfo } from '../routes/build-info.ts';
import { dumpFiles, paths } from '../routes/paths.ts';
import { BUNDLE_FILE } from '../schemas/dist.ts';
import { type Delivery, ReleaseWebhookSchema } from '../schemas/hooks.ts';
import { ReleaseManifestSchema } from '../schemas/release.ts';
import { changeCount, changesFor, diffFigures, readBundleFigures, watchesAll } from './changes.ts';
import { enqueue } from './outbox.ts';
import { readSubscribers } from './subscribers.ts';

/** Feeds named in one WebSub publish ping at most (several pings when more changed). */
export const TOPICS_PER_PING = 100;
/** The file whose hash tells the release serves (it hashes every dump, so it changes with any record). */
export const SERVING_FILE = `client/${dumpFiles.dataPackage}`;

export interface NotifyOptions {
  /** The releases folder. */
  releases: string;
  /** The release now serving and the one it replaced (null: the first release, nothing to compare). */
  name: string;
  previous: string | null;
  /** The hooks folder (subscribers, outbox). */
  hooks: string;
  /** The WebSub hub to ping, or null. */
  hub: string | null;
  now?: () => Date;
}

export interface NotifyOutcome {
  webhooks: number;
  pings: number;
  /** Why nothing was queued, when nothing was. */
  reason: string | null;
}

/** Queues the release's notifications; see the file header. */
export async function queueReleaseNotifications(o: NotifyOptions): Promise<NotifyOutcome> {
  const none = (reason: string): NotifyOutcome => ({ webhooks: 0, pings: 0, reason });
  if (o.previous === null) return none('the first release has nothing to compare with');
  const subscribers = (await readSubscribers(o.hooks)).subscribers;
  if (subscribers.length === 0 && o.hub === null) return none('no subscribers and no WebSub hub');
  const folder = path.join(o.releases, o.name);
  const [info, previous] = await Promise.all([readReleaseInfo(o.releases, o.name), readReleaseInfo(o.releases, o.previous)]);
  if (info === null || previous === null) throw new Error(`cannot read release.json of ${info === null ? o.name : o.previous} in ${o.releases}`);
  const [before, after] = await Promise.all([
    readBundleFigures(path.join(o.releases, o.previous, 'server', BUNDLE_FILE)),
    readBundleFigures(path.join(folder, 'server', BUNDLE_FILE)),
  ]);
  const all = diffFigures(before.games, after.games, after.mergedInto);
  if (changeCount(all) === 0) return none('no game was added, removed or changed');
  const hashes = parseHashes(await readFile(path.join(folder, FILES_FILE), 'utf8'));
  const servingHash = hashes.get(SERVING_FILE) ?? null;
  const now = (o.now ?? (() => new Date()))().toISOString();
  const base = {
    format: 1 as const,
    release: o.name,
    serving_hash: servingHash,
    created_at: now,
    status: 'pending' as const,
    attempts: 0,
    next_at: null,
    last_status: null,
    last_error: null,
  };
  const out: Delivery[] = [];
  for (const s of subscribers) {
    const changes = changesFor(s, all);
    if (changeCount(changes) === 0) continue;
    const id = randomUUID();
    const body = ReleaseWebhookSchema.parse({
      event: 'release',
      delivery_id: id,
      release: {
        name: info.name,
        data_version: info.data_version,
        frozen_at: info.frozen_at,
        released_at: info.released_at,
        previous: previous.name,
        previous_data_version: previous.data_version,
      },
      watching: watchesAll(s) ? 'all' : { providers: s.providers, games: s.games },
      counts: { added: changes.added.length, removed: changes.removed.length, changed: changes.changed.length },
      ...changes,
    });
    out.push({ ...base, id, kind: 'webhook', subscriber: s.id, url: s.url, content_type: 'application/json', body: JSON.stringify(body) });
  }
  const webhooks = out.length;
  if (o.hub !== null) {
    const { site } = await readBuildInfo(path.join(folder, 'server'));
    const manifest = ReleaseManifestSchema.parse(JSON.parse(await readFile(path.join(folder, MANIFEST_FILE), 'utf8')));
    const feeds = [paths.feed, ...manifest.families.feed.changed, ...manifest.families.feed.added].map((p) => `${site}${p}`);
    for (let k = 0; k < feeds.length; k += TOPICS_PER_PING) {
      const form = new URLSearchParams([['hub.mode', 'publish'], ...feeds.slice(k, k + TOPICS_PER_PING).map((f): [string, string] => ['hub.url', f])]);
      out.push({
        ...base,
        id: randomUUID(),
        kind: 'websub',
        subscriber: null,
        url: o.hub,
        content_type: 'application/x-www-form-urlencoded',
        body: form.toString(),
      });
    }
  }
  await enqueue(o.hooks, out);
  return { webhooks, pings: out.length - webhooks, reason: null };
}
