// The list route's payload in the bench: bytes per answer and per item of the default page and of
// the mix's answers, so a heavier answer shows up even when every throughput ratio holds (a
// ceiling that replays the same heavier bytes slows down with it).
import type { PhaseResult } from './results.ts';
import { summarize } from './stats.ts';

/** Payload figures of a list phase (the result file's `list.payload`). */
export type ListPayload = NonNullable<PhaseResult<'list'>['payload']>;

/** The path of the default page the payload figures name. */
export const DEFAULT_PAGE_PATH = '/api/rtp/list?limit=50';

/** Bytes of one list answer's items (each as the body holds it) over their count, or null without items. */
export function itemBytesOf(body: Buffer): { perItem: number; items: number } | null {
  const parsed = JSON.parse(body.toString('utf8')) as { items?: unknown[] };
  const items = parsed.items ?? [];
  if (items.length === 0) return null;
  // The body is JSON.stringify of its object, so each item's bytes are its own JSON text.
  const bytes = items.reduce<number>((sum, item) => sum + Buffer.byteLength(JSON.stringify(item)), 0);
  return { perItem: bytes / items.length, items: items.length };
}

/** The payload figures from the default page's body and the mix's bodies. */
export function listPayload(defaultPage: Buffer, mixBodies: readonly Buffer[]): ListPayload {
  const page = itemBytesOf(defaultPage);
  const perItem = mixBodies
    .map(itemBytesOf)
    .filter((x) => x !== null)
    .map((x) => x.perItem);
  return {
    defaultPage: { answerBytes: defaultPage.length, itemBytes: Math.round(page?.perItem ?? 0), items: page?.items ?? 0 },
    mixAnswerBytes: summarize(mixBodies.map((b) => b.length)),
    mixItemBytes: summarize(perItem.length > 0 ? perItem : [0]),
  };
}
