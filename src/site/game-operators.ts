// The game page's "Which build do casinos run?" section: one short row per casino whose pinned
// catalogue lists the game (its figure, which rung of the page's RTP ladder that is, its source line
// and the date the source was pinned), and the casinos' names at their rungs of the ladder.
import { escapeHtml as e } from '../lib/html.ts';
import { gapPoints } from '../registry/shape-operator.ts';
import { paths } from '../routes/paths.ts';
import type { GameRecord, OperatorBuild } from '../schemas/game-record.ts';
import { formatDate, formatRtp } from './format.ts';

/** More casinos than this at one rung are counted on the ladder, not named (the label must fit a phone). */
const NAMED_PER_RUNG = 2;

/** The words the ladder adds to each rung a casino's catalogue showed: the casinos' names (or how many), by RTP. */
export function ladderSeen(r: GameRecord): Map<number, string> {
  const byRtp = new Map<number, string[]>();
  for (const o of r.operators) (byRtp.get(o.rtp) ?? byRtp.set(o.rtp, []).get(o.rtp)!).push(o.display);
  return new Map([...byRtp].map(([rtp, names]) => [rtp, names.length > NAMED_PER_RUNG ? `${names.length} casinos` : names.join(', ')]));
}

/** Which build a figure is, in words (its kind is on the ladder): the top build, a rung under it, or one over it and why the stated RTP stays. */
function buildWords(r: GameRecord, o: OperatorBuild): string {
  if (o.build === 'top') return 'the top build';
  if (o.build === 'lower') return `${gapPoints(r.stated_rtp, o.rtp).toFixed(2)} points under the stated RTP`;
  // A reason the notes do not give is the record's own: its variant of that kind is not the default build.
  return o.reason !== null && r.notes.includes(o.reason)
    ? 'over the stated RTP (the notes say why it stays)'
    : 'over the stated RTP, which stays the default build';
}

/** Where the figure was read: the catalogue file and index the pinned line names (else the pinned line), and the date it was pinned. */
function sourceWords(o: OperatorBuild): string {
  const s = o.source;
  const where = s.catalogue_file === null || s.index === null ? `${s.file}:${s.line}` : `${s.catalogue_file} #${s.index}`;
  const link = /^https?:\/\//i.test(s.url) ? `<a href="${e(s.url)}" rel="nofollow noopener">${e(where)}</a>` : e(where);
  return `<small>${link}, pinned <time datetime="${e(s.pinned_at)}">${e(formatDate(s.pinned_at))}</time></small>`;
}

/** The section, or '' for a game no casino's catalogue is known to list. */
export function operatorsSection(r: GameRecord): string {
  if (r.operators.length === 0) return '';
  const rows = r.operators
    .map(
      (o) =>
        `<li><a href="${e(paths.operatorPage(o.operator))}">${e(o.display)}</a>${o.market === null ? '' : ` (${e(o.market)})`}: ` +
        `<strong>${e(formatRtp(o.rtp))}</strong>, ${buildWords(r, o)} ${sourceWords(o)}</li>`,
    )
    .join('');
  return (
    `<section data-operators><h2>Which build do casinos run?</h2>` +
    `<p class="lede">What each casino's own catalogue showed on the date its source was pinned, not a live reading.</p>` +
    `<ul class="ops">${rows}</ul></section>`
  );
}
