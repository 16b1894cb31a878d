// The body of a list-route answer that is records only (batch lookup, delta sync): a meta object
// then the records copied once from the engine, each optionally with one more field at its end.
import type { ListEngine } from './engine.ts';

const COMMA = 0x2c;

/**
 * `{"meta":<meta>,"items":[<record>,...]}` for the record indexes `items`, in one buffer at its exact
 * size. `extraField(i)` (e.g. `,"updated_at":"…"`) is written before a record's closing brace.
 */
export function recordsBody(engine: ListEngine, meta: unknown, items: readonly number[], extraField?: (index: number) => string): Buffer {
  const head = Buffer.from(`{"meta":${JSON.stringify(meta)},"items":[`);
  const extras = extraField === undefined ? null : items.map((i) => Buffer.from(extraField(i)));
  let size = head.length + 2 + Math.max(0, items.length - 1);
  for (let k = 0; k < items.length; k++) size += engine.recordLength(items[k]!) + (extras === null ? 0 : extras[k]!.length);
  const out = Buffer.allocUnsafe(size);
  let at = head.copy(out, 0);
  items.forEach((i, k) => {
    if (k > 0) out[at++] = COMMA;
    at = engine.copyRecord(i, out, at);
    const extra = extras?.[k];
    if (extra !== undefined) {
      // The record ends with its closing brace: the field goes before it.
      const brace = out[at - 1]!;
      at = at - 1 + extra.copy(out, at - 1);
      out[at++] = brace;
    }
  });
  out[at++] = 0x5d;
  out[at] = 0x7d;
  return out;
}
