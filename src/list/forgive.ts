// The forgiving pass of `q` (docs/api-list.md, Search): when no record matches every word as typed,
// the words are read again as a person probably meant them. Small words ("of", "the") and lone
// letters become optional, Roman and Arabic numerals stand for each other, a word run together
// ("bookofdead") is split into the index's words, and every word of 3 letters or more that the
// index does not have tolerates typos (one edit for 3-4 letters, two from 5). This module plans
// the words; src/list/search.ts matches them.
import { SEARCH_OPTIONS } from '../schemas/search-index.ts';

/** Most words a forgiving reading may have (after splitting and merging repeats); a longer one is not tried, so its work stays bounded. */
export const MAX_FORGIVING_TERMS = 12;

/** Longest word split as a run-together name: a longer run of letters is no name typed without spaces. */
export const MAX_RUN_TOGETHER_LENGTH = 40;

/** Words that may be left out or added without changing which game is meant. */
export const OPTIONAL_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'of',
  'and',
  'n',
  'de',
  'del',
  'la',
  'le',
  'el',
  'du',
  'des',
  'di',
  'da',
  'der',
  'die',
  'das',
  'und',
  'y',
  'et',
  'e',
]);

/** Roman numerals 2-20 as game names use them ("II", "XX"); the lone `i` is too often a word or a typo. */
const ROMAN = ['', 'i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii', 'xiii', 'xiv', 'xv', 'xvi', 'xvii', 'xviii', 'xix', 'xx'];

/** One word of a forgiving query: the forms it may take, each with the edits a matching index word may differ by, and whether a match needs it. */
export interface PlannedTerm {
  forms: Array<{ term: string; fuzzy: number }>;
  required: boolean;
}

/** What the planner asks of the index's words. */
export interface TermLookup {
  /** The word is in the index. */
  has(term: string): boolean;
  /** Some word of the index starts with `prefix` (the word itself included). */
  hasPrefix(prefix: string): boolean;
  /** Some word of the index is within `distance` edits of `term`. */
  hasNear(term: string, distance: number): boolean;
}

/** Edits a word tolerates as typed (SEARCH_OPTIONS in src/schemas/search-index.ts): 0.2 × length from 5 letters. */
export function typedDistance(term: string): number {
  return term.length >= 5 ? Math.min(SEARCH_OPTIONS.maxFuzzy, Math.round(term.length * 0.2)) : 0;
}

/**
 * Edits tolerated for a word: none up to 2 letters, one for 3-4, two from 5, and never fewer than as
 * typed (0.2 × length from 5 letters, src/schemas/search-index.ts); numbers only as typed.
 */
export function forgivingDistance(term: string): number {
  const typed = typedDistance(term);
  if (/^\d+$/.test(term)) return typed;
  return Math.max(typed, term.length <= 2 ? 0 : term.length <= 4 ? 1 : 2);
}

/** The word and its other numeral form: `2` and `ii`, `xiv` and `14`. */
export function numeralForms(term: string): string[] {
  if (/^\d{1,2}$/.test(term)) {
    const n = Number(term);
    return n >= 2 && n <= 20 ? [term, ROMAN[n]!] : [term];
  }
  const n = ROMAN.indexOf(term);
  return n >= 2 ? [term, String(n)] : [term];
}

/**
 * A word run together, split into the index's words: every part a word of the index, fewest parts
 * first; else the longest such head and a tail of 3 letters or more, which is then matched with
 * typos ("bookofded" -> book, of, ded). Null when no split has two parts or more.
 */
export function splitRunTogether(term: string, index: TermLookup): string[] | null {
  const n = term.length;
  const best = new Array<number>(n + 1).fill(Infinity);
  const from = new Array<number>(n + 1).fill(-1);
  best[0] = 0;
  for (let i = 1; i <= n; i++) {
    for (let j = Math.max(0, i - 40); j < i; j++) {
      if (best[j] === Infinity || best[j]! + 1 >= best[i]!) continue;
      const part = term.slice(j, i);
      if ((part.length >= 2 || OPTIONAL_WORDS.has(part)) && index.has(part)) {
        best[i] = best[j]! + 1;
        from[i] = j;
      }
    }
  }
  let cut = -1;
  if (best[n] !== Infinity && best[n]! >= 2) cut = n;
  else for (let j = n - 3; j >= 2 && cut === -1; j--) if (best[j] !== Infinity) cut = j;
  if (cut === -1) return null;
  const parts: string[] = cut < n ? [term.slice(cut)] : [];
  for (let i = cut; i > 0; i = from[i]!) parts.unshift(term.slice(from[i]!, i));
  return parts.length >= 2 ? parts : null;
}

/**
 * A word no index word is or starts that splits wholly into index words ("wolfgold": wolf, gold;
 * no misspelt tail), or null. Such a word is read as its parts even where it is within typos of an
 * index word ("wolfwood"): two words spelt right say more than one word with two slips.
 */
export function splitWhole(term: string, index: TermLookup): string[] | null {
  if (term.length < 6 || term.length > MAX_RUN_TOGETHER_LENGTH || index.hasPrefix(term)) return null;
  const parts = splitRunTogether(term, index);
  return parts?.every((p) => index.has(p)) ? parts : null;
}

/** Whether a match may leave the word out: a small word, or a lone letter ("gonzo s quest", "bonanza x"). */
export function isOptional(term: string): boolean {
  return OPTIONAL_WORDS.has(term) || (term.length === 1 && !/\d/.test(term));
}

/** A word of the index is taken as meant: it keeps its typed tolerance; other words get the forgiving one. */
function planWord(term: string, index: TermLookup): PlannedTerm {
  return { forms: numeralForms(term).map((t) => ({ term: t, fuzzy: index.has(t) ? typedDistance(t) : forgivingDistance(t) })), required: !isOptional(term) };
}

/** Whether a plan reads the words exactly as typed (so it can match nothing more than they did). */
export function readsAsTyped(plan: readonly PlannedTerm[], terms: readonly string[]): boolean {
  return (
    plan.length === terms.length &&
    plan.every((p, i) => p.required && p.forms.length === 1 && p.forms[0]!.term === terms[i] && p.forms[0]!.fuzzy === typedDistance(terms[i]!))
  );
}

/**
 * The forgiving reading of a query's words (already tokenised): each word with its forms, required
 * unless it is a small word or a lone letter, a word the index has keeping its typed tolerance (it is
 * spelt right; the words together are what matched nothing); a word of 6 letters or more that neither starts an index word nor is
 * within its typo tolerance of one is split into its parts. A query of small words needs them all.
 */
export function planForgiving(terms: readonly string[], index: TermLookup): PlannedTerm[] {
  const plan: PlannedTerm[] = [];
  const seen = new Set<string>();
  for (const term of terms) {
    // A word near an index word is taken as a typo of it, unless it splits wholly into index words.
    const candidate = term.length >= 6 && term.length <= MAX_RUN_TOGETHER_LENGTH && !index.hasPrefix(term);
    const parts = !candidate ? null : index.hasNear(term, forgivingDistance(term)) ? splitWhole(term, index) : splitRunTogether(term, index);
    for (const part of parts ?? [term]) {
      // A word asked twice ("aa aa", or a run split into repeats) is one word: matched and weighed once.
      if (!seen.has(part)) plan.push(planWord(part, index));
      seen.add(part);
    }
  }
  if (!plan.some((p) => p.required)) for (const p of plan) p.required = true;
  return plan;
}
