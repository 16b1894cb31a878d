// The "licensed casino" section of docs/DATA.md: how each figure of the operator's catalogue
// compares with the published record (agrees, a lower build, a higher build that set or did not set
// the stated RTP, the game's only source). Pure: scripts/data-report.ts writes it.
import type { GameFile } from '../../src/schemas/authoring.ts';

/** One published game with an operator figure, and how the figure stands against the record. */
export interface OperatorRow {
  game: GameFile;
  figure: number;
  line: string;
  /** agrees: equal to the stated RTP; lower; sets: it states the published figure and no other source does (their figures are a lower rung, or conflict); higher: above the stated RTP, which stays; only: no other source. */
  standing: 'agrees' | 'lower' | 'sets' | 'higher' | 'only';
}

/** Every operator figure of every published game, with its standing. */
export function operatorRows(games: readonly GameFile[]): OperatorRow[] {
  const rows: OperatorRow[] = [];
  for (const game of games) {
    const others = game.sources.filter((s) => s.kind !== 'operator');
    for (const s of game.sources.filter((x) => x.kind === 'operator')) {
      const standing: OperatorRow['standing'] =
        others.length === 0
          ? 'only'
          : s.stated_rtp === game.stated_rtp
            ? game.sources[0] === s && others.every((o) => o.stated_rtp !== s.stated_rtp)
              ? 'sets'
              : 'agrees'
            : s.stated_rtp < game.stated_rtp
              ? 'lower'
              : 'higher';
      rows.push({ game, figure: s.stated_rtp, line: `${s.file}:${s.line}`, standing });
    }
  }
  return rows;
}
