// The list item's shape: `include=` and `fields=` read and checked, the default item, and items cut to them.
import { describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { listQueryKey, parseListQuery } from '../../src/list/query.ts';
import { CSV_COLUMN_NAMES } from '../../src/schemas/csv.ts';
import { GameRecordSchema } from '../../src/schemas/game-record.ts';
import { ListResponseSchema, ListShapedResponseSchema, NAMES_PARAM_MAX } from '../../src/schemas/list.ts';
import { LIST_INCLUDES, LIST_ITEM_FIELDS, ListItemSchema, RECORD_FIELDS } from '../../src/schemas/list-item.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';

const services = servicesFor(fixtureBundle(120));
const json = (q: string) => {
  const r = services.list(q);
  return {
    status: r.status,
    body: JSON.parse(Buffer.from(r.body).toString('utf8')) as {
      items: Array<Record<string, unknown>>;
      meta: { query: Record<string, unknown> };
      errors?: Array<{ param: string; message: string }>;
    },
  };
};
const queryOf = (q: string) => {
  const r = parseListQuery(q);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.query;
};
const errorsOf = (q: string) => {
  const r = parseListQuery(q);
  if (r.ok) throw new Error(`${q} parsed`);
  return r.errors;
};

describe('list item shapes', () => {
  it('splits the record into the default item and the parts include= names, the spec fields all in the item', () => {
    expect([...LIST_ITEM_FIELDS, ...LIST_INCLUDES].sort()).toEqual([...RECORD_FIELDS].sort());
    expect(LIST_ITEM_FIELDS.slice(0, 17)).toEqual(RECORD_FIELDS.slice(0, 17)); // the spec's fields, in its order
    expect(LIST_INCLUDES).toEqual(['variants', 'source_kind', 'studio', 'evidence_url', 'notes', 'sources', 'operators']);
  });

  it('normalises include= and fields= to each name once in record order, all spelled out', () => {
    expect(queryOf('include=sources,variants,sources').include).toEqual(['variants', 'sources']);
    expect(queryOf('include=all').include).toEqual(LIST_INCLUDES);
    expect(queryOf('fields=stated_rtp,canonical_slug,stated_rtp').fields).toEqual(['canonical_slug', 'stated_rtp']);
    expect(queryOf('fields=&include=')).toMatchObject({ include: null, fields: null });
    expect(queryOf('fields=,,')).toMatchObject({ fields: null });
  });

  it('rejects unknown names naming them (only name-like ones), too long a value, a repeat, and both together', () => {
    const [e] = errorsOf('fields=canonical_slug,colour,sauce');
    expect(e).toMatchObject({ param: 'fields' });
    expect(e!.message).toMatch(/^unknown names: colour, sauce; must be one or more of: canonical_slug,/);
    const [h] = errorsOf('include=<script>,notes,Nope');
    expect(h!.message).toMatch(/^unknown names: 2 others; must be one or more of: variants, source_kind, studio, evidence_url, notes, sources, operators, all/);
    expect(h!.message).not.toContain('<script>');
    expect(errorsOf(`fields=${'a'.repeat(NAMES_PARAM_MAX + 1)}`)[0]!.message).toBe(`must be at most ${NAMES_PARAM_MAX} characters`);
    expect(errorsOf('fields=notes&fields=notes')[0]!.param).toBe('fields');
    expect(errorsOf('include=notes&fields=notes')).toEqual([
      { param: 'include', message: 'must not be given with fields (fields names every field of the item)' },
    ]);
  });

  it('keys each shape apart in the cache key, the default key unchanged', () => {
    const keys = ['', 'include=notes', 'include=all', 'fields=notes', 'fields=canonical_slug,notes'].map((q) => listQueryKey(queryOf(q)));
    expect(new Set(keys).size).toBe(keys.length);
    expect(listQueryKey(queryOf('include=notes,sources'))).toBe(listQueryKey(queryOf('include=sources,notes')));
  });

  it('answers default items, items with the parts included, the full record, and exactly the fields asked for', () => {
    const plain = json('limit=20');
    ListResponseSchema.parse(plain.body);
    for (const item of plain.body.items) expect(Object.keys(item)).toEqual(LIST_ITEM_FIELDS);
    const full = json('limit=20&include=all');
    ListShapedResponseSchema.parse(full.body);
    for (const item of full.body.items) GameRecordSchema.parse(item);
    const sv = json('limit=20&include=sources,variants');
    expect(sv.body.meta.query).toMatchObject({ include: ['variants', 'sources'], fields: null });
    sv.body.items.forEach((item, k) => {
      expect(Object.keys(item)).toEqual(
        RECORD_FIELDS.filter((f) => (LIST_ITEM_FIELDS as readonly string[]).includes(f) || f === 'sources' || f === 'variants'),
      );
      expect(item.sources).toEqual(full.body.items[k]!.sources);
      expect(item.variants).toEqual(full.body.items[k]!.variants);
      expect(ListItemSchema.parse(plain.body.items[k])).toEqual(Object.fromEntries(LIST_ITEM_FIELDS.map((f) => [f, item[f]])));
    });
    const few = json('limit=20&fields=stated_rtp,canonical_slug');
    expect(few.body.meta.query.fields).toEqual(['canonical_slug', 'stated_rtp']);
    few.body.items.forEach((item, k) => {
      expect(item).toEqual({ canonical_slug: full.body.items[k]!.canonical_slug, stated_rtp: full.body.items[k]!.stated_rtp });
    });
    const bad = json('fields=canonical_slug,colour');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ param: 'fields', message: expect.stringMatching(/^unknown name: colour;/) as unknown as string }]);
  });

  it('picks CSV columns with fields=, rejects names that are not columns, and keeps every column with include=', () => {
    const csv = (q: string) => {
      const r = services.list(q);
      return { status: r.status, text: Buffer.from(r.body).toString('utf8') };
    };
    const all = csv('limit=3&format=csv');
    expect(all.text.split('\r\n')[0]).toBe(CSV_COLUMN_NAMES.join(','));
    expect(csv('limit=3&format=csv&include=sources').text).toBe(all.text);
    const some = csv('limit=3&format=csv&fields=stated_rtp,canonical_slug,source_urls');
    expect(some.status).toBe(200);
    const lines = some.text.split('\r\n');
    expect(lines[0]).toBe('canonical_slug,stated_rtp,source_urls');
    expect(lines).toHaveLength(5);
    const bad = csv('format=csv&fields=confidence');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({
      errors: [{ param: 'fields', message: expect.stringMatching(/^unknown name: confidence;/) as unknown as string }],
    });
    expect(csv('format=csv&include=bogus').status).toBe(400);
  });
});
