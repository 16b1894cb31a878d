// The deliveries in flight (RTP_HOOKS_DIR/outbox/<id>.json, one file per delivery, rewritten
// atomically after every try) and those finished (moved to done/ once delivered or given up), so a
// delivery answered 2xx is never sent again, whichever process runs next.
import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { syncDir, toDataJson, writeFileAtomic } from '../lib/write.ts';
import { type Delivery, DeliverySchema } from '../schemas/hooks.ts';

export const OUTBOX_DIR = 'outbox';
export const DONE_DIR = 'done';
/** What the detached deliverer writes: one line per try and per outcome. */
export const DELIVERY_LOG = 'deliveries.log';
const FILE = /^[0-9a-f-]{36}\.json$/;

const fileOf = (dir: string, d: Pick<Delivery, 'id' | 'status'>) => path.join(dir, d.status === 'pending' ? OUTBOX_DIR : DONE_DIR, `${d.id}.json`);

/** Writes new deliveries into the outbox (each durable before this resolves). */
export async function enqueue(dir: string, deliveries: readonly Delivery[]): Promise<void> {
  await mkdir(path.join(dir, OUTBOX_DIR), { recursive: true, mode: 0o700 });
  for (const d of deliveries) await writeFileAtomic(fileOf(dir, d), toDataJson(DeliverySchema.parse(d)), 0o600);
}

/** The deliveries still pending, oldest first; an unreadable file is reported through `log` and left alone. */
export async function pending(dir: string, log: (line: string) => void): Promise<Delivery[]> {
  let names: string[];
  try {
    names = (await readdir(path.join(dir, OUTBOX_DIR))).filter((n) => FILE.test(n));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: Delivery[] = [];
  for (const name of names) {
    const file = path.join(dir, OUTBOX_DIR, name);
    try {
      const d = DeliverySchema.parse(JSON.parse(await readFile(file, 'utf8')));
      if (d.status === 'pending') out.push(d);
    } catch (err) {
      log(`outbox: skipping ${file}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }
  return out.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
}

/** Records a try: rewrites the pending file, or moves a finished delivery to done/. */
export async function save(dir: string, d: Delivery): Promise<void> {
  const checked = DeliverySchema.parse(d);
  if (checked.status === 'pending') {
    await writeFileAtomic(fileOf(dir, checked), toDataJson(checked), 0o600);
    return;
  }
  await mkdir(path.join(dir, DONE_DIR), { recursive: true, mode: 0o700 });
  // Written finished first, then the pending file renamed over it: a crash in between leaves the
  // finished record (no second send), never the pending one alone.
  await writeFileAtomic(path.join(dir, OUTBOX_DIR, `${checked.id}.json`), toDataJson(checked), 0o600);
  await rename(path.join(dir, OUTBOX_DIR, `${checked.id}.json`), fileOf(dir, checked));
  await syncDir(path.join(dir, DONE_DIR));
}

/** A finished delivery by id (tests and `hooks list`), or null. */
export async function finished(dir: string, id: string): Promise<Delivery | null> {
  try {
    return DeliverySchema.parse(JSON.parse(await readFile(path.join(dir, DONE_DIR, `${id}.json`), 'utf8')));
  } catch {
    return null;
  }
}
