// Atom feeds (RFC 4287) of the registry's RTP changes, from the history log, written by the build:
//
//   api/feeds/rtp.atom                   the newest 100 changes and additions across the registry
//   api/feeds/provider/{provider}.atom   the newest 100 of one provider's games
//   api/feeds/game/{slug}.atom           every change of one game
//   api/feeds/operator/{operator}.atom   what one operator's catalogue showed (src/emit/operator-feed.ts)
//
// Each entry links the game's page ({site}/rtp/{slug}) and cites the source of its figures (a game
// merged into the record of the same game: that record's page and source). With
// WEBSUB_HUB set every feed names that hub (`<link rel="hub">`); `npm run release` pings it.

// The pages' escaping serves XML as well (XML 1.0 §2.4: &, < and quotes; &#39; is a character reference).
import { escapeHtml as xml } from '../lib/html.ts';
import { percent } from '../lib/percent.ts';
import type { RegistryBundle } from '../registry/bundle.ts';
import { paths } from '../routes/paths.ts';
import { pageUrl, REGISTRY_NAME, websubHub } from '../routes/urls.ts';
import type { HistoryEntry } from '../schemas/authoring.ts';
import type { GameRecord } from '../schemas/game-record.ts';

/** Entries in the registry-wide and provider feeds, newest first. */
export const FEED_ENTRIES = 100;

/** One feed entry: what one frozen version did to one game. */
export interface FeedChange {
  slug: string;
  provider: string;
  data_version: string;
  frozen_at: string;
  /** Position of the version in the log (newer is larger): orders entries frozen at the same time. */
  order: number;
  stated: { from: number | null; to: number | null } | null;
  variants: { from: number[] | null; to: number[] | null } | null;
  /** The slug a removed game was merged into, or null. */
  mergedInto: string | null;
}

const num = (v: HistoryEntry['from']): number | null => (typeof v === 'number' ? v : null);
const list = (v: HistoryEntry['from']): number[] | null => (Array.isArray(v) ? v : null);

/** The history log as one change per version and game, newest first (then by slug). */
export function feedChanges(history: readonly HistoryEntry[]): FeedChange[] {
  const byKey = new Map<string, FeedChange>();
  const versions = new Map<string, number>();
  for (const e of history) {
    if (!versions.has(e.data_version)) versions.set(e.data_version, versions.size);
    const key = `${e.data_version}\0${e.slug}`;
    let c = byKey.get(key);
    if (c === undefined) {
      c = {
        slug: e.slug,
        provider: e.provider,
        data_version: e.data_version,
        frozen_at: e.frozen_at,
        order: versions.get(e.data_version)!,
        stated: null,
        variants: null,
        mergedInto: null,
      };
      byKey.set(key, c);
    }
    if (e.merged_into !== undefined) c.mergedInto = e.merged_into;
    if (e.field === 'stated_rtp') c.stated = { from: num(e.from), to: num(e.to) };
    else c.variants = { from: list(e.from), to: list(e.to) };
  }
  return [...byKey.values()].sort((a, b) => b.order - a.order || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

const pcts = (xs: readonly number[]) => xs.map((x) => percent(x)).join(', ');

/** The entry's title and text: what changed, in words (`into`: the record a removed game was merged into). */
function describe(c: FeedChange, name: string, into: GameRecord | undefined): { title: string; text: string } {
  const to = c.stated?.to ?? null;
  const from = c.stated?.from ?? null;
  if (to === null && from !== null && into !== undefined) {
    return {
      title: `${name} merged into ${into.canonical_name} (${into.provider_display})`,
      text: `Merged in data version ${c.data_version} into ${into.canonical_name} (${into.provider_display}), the record of the same game, which lists the sources of both; its stated RTP was ${percent(from)}.`,
    };
  }
  if (from === null && to !== null)
    return {
      title: `${name} added: stated RTP ${percent(to)}`,
      text: `Added in data version ${c.data_version} with a provider-stated RTP of ${percent(to)}${c.variants?.to ? ` (known variants: ${pcts(c.variants.to)})` : ''}.`,
    };
  if (to === null && from !== null)
    return { title: `${name} removed (was ${percent(from)})`, text: `Removed in data version ${c.data_version}; its stated RTP was ${percent(from)}.` };
  const parts: string[] = [];
  if (c.stated !== null && from !== null && to !== null) parts.push(`stated RTP ${percent(from)} → ${percent(to)}`);
  if (c.variants?.from && c.variants.to) parts.push(`variants ${pcts(c.variants.from)} → ${pcts(c.variants.to)}`);
  const what = parts.join('; ');
  return { title: `${name}: ${what}`, text: `In data version ${c.data_version}: ${what}.` };
}

/** The tag URI authority of the site (RFC 4151): its host name. */
export const tagAuthority = (site: string) => new URL(site).hostname;

function entry(c: FeedChange, game: GameRecord | undefined, site: string, into: GameRecord | undefined): string {
  const name = game?.canonical_name ?? c.slug;
  const { title, text } = describe(c, name, game === undefined ? into : undefined);
  // A merged game's entry shows the record it went into.
  const record = game ?? into;
  const source = record === undefined ? '' : ` Source: ${record.source_url}.`;
  const page = record === undefined ? `${site}${paths.removed}` : pageUrl(site, record.canonical_slug);
  return (
    '<entry>' +
    `<id>tag:${xml(tagAuthority(site))},${c.frozen_at.slice(0, 10)}:rtp/${xml(c.slug)}/${xml(c.data_version)}</id>` +
    `<title type="text">${xml(title)}</title>` +
    `<updated>${xml(c.frozen_at)}</updated>` +
    `<link rel="alternate" type="text/html" href="${xml(page)}"/>` +
    (record === undefined ? '' : `<link rel="related" href="${xml(record.source_url)}"/>`) +
    `<category term="${xml(c.provider)}"${game === undefined ? '' : ` label="${xml(game.provider_display)}"`}/>` +
    `<summary type="text">${xml(`${text}${source} ${REGISTRY_NAME}, CC BY 4.0.`)}</summary>` +
    '</entry>'
  );
}

/** One feed document (`entries`: each an `<entry>` element, escaped). */
export function feed(opts: {
  self: string;
  alternate: string;
  title: string;
  subtitle: string;
  updated: string;
  entries: string[];
  site: string;
  rights: string;
  hub: string | null;
}): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<feed xmlns="http://www.w3.org/2005/Atom">' +
    `<id>${xml(opts.self)}</id>` +
    `<title type="text">${xml(opts.title)}</title>` +
    `<subtitle type="text">${xml(opts.subtitle)}</subtitle>` +
    `<updated>${xml(opts.updated)}</updated>` +
    `<author><name>${xml(REGISTRY_NAME)}</name><uri>${xml(`${opts.site}/`)}</uri></author>` +
    `<link rel="self" type="application/atom+xml" href="${xml(opts.self)}"/>` +
    (opts.hub === null ? '' : `<link rel="hub" href="${xml(opts.hub)}"/>`) +
    `<link rel="alternate" type="text/html" href="${xml(opts.alternate)}"/>` +
    `<rights type="text">${xml(opts.rights)}</rights>` +
    opts.entries.join('') +
    '</feed>\n'
  );
}

