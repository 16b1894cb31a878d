// Names as keys: the matching key of a game name, shared by the ingest (matching games across
// sources) and the provenance check (a source line names the game it is cited for), and URL slugs.
import { fold } from '../schemas/text.ts';

/** Roman numerals written as a word, as digits ("II", "Ii" and "2" name one sequel); I, V and X stay letters. */
const ROMAN: Readonly<Record<string, string>> = { II: '2', III: '3', IV: '4', VI: '6', VII: '7', VIII: '8', IX: '9' };

/**
 * The matching key of a game name: the folded name (schemas/text.ts `fold`: case, accents,
 * apostrophes and trademark signs do not count, "Play’n GO" = "Play'n GO", "Wolf Gold™" = "Wolf
 * Gold") without spaces or punctuation ("CherryPop" = "Cherry Pop"); "&" is "and"; a Roman numeral
 * word is its number ("3 Clown Monty II" = "3 Clown Monty 2"). Every word counts: "Deluxe",
 * "Megaways", "1000", "Xmas" make another game.
 */
export function nameKey(name: string): string {
  return fold(name.replace(/\b(?:II|III|IV|VI|VII|VIII|IX)\b/gi, (m) => ROMAN[m.toUpperCase()]!))
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]/g, '');
}

/** A URL slug from a display name: the folded name's ASCII letters and digits, words joined by hyphens. */
export function slugify(name: string): string {
  return fold(name)
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
