// Expands schema.org JSON-LD with a real JSON-LD processor (jsonld.js) and a local copy of the
// parts of the schema.org context the registry uses (tests reach no network), and checks it holds
// one node of type schema:Dataset.
import jsonld from 'jsonld';
import { expect } from 'vitest';

export const SCHEMA = 'https://schema.org/';

/** The schema.org terms the registry's Dataset uses whose values are IRIs (as in the schema.org context). */
const IRI_TERMS = ['url', 'license', 'contentUrl', 'sameAs'];
const CONTEXT = { '@vocab': SCHEMA, ...Object.fromEntries(IRI_TERMS.map((t) => [t, { '@id': `${SCHEMA}${t}`, '@type': '@id' }])) };

/** Serves the schema.org context for `https://schema.org` (with or without a trailing slash); refuses anything else. */
async function documentLoader(url: string) {
  if (url.replace(/\/$/, '') !== 'https://schema.org') throw new Error(`no network in tests: refused to load ${url}`);
  return { documentUrl: url, document: { '@context': CONTEXT } };
}

/**
 * Expands `doc` in safe mode (a term the context cannot map is an error, not dropped) and returns
 * its one top-level node, after checking it is a schema:Dataset with name, description, version,
 * licence, dateModified, creator and distribution.
 */
export async function expandDataset(doc: object): Promise<Record<string, unknown>> {
  const expanded = (await jsonld.expand(doc as jsonld.JsonLdDocument, { documentLoader, safe: true } as jsonld.Options.Expand)) as Array<
    Record<string, unknown>
  >;
  expect(expanded).toHaveLength(1);
  const ds = expanded[0]!;
  expect(ds['@type']).toEqual([`${SCHEMA}Dataset`]);
  for (const p of ['name', 'description', 'version', 'license', 'dateModified', 'creator', 'distribution'])
    expect(ds[`${SCHEMA}${p}`], `schema:${p}`).toBeDefined();
  return ds;
}

/** The JSON-LD documents of an HTML page (`<script type="application/ld+json">`). */
export function jsonLdOf(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));
}