/** The history grouped for the feeds, made once per build; each feed is rendered from it on demand. */
export interface FeedIndex {
  site: string;
  /** The WebSub hub the feeds name (WEBSUB_HUB), or null. */
  hub: string | null;
  rights: string;
  frozenAt: string;
  records: ReadonlyMap<string, GameRecord>;
  changes: readonly FeedChange[];
  byProvider: ReadonlyMap<string, FeedChange[]>;
  byGame: ReadonlyMap<string, FeedChange[]>;
}

/** Groups the history for the feeds; `hub` is the WebSub hub they name (default: WEBSUB_HUB). */
export function feedIndex(bundle: RegistryBundle, site: string, hub: string | null = websubHub()): FeedIndex {
  const changes = feedChanges(bundle.history);
  const byProvider = new Map<string, FeedChange[]>();
  const byGame = new Map<string, FeedChange[]>();
  for (const c of changes) {
    (byProvider.get(c.provider) ?? byProvider.set(c.provider, []).get(c.provider)!).push(c);
    (byGame.get(c.slug) ?? byGame.set(c.slug, []).get(c.slug)!).push(c);
  }
  return {
    site,
    hub,
    rights: bundle.meta.attribution,
    frozenAt: bundle.meta.frozen_at,
    records: new Map(bundle.records.map((r) => [r.canonical_slug, r])),
    changes,
    byProvider,
    byGame,
  };
}

/** A feed of `cs` (newest first); its `updated` is the newest entry's, or the registry's freeze when empty. */
function feedOf(ix: FeedIndex, cs: readonly FeedChange[], o: { self: string; alternate: string; title: string; subtitle: string }): string {
  return feed({
    ...o,
    updated: cs[0]?.frozen_at ?? ix.frozenAt,
    entries: cs.map((c) => entry(c, ix.records.get(c.slug), ix.site, c.mergedInto === null ? undefined : ix.records.get(c.mergedInto))),
    site: ix.site,
    rights: ix.rights,
    hub: ix.hub,
  });
}

/** /api/feeds/rtp.atom: the newest FEED_ENTRIES changes across the registry. */
export function registryFeed(ix: FeedIndex): string {
  const cs = ix.changes.slice(0, FEED_ENTRIES);
  return feedOf(ix, cs, {
    self: `${ix.site}${paths.feed}`,
    alternate: `${ix.site}/`,
    title: `${REGISTRY_NAME}: RTP changes`,
    subtitle: `The newest ${FEED_ENTRIES} changes and additions of provider-stated RTP figures.`,
  });
}

/** /api/feeds/provider/{provider}.atom. */
export function providerFeed(ix: FeedIndex, provider: { provider: string; display: string }): string {
  const cs = (ix.byProvider.get(provider.provider) ?? []).slice(0, FEED_ENTRIES);
  return feedOf(ix, cs, {
    self: `${ix.site}${paths.providerFeed(provider.provider)}`,
    alternate: `${ix.site}${paths.providerPage(provider.provider)}`,
    title: `${REGISTRY_NAME}: ${provider.display} RTP changes`,
    subtitle: `The newest ${FEED_ENTRIES} changes and additions of ${provider.display} games.`,
  });
}

/** /api/feeds/game/{slug}.atom. */
export function gameFeed(ix: FeedIndex, r: GameRecord): string {
  return feedOf(ix, ix.byGame.get(r.canonical_slug) ?? [], {
    self: `${ix.site}${paths.gameFeed(r.canonical_slug)}`,
    alternate: pageUrl(ix.site, r.canonical_slug),
    title: `${REGISTRY_NAME}: ${r.canonical_name} RTP changes`,
    subtitle: `Every recorded change of ${r.canonical_name} (${r.provider_display}).`,
  });
}
