// Freeze logic (pure): version ordering, the frozen state of a snapshot, and the history diff between two frozen states.
import {
  type FrozenFile,
  type FrozenGame,
  type GameFile,
  type HistoryEntry,
  type ProviderFile,
  type RegistryFile,
  TimestampSchema,
  VersionSchema,
} from '../schemas/authoring.ts';
import { toGameRecord } from './derive.ts';
import type { Registry } from './load.ts';
import { BUMPS, type Bump, bumpVersion, compareVersions, parseVersion } from './version.ts';

/** The frozen state of `games` at `dataVersion`: RTP facts and snapshot_id per slug, slugs sorted. */
export function frozenStateOf(games: readonly GameFile[], providers: readonly ProviderFile[], dataVersion: string, frozenAt: string): FrozenFile {
  const byKey = new Map(providers.map((p) => [p.provider, p]));
  const sorted = [...games].sort((a, b) => (a.canonical_slug < b.canonical_slug ? -1 : a.canonical_slug > b.canonical_slug ? 1 : 0));
  const frozenGames: Record<string, FrozenGame> = {};
  for (const game of sorted) {
    const provider = byKey.get(game.provider);
    if (provider === undefined) throw new Error(`frozenStateOf: unknown provider "${game.provider}" for ${game.canonical_slug}`);
    frozenGames[game.canonical_slug] = {
      provider: game.provider,
      stated_rtp: game.stated_rtp,
      rtp_variants: game.rtp_variants.map((v) => v.rtp),
      // operators are outside the snapshot (derive.ts), so the index is not needed here.
      snapshot_id: toGameRecord(game, provider).snapshot_id,
    };
  }
  return { data_version: dataVersion, frozen_at: frozenAt, games: frozenGames };
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function entry(
  next: FrozenFile,
  slug: string,
  provider: string,
  field: HistoryEntry['field'],
  from: HistoryEntry['from'],
  to: HistoryEntry['to'],
): HistoryEntry {
  // Key order is the schema's: the log is byte-stable.
  return { data_version: next.data_version, frozen_at: next.frozen_at, slug, provider, field, from, to };
}

/**
 * History entries for every RTP change from `prev` (null before the first freeze) to `next`,
 * stamped with `next`'s version and time. Per slug (sorted), `stated_rtp` then `rtp_variants`:
 * a field that changed gives one entry; a game added gives both fields with `from: null`; a game
 * removed gives both with `to: null`, with its reason (`reasons`) and the slug it was merged into
 * (`mergedInto`) where known. Changes to other fields give no entries (they show in snapshot_id only).
 */
export function diffFrozen(
  prev: FrozenFile | null | undefined,
  next: FrozenFile,
  reasons: ReadonlyMap<string, string> = new Map(),
  mergedInto: ReadonlyMap<string, string> = new Map(),
): HistoryEntry[] {
  const before = prev?.games ?? {};
  const after = next.games;
  const slugs = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const out: HistoryEntry[] = [];
  for (const slug of slugs) {
    const a = before[slug];
    const b = after[slug];
    const provider = (b ?? a)!.provider;
    if (a === undefined) {
      out.push(entry(next, slug, provider, 'stated_rtp', null, b!.stated_rtp));
      out.push(entry(next, slug, provider, 'rtp_variants', null, [...b!.rtp_variants]));
    } else if (b === undefined) {
      const reason = reasons.get(slug);
      const into = mergedInto.get(slug);
      const gone = (e: HistoryEntry): HistoryEntry => ({
        ...e,
        ...(reason === undefined ? {} : { reason }),
        ...(into === undefined ? {} : { merged_into: into }),
      });
      out.push(gone(entry(next, slug, provider, 'stated_rtp', a.stated_rtp, null)));
      out.push(gone(entry(next, slug, provider, 'rtp_variants', [...a.rtp_variants], null)));
    } else {
      if (a.stated_rtp !== b.stated_rtp) out.push(entry(next, slug, provider, 'stated_rtp', a.stated_rtp, b.stated_rtp));
      if (!sameNumbers(a.rtp_variants, b.rtp_variants)) out.push(entry(next, slug, provider, 'rtp_variants', [...a.rtp_variants], [...b.rtp_variants]));
    }
  }
  return out;
}

/** What `data:freeze` asks for: exactly one of `version` or `bump`, and the freeze time. */
export interface FreezeRequest {
  version?: string | undefined;
  bump?: string | undefined;
  at: string;
  /** Why a game that leaves is no longer published, by slug (data/held-back.json, data/merged.json): its tombstone's reason. */
  reasons?: ReadonlyMap<string, string>;
  /** The slug each merged game went into, by its slug (data/merged.json). */
  mergedInto?: ReadonlyMap<string, string>;
}

/** Everything a freeze writes, computed before anything is written. */
export interface FreezePlan {
  meta: RegistryFile;
  frozen: FrozenFile;
  entries: HistoryEntry[];
  /** How many games were added, removed, or had an RTP change (for the summary line). */
  counts: { added: number; removed: number; changed: number };
  /** Notes on the versioning policy (docs/data-model.md) that the chosen version seems to break; not refusals. */
  warnings: string[];
}

export type FreezeResult = { ok: true; plan: FreezePlan } | { ok: false; error: string };

/**
 * Plans a freeze of a validated registry: checks the request (version greater than the current
 * data_version, time not before the current frozen_at), then derives the new registry.json, the new
 * frozen state and the history entries since the previous frozen state (`registry.frozen`).
 */
export function planFreeze(registry: Registry, request: FreezeRequest): FreezeResult {
  const current = registry.meta;
  if (request.version !== undefined && request.bump !== undefined) return { ok: false, error: 'give either --version or --bump, not both' };
  let version: string;
  if (request.version !== undefined) {
    if (!VersionSchema.safeParse(request.version).success)
      return { ok: false, error: `--version "${request.version}": must be a dotted three-part version such as 1.0.0` };
    version = request.version;
  } else if (request.bump !== undefined) {
    if (!(BUMPS as readonly string[]).includes(request.bump)) return { ok: false, error: `--bump "${request.bump}": must be patch, minor or major` };
    version = bumpVersion(current.data_version, request.bump as Bump);
  } else {
    return { ok: false, error: 'give --version X.Y.Z or --bump patch|minor|major' };
  }
  if (compareVersions(version, current.data_version) <= 0) {
    return { ok: false, error: `version ${version} is not greater than the current data_version ${current.data_version}` };
  }
  if (!TimestampSchema.safeParse(request.at).success) {
    return { ok: false, error: `--at "${request.at}": must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-21T00:00:00Z` };
  }
  if (Date.parse(request.at) < Date.parse(current.frozen_at)) {
    return { ok: false, error: `--at ${request.at} is earlier than the current frozen_at ${current.frozen_at}` };
  }
  const frozen = frozenStateOf(registry.games, registry.providers, version, request.at);
  const entries = diffFrozen(registry.frozen, frozen, request.reasons, request.mergedInto);
  const before = registry.frozen?.games ?? {};
  const counts = { added: 0, removed: 0, changed: 0 };
  for (const slug of new Set(entries.map((e) => e.slug))) {
    if (!(slug in before)) counts.added++;
    else if (!(slug in frozen.games)) counts.removed++;
    else counts.changed++;
  }
  const meta: RegistryFile = { ...current, data_version: version, frozen_at: request.at };
  const warnings: string[] = [];
  const [major, minor] = parseVersion(version);
  const [curMajor, curMinor] = parseVersion(current.data_version);
  if (counts.added + counts.removed > 0 && major === curMajor && minor === curMinor) {
    warnings.push(`${counts.added} game(s) added and ${counts.removed} removed under a patch version: the policy asks for at least a minor bump`);
  }
  return { ok: true, plan: { meta, frozen, entries, counts, warnings } };
}

/**
 * data/frozen.json text: the top level pretty-printed, one line per game, so a freeze's diff
 * shows exactly the games whose facts changed.
 */
export function frozenJson(frozen: FrozenFile): string {
  const lines = Object.entries(frozen.games).map(
    ([slug, g]) =>
      `    ${JSON.stringify(slug)}: ${JSON.stringify({ provider: g.provider, stated_rtp: g.stated_rtp, rtp_variants: g.rtp_variants, snapshot_id: g.snapshot_id })}`,
  );
  const games = lines.length === 0 ? '{}' : `{\n${lines.join(',\n')}\n  }`;
  return `{\n  "data_version": ${JSON.stringify(frozen.data_version)},\n  "frozen_at": ${JSON.stringify(frozen.frozen_at)},\n  "games": ${games}\n}\n`;
}

/** history.jsonl lines for `entries` (one JSON object per line, schema key order, trailing newline). */
export function historyJsonl(entries: readonly HistoryEntry[]): string {
  return entries
    .map(
      (e) =>
        `${JSON.stringify({ data_version: e.data_version, frozen_at: e.frozen_at, slug: e.slug, provider: e.provider, field: e.field, from: e.from, to: e.to, ...(e.reason === undefined ? {} : { reason: e.reason }), ...(e.merged_into === undefined ? {} : { merged_into: e.merged_into }) })}\n`,
    )
    .join('');
}

/** The new history.jsonl text: the existing log (newline-terminated) followed by `entries`. */
export function appendHistory(existing: string, entries: readonly HistoryEntry[]): string {
  const base = existing === '' || existing.endsWith('\n') ? existing : `${existing}\n`;
  return base + historyJsonl(entries);
}
