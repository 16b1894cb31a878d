// The Atom feed of one operator (api/feeds/operator/{operator}.atom): what its pinned catalogues
// showed. The history log records stated figures, not observations, so the feed has one entry per
// date a source of the operator was pinned, summarising what the catalogues pinned that day showed
// (counted by the operator route's own functions), dated with that pinned date and nothing else.
import { escapeHtml as xml } from '../lib/html.ts';
import { buildCounts, gapStats, lowerGaps } from '../registry/shape-operator.ts';
import { paths } from '../routes/paths.ts';
import { REGISTRY_NAME, websubHub } from '../routes/urls.ts';
import type { OperatorRecord } from '../schemas/operator.ts';
import { feed, tagAuthority } from './feeds.ts';

/** One pinned date of an operator: the source files pinned then and the games they show, each with the builds they show. */
export interface PinnedSnapshot {
  pinned_at: string;
  files: string[];
  games: OperatorRecord['games'];
}

/** The operator's observations by the date their source was pinned, newest first. */
export function pinnedSnapshots(record: OperatorRecord): PinnedSnapshot[] {
  const byDate = new Map<string, string[]>();
  for (const s of record.meta.sources) (byDate.get(s.pinned_at) ?? byDate.set(s.pinned_at, []).get(s.pinned_at)!).push(s.file);
  return [...byDate]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([pinned_at, files]) => {
      const games = record.games.map((g) => ({ ...g, builds: g.builds.filter((b) => files.includes(b.source.file)) })).filter((g) => g.builds.length > 0);
      return { pinned_at, files, games };
    });
}

const count = (n: number) => n.toLocaleString('en-US');
const points = (x: number) => `${x.toFixed(2)} points`;

/** The words of one snapshot: its title and summary. */
function describe(record: OperatorRecord, s: PinnedSnapshot): { title: string; text: string } {
  const c = buildCounts(s.games);
  const { gap_mean, gap_max } = gapStats(lowerGaps(s.games));
  const date = s.pinned_at.slice(0, 10);
  const gaps = gap_mean === null || gap_max === null ? '' : ` (on average ${points(gap_mean)} under the stated RTP, at most ${points(gap_max)})`;
  return {
    title: `${record.meta.display} as pinned on ${date}: ${count(c.games_observed)} games observed`,
    text:
      `${record.note} Pinned on ${date} (${s.files.join(', ')}): ${count(c.games_observed)} games observed, ${count(c.at_top)} at the top build (the stated RTP), ` +
      `${count(c.at_lower)} at a lower build${gaps}, ${count(c.at_higher)} above the stated RTP.`,
  };
}

/** /api/feeds/operator/{operator}.atom: one entry per pinned date, newest first; `hub`: the WebSub hub it names (default: WEBSUB_HUB). */
export function operatorFeed(record: OperatorRecord, site: string, hub: string | null = websubHub()): string {
  const key = record.meta.operator;
  const page = `${site}${paths.operatorPage(key)}`;
  const snapshots = pinnedSnapshots(record);
  const entries = snapshots.map((s) => {
    const { title, text } = describe(record, s);
    return (
      '<entry>' +
      `<id>tag:${xml(tagAuthority(site))},${s.pinned_at.slice(0, 10)}:operator/${xml(key)}/${xml(s.pinned_at)}</id>` +
      `<title type="text">${xml(title)}</title>` +
      `<updated>${xml(s.pinned_at)}</updated>` +
      `<link rel="alternate" type="text/html" href="${xml(page)}"/>` +
      `<link rel="related" type="application/json" href="${xml(`${site}${paths.operator(key)}`)}"/>` +
      `<category term="${xml(key)}" label="${xml(record.meta.display)}"/>` +
      `<summary type="text">${xml(`${text} ${REGISTRY_NAME}, CC BY 4.0.`)}</summary>` +
      '</entry>'
    );
  });
  return feed({
    self: `${site}${paths.operatorFeed(key)}`,
    alternate: page,
    title: `${REGISTRY_NAME}: builds observed at ${record.meta.display}`,
    subtitle: `What ${record.meta.display}'s own catalogue showed, one entry per date its source was pinned. ${record.note}`,
    updated: snapshots[0]?.pinned_at ?? record.frozen_at,
    entries,
    site,
    rights: record.license.attribution,
    hub,
  });
}
