// Provenance rules over the games of a data folder: the first source states the published RTP,
// every published figure is stated by a source, and every source entry's figures appear on the
// very line of the pinned file it names (data/sources/<file>, line N). A folder without a sources/
// folder (fixtures, synthetic registries) is checked for the first two rules only.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { GameFile } from '../schemas/authoring.ts';
import { nameKey } from './names.ts';

export interface ProvenanceProblem {
  file: string;
  field: string;
  reason: string;
}

/** The forms a figure takes in a source line: 96.2 may be written 96.2 or 96.20, 96 as 96, 96.0 or 96.00. */
function writtenForms(n: number): string[] {
  return [...new Set([String(n), n.toFixed(1), n.toFixed(2)])];
}

/** Whether `text` holds the figure `n` as a number of its own (not inside 196.21 or 96.215). */
export function lineStates(text: string, n: number): boolean {
  return writtenForms(n).some((form) => new RegExp(`(?<![\\d.])${form.replace('.', '\\.')}(?![\\d])`).test(text));
}

/** Every provenance problem of `games` (each with the file it was read from), in order. */
export function provenanceProblems(dir: string, games: ReadonlyArray<{ file: string; game: GameFile }>): ProvenanceProblem[] {
  const out: ProvenanceProblem[] = [];
  const checkLines = existsSync(path.join(dir, 'sources'));
  const lines = new Map<string, string[] | null>();
  const linesOf = (rel: string): string[] | null => {
    if (!lines.has(rel)) {
      const abs = path.join(dir, rel);
      lines.set(rel, existsSync(abs) ? readFileSync(abs, 'utf8').split('\n') : null);
    }
    return lines.get(rel)!;
  };
  for (const { file, game } of games) {
    const first = game.sources[0]!;
    if (first.stated_rtp !== game.stated_rtp) {
      out.push({
        file,
        field: 'sources.0.stated_rtp',
        reason: `${first.stated_rtp} is not the published stated_rtp ${game.stated_rtp} (the first source states it)`,
      });
    }
    const stated = new Set(game.sources.flatMap((s) => s.rtp_variants));
    game.rtp_variants.forEach((v, i) => {
      if (!stated.has(v.rtp)) out.push({ file, field: `rtp_variants.${i}.rtp`, reason: `${v.rtp} is stated by none of the sources` });
    });
    if (!checkLines) continue;
    game.sources.forEach((s, i) => {
      const text = linesOf(s.file)?.[s.line - 1];
      if (text === undefined) {
        out.push({ file, field: `sources.${i}`, reason: linesOf(s.file) === null ? `${s.file} does not exist` : `${s.file} has no line ${s.line}` });
        return;
      }
      if (!nameKey(text).includes(nameKey(game.canonical_name)))
        out.push({ file, field: `sources.${i}`, reason: `${s.file}:${s.line} does not name ${JSON.stringify(game.canonical_name)}` });
      for (const rtp of s.rtp_variants)
        if (!lineStates(text, rtp)) out.push({ file, field: `sources.${i}.rtp_variants`, reason: `${rtp} does not appear on ${s.file}:${s.line}` });
      if (!s.rtp_variants.includes(s.stated_rtp))
        out.push({ file, field: `sources.${i}.stated_rtp`, reason: `${s.stated_rtp} is not among the source's figures` });
    });
  }
  return out;
}
