// Text folding, the one rule behind search terms, name order and the ingest's name keys and slugs:
// pinned on the inputs that break naive folding.
import { describe, expect, it } from 'vitest';
import { nameKey, slugify } from '../../src/registry/names.ts';
import { fold, queryTerms, tokenize } from '../../src/schemas/text.ts';

describe('fold', () => {
  it.each([
    ['plain ASCII, lowercased', 'Book of Dead', 'book of dead'],
    ['apostrophes of every spelling are dropped', "Play'n GO", 'playn go'],
    ['right single quote', 'Play’n GO', 'playn go'],
    ['left single quote and modifier apostrophe', 'Reel ‘Em ʼN', 'reel em n'],
    ['an acute accent written as an apostrophe', 'Winner´s Car Wash', 'winners car wash'],
    ['backtick and prime', 'Rock`n′Roll', 'rocknroll'],
    ['umlauts lose their marks', 'Äpfel Öl Über', 'apfel ol uber'],
    ['accents in composed and decomposed form alike', 'Café Cafe\u0301', 'cafe cafe'],
    ['sharp s is ss, small and capital', 'Straße STRAẞE', 'strasse strasse'],
    ['compatibility ligatures are split', 'ﬁre ﬂy', 'fire fly'],
    ['letters NFKD keeps whole are spelled out', 'Æther Œuvre Børk Łódź Þór', 'aether oeuvre bork lodz thor'],
    ['full-width letters and digits', 'ＢＯＯＫ ｏｆ ２', 'book of 2'],
    ['a full-width apostrophe', 'Ｇｏｎｚｏ＇ｓ', 'gonzos'],
    ['trademark signs are no part of a name', 'Wolf Gold™ Zrecnyk®  ©℠', 'wolf gold zrecnyk  '],
    ['dotted capital I', 'İstanbul', 'istanbul'],
    ['letters of other scripts stay', 'Дракон 龍', 'дракон 龍'],
    ['the empty string', '', ''],
  ])('%s: %j', (_why, input, folded) => {
    expect(fold(input)).toBe(folded);
  });

  it('is idempotent', () => {
    for (const s of ["Play'n GO", 'Straße', 'Æther', 'ＢＯＯＫ', 'Wolf Gold™', 'Winner´s']) expect(fold(fold(s))).toBe(fold(s));
  });
});

describe('what is built on fold', () => {
  it('search terms: folded, split on anything but letters and digits', () => {
    expect(tokenize('Gonzo’s Quest — MEGAWAYS™')).toEqual(['gonzos', 'quest', 'megaways']);
    expect(tokenize('Play’n GO')).toEqual(tokenize("play'n go"));
    expect(queryTerms('Straße strasse STRAẞE')).toEqual(['strasse']);
    expect(tokenize('!!!')).toEqual([]);
  });

  it('name keys and slugs agree with the search on the same spellings', () => {
    expect(nameKey('Play’n GO')).toBe(nameKey("Play'n GO"));
    expect(nameKey('Wolf Gold™')).toBe(nameKey('Wolf Gold'));
    expect(nameKey('Børk The Berzerker')).toBe('borktheberzerker');
    expect(slugify('Børk The Berzerker')).toBe('bork-the-berzerker');
    expect(slugify('Winner´s Car Wash')).toBe('winners-car-wash');
    expect(slugify('Autumn Queen™')).toBe('autumn-queen');
    expect(slugify('Spiñata Piñata')).toBe('spinata-pinata');
  });
});
