// After `npm run release` switched: queues the release's notifications (src/hooks/notify.ts) and
// starts `npm run hooks -- deliver` detached, its output appended to RTP_HOOKS_DIR/deliveries.log,
// so the release ends at once whatever the subscribers do. A failure here is reported, never fatal:
// the release is already serving.
import { spawn } from 'node:child_process';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { deliverySettings } from '../../src/hooks/deliver.ts';
import { queueReleaseNotifications } from '../../src/hooks/notify.ts';
import { DELIVERY_LOG } from '../../src/hooks/outbox.ts';
import { hooksDir } from '../../src/hooks/subscribers.ts';
import { websubHub } from '../../src/routes/urls.ts';

const HOOKS_SCRIPT = path.resolve(import.meta.dirname, '../hooks.ts');

/** Queues and starts the deliveries of release `name`; returns the lines to print. */
export async function notifyRelease(releases: string, name: string, previous: string | null): Promise<string[]> {
  try {
    deliverySettings(); // a bad setting is named now, not only in the deliverer's log
    const dir = hooksDir();
    const queued = await queueReleaseNotifications({ releases, name, previous, hooks: dir, hub: websubHub() });
    if (queued.reason !== null) return [`notifications: none (${queued.reason})`];
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const log = await open(path.join(dir, DELIVERY_LOG), 'a', 0o600);
    try {
      const child = spawn(process.execPath, [HOOKS_SCRIPT, 'deliver'], { detached: true, stdio: ['ignore', log.fd, log.fd], env: process.env });
      child.unref();
    } finally {
      await log.close();
    }
    return [
      `notifications: ${queued.webhooks} webhook(s) and ${queued.pings} WebSub ping(s) queued; sent in the background, logged in ${path.join(dir, DELIVERY_LOG)}`,
    ];
  } catch (err) {
    return [`notifications: not queued: ${err instanceof Error ? err.message : String(err)} (the release is serving; no notification was sent)`];
  }
}
