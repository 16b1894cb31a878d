// Text folding, tokenising and string order: the rules behind sort=name, facet order and search matching.

const ASCII = /^[\x00-\x7f]*$/;
const MARKS = /\p{M}+/gu;
const APOSTROPHES = /['\u2019\u02bc]/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const ASCII_SEPARATORS = /[^a-z0-9]+/;

/** Case- and accent-insensitive form: NFKD (compatibility forms such as full-width letters unified), lowercased, combining marks removed. */
export function fold(value: string): string {
  if (ASCII.test(value)) return value.toLowerCase();
  return value.normalize('NFKD').toLowerCase().replace(MARKS, '');
}

/**
 * Search terms of a text: folded, apostrophes dropped (so "Gonzo's" is one word, "gonzos"), split
 * on anything that is not a letter or digit (hyphens in slugs and keys included).
 */
export function tokenize(value: string): string[] {
  const folded = fold(value).replace(APOSTROPHES, '');
  const parts = folded.split(ASCII.test(folded) ? ASCII_SEPARATORS : SEPARATORS);
  const out: string[] = [];
  for (const part of parts) if (part !== '') out.push(part);
  return out;
}

/** Distinct search terms of a query, in first-seen order. */
export function queryTerms(q: string): string[] {
  return [...new Set(tokenize(q))];
}

/** Code-unit comparison of two strings: the order of slugs, folded names and facet keys. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
