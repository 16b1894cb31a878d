// The bench's payload figures: bytes per answer and per item of list answers.
import { describe, expect, it } from 'vitest';
import { itemBytesOf, listPayload } from '../../scripts/bench/payload.ts';

const body = (items: unknown[]) => Buffer.from(JSON.stringify({ meta: { filtered: items.length }, facets: {}, items }));

describe('bench payload', () => {
  it('counts each item by its own JSON bytes, and answers without items not at all', () => {
    expect(itemBytesOf(body([{ a: 1 }, { a: 'xyz' }]))).toEqual({ perItem: (7 + 11) / 2, items: 2 });
    expect(itemBytesOf(body([]))).toBeNull();
    expect(itemBytesOf(Buffer.from('{"meta":{}}'))).toBeNull();
  });

  it('gives the default page and a band over the mix', () => {
    const page = body([{ a: 'é' }]);
    const p = listPayload(page, [body([{ a: 1 }]), body([]), body([{ a: 1234 }, { a: 12 }])]);
    expect(p.defaultPage).toEqual({ answerBytes: page.length, itemBytes: 10, items: 1 });
    expect(p.mixAnswerBytes.n).toBe(3);
    expect(p.mixItemBytes).toEqual({ median: 8, min: 7, max: 9, n: 2 });
  });
});
