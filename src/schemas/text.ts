// Text folding, tokenising and string order: the rules behind sort=name, facet order, search matching and name keys.

const ASCII = /^[\x00-\x7f]*$/;
const ASCII_APOSTROPHES = /['`]/g;
/** Signs that are no part of a name (™ would otherwise fold to "tm"), and the acute accent written as an apostrophe. */
const SIGNS = /[\u2122\u00ae\u00a9\u2120\u00b4]/gu;
/** Apostrophes and the marks written for one, after NFKD (which turns a full-width ＇ into '). */
const APOSTROPHES = /['`\u2018\u2019\u02bc\u2032]/gu;
const MARKS = /\p{M}+/gu;
/** Lowercase letters NFKD keeps whole, as the base letters they are searched and sorted by. */
const LETTERS: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };
const LETTER = /[ßæœøđðłþı]/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const ASCII_SEPARATORS = /[^a-z0-9]+/;

/**
 * The folded form of a text, the one rule by which names and queries are matched, sorted and keyed:
 * case, accents and compatibility forms (NFKD: full-width letters, ligatures such as ﬁ) do not count,
 * nor do apostrophes ("Play’n GO" is "playn go"), ™ ® © ℠, or the letters NFKD keeps whole
 * (ß is "ss", æ "ae", œ "oe", ø "o", đ and ð "d", ł "l", þ "th", dotless ı "i").
 */
export function fold(value: string): string {
  if (ASCII.test(value)) return value.toLowerCase().replace(ASCII_APOSTROPHES, '');
  return value
    .replace(SIGNS, '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(MARKS, '')
    .replace(APOSTROPHES, '')
    .replace(LETTER, (c) => LETTERS[c]!);
}

/**
 * Search terms of a text: folded (apostrophes dropped, so "Gonzo's" is one word, "gonzos"), split
 * on anything that is not a letter or digit (hyphens in slugs and keys included).
 */
export function tokenize(value: string): string[] {
  const folded = fold(value);
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
