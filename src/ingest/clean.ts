// Written rules that clean what the source lines write before games are matched
// (docs/data-model.md, "Clean records"): signs and page-title junk out of names, a build a name marks
// ("(Flash)"), and the game type of table, video-poker and keno games the lines call slots.
import type { GameType } from '../schemas/authoring.ts';
import { nameKey } from './normalise.ts';

/** A name as the registry shows it, and the build its source's name marked, if any. */
export interface CleanName {
  name: string;
  /** "flash" when the name ended in "(Flash)": an older build of the game, not another game. */
  build: 'flash' | null;
}

/**
 * The rules, in order: ™, ® and © go; the acute accent used as an apostrophe becomes one ("7´s Gold"
 * → "7's Gold"); then, until none applies, a trailing "(Flash)" (the build is kept), a trailing word
 * "Slot" ("Superman II Slot"), and a trailing name of the line's own provider, bare or after "by"
 * ("King Kong NextGen", "Oktoberfest by Amaya"). A rule that would leave no name is not applied.
 */
export function cleanName(written: string, ownLabels: readonly string[]): CleanName {
  let name = written.replace(/[™®©]/g, '').replace(/´/g, "'").replace(/\s+/g, ' ').trim();
  let build: CleanName['build'] = null;
  const labels = ownLabels.map(nameKey).filter((l) => l !== '');
  for (let changed = true; changed; ) {
    changed = false;
    const flash = /^(.*\S)\s*\(flash\)$/i.exec(name);
    if (flash !== null) [name, build, changed] = [flash[1]!, 'flash', true];
    const slot = /^(.*?\S)\s+(?:video\s+)?slot$/i.exec(name);
    if (slot !== null) [name, changed] = [slot[1]!, true];
    for (const words of [2, 1]) {
      const m = new RegExp(`^(.*?\\S)\\s+((?:by\\s+)?(\\S+(?:\\s+\\S+){${words - 1}}))$`, 'i').exec(name);
      if (m !== null && labels.includes(nameKey(m[3]!))) {
        [name, changed] = [m[1]!, true];
        break;
      }
    }
  }
  return { name: name === '' ? written.trim() : name, build };
}

/** Words that name a table game; a name where the word follows "of" is a theme ("Adventures of Captain Blackjack"). */
const TABLE = /\b(baccarat|punto banco|blackjack|roulette|craps|sic bo|hold'?em|red dog|pontoon|casino war)\b/i;
const VIDEO_POKER = /\b(jacks or better|deuces wild|joker poker|all american|bonus poker|power poker|aces (?:and|&) faces)\b/i;
const KENO = /\bkeno\b/i;
/** A dice game's figure: no dice-themed slot in the sources reaches 98, a dice table game stands at 99 or more. */
const DICE_TABLE_FROM = 99;

/**
 * The game type a line called `slot` really is, by its name: a table game's word (baccarat, punto
 * banco, blackjack, roulette, craps, sic bo, hold'em, red dog, pontoon, casino war) not after "of"
 * makes it `table`; a video-poker hand's name (jacks or better, deuces wild, joker poker, all
 * american, bonus poker, power poker, aces and faces) `video_poker`; "keno" `keno`; "dice" with a
 * figure of 99 or more `table` ("Magical Dice" 99.875). Other types stay as the line gives them.
 */
export function gameTypeOf(name: string, given: GameType, rtp: number): GameType {
  if (given !== 'slot') return given;
  const themed = (re: RegExp) => new RegExp(`\\bof\\b.*${re.source}`, 'i').test(name);
  if (VIDEO_POKER.test(name)) return 'video_poker';
  if (TABLE.test(name) && !themed(TABLE)) return 'table';
  if (KENO.test(name)) return 'keno';
  if (/\bdice\b/i.test(name) && rtp >= DICE_TABLE_FROM) return 'table';
  return given;
}
