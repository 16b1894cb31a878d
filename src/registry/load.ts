// Reads and validates a registry folder (RTP_DATA_DIR, default data/), collecting every problem before failing.
import path from 'node:path';
import fg from 'fast-glob';
import {
  type FrozenFile,
  FrozenFileSchema,
  type GameFile,
  GameFileSchema,
  type HistoryEntry,
  HistoryEntrySchema,
  type OperatorFile,
  type ProviderFile,
  ProviderFileSchema,
  RESERVED_SLUGS,
  type RegistryFile,
  RegistryFileSchema,
  SLUG_PATTERN,
} from '../schemas/authoring.ts';
import { catalogueEntries, loadOperators, type OperatorIndex, operatorIndex } from './operators.ts';
import { FAILED, formatProblems, type Problem, parseJson, readText, zodProblems } from './problems.ts';
import { provenanceProblems } from './provenance.ts';
import { compareVersions } from './version.ts';

/** A validated registry snapshot; games sorted by slug, providers by key. */
export interface Registry {
  dir: string;
  meta: RegistryFile;
  providers: ProviderFile[];
  games: GameFile[];
  history: HistoryEntry[];
  /** The operators of data/operators/, by key; absent or empty where the folder has none. */
  operators?: OperatorFile[];
  /** The operators by source file and the catalogue entries of the lines games cite (src/registry/operators.ts). */
  operatorIndex?: OperatorIndex;
  /** The state recorded by the last `data:freeze` (data/frozen.json); absent before the first freeze. */
  frozen?: FrozenFile;
}

export type LoadResult = { ok: true; registry: Registry } | { ok: false; problems: Problem[] };

/** The data folder in force: `RTP_DATA_DIR` or `data/` under the working directory. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.RTP_DATA_DIR ?? 'data');
}

export const REGISTRY_FILE = 'registry.json';
export const HISTORY_FILE = 'history.jsonl';
export const PROVIDERS_GLOB = 'providers/*.json';
export const GAMES_GLOB = 'games/*/*.json';
export const FROZEN_FILE = 'frozen.json';

/** Checks that variants ascend strictly and include the stated RTP. */
function variantProblems(file: string, game: GameFile): Problem[] {
  const out: Problem[] = [];
  const rtps = game.rtp_variants.map((v) => v.rtp);
  for (let i = 1; i < rtps.length; i++) {
    if (!(rtps[i]! > rtps[i - 1]!)) {
      out.push({ file, field: `rtp_variants.${i}.rtp`, reason: `variants must be strictly ascending (${rtps[i]} follows ${rtps[i - 1]})` });
      break;
    }
  }
  if (!rtps.includes(game.stated_rtp)) {
    out.push({ file, field: 'rtp_variants', reason: `must contain the stated RTP ${game.stated_rtp}` });
  }
  game.rtp_variants.forEach((v, i) => {
    if (v.kind === 'jurisdiction' && v.jurisdiction === undefined) {
      out.push({ file, field: `rtp_variants.${i}.jurisdiction`, reason: 'is required when kind is "jurisdiction"' });
    }
    if (v.kind !== 'jurisdiction' && v.jurisdiction !== undefined) {
      out.push({ file, field: `rtp_variants.${i}.jurisdiction`, reason: 'is only allowed when kind is "jurisdiction"' });
    }
  });
  return out;
}

/**
 * Loads and validates the registry in `dir`: every file against its authoring schema, then the
 * rules across files (duplicate or reserved slugs, paths that disagree with the content, unknown
 * providers, history order, the frozen state against registry.json). Returns every problem at once,
 * in a fixed order (registry.json, providers, games, history.jsonl, frozen.json; files sorted by
 * path), or the registry.
 */
export async function loadRegistry(dir: string): Promise<LoadResult> {
  const problems: Problem[] = [];

  const providerFiles = (await fg(PROVIDERS_GLOB, { cwd: dir })).sort();
  const gameFiles = (await fg(GAMES_GLOB, { cwd: dir })).sort();
  const stray = (await fg(['games/**/*', `!${GAMES_GLOB}`], { cwd: dir })).sort();
  const jsonFiles = [REGISTRY_FILE, ...providerFiles, ...gameFiles];
  const texts = new Map<string, string | null | Error>();
  for (const file of jsonFiles) texts.set(file, readText(dir, file));

  const metaRaw = parseJson(REGISTRY_FILE, texts.get(REGISTRY_FILE), problems);
  let meta: RegistryFile | undefined;
  if (metaRaw !== FAILED) {
    const parsed = RegistryFileSchema.safeParse(metaRaw);
    if (parsed.success) meta = parsed.data;
    else problems.push(...zodProblems(REGISTRY_FILE, parsed.error));
  }

  const providers = new Map<string, ProviderFile>();
  for (const file of providerFiles) {
    const raw = parseJson(file, texts.get(file), problems);
    if (raw === FAILED) continue;
    const parsed = ProviderFileSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(...zodProblems(file, parsed.error));
      continue;
    }
    const expected = path.posix.basename(file, '.json');
    if (parsed.data.provider !== expected) {
      problems.push({ file, field: 'provider', reason: `"${parsed.data.provider}" does not match the file name (expected "${expected}")` });
      continue;
    }
    providers.set(parsed.data.provider, parsed.data);
  }
  if (providerFiles.length === 0) problems.push({ file: 'providers/', field: '(folder)', reason: 'holds no provider files' });

  for (const file of stray) problems.push({ file, field: '(file)', reason: 'is not at games/<provider>/<slug>.json' });

  // Provider files that exist but are invalid: already reported, so their games are not also "unknown provider".
  const brokenProviders = new Set(providerFiles.map((f) => path.posix.basename(f, '.json')).filter((key) => !providers.has(key)));
  const asSlug = (v: unknown): string | undefined => (typeof v === 'string' && SLUG_PATTERN.test(v) ? v : undefined);

  const games: GameFile[] = [];
  const gameFileOf = new Map<GameFile, string>();
  const slugOwner = new Map<string, string>();
  for (const file of gameFiles) {
    const raw = parseJson(file, texts.get(file), problems);
    if (raw === FAILED) continue;
    const parsed = GameFileSchema.safeParse(raw);
    if (!parsed.success) problems.push(...zodProblems(file, parsed.error));
    // The rules across files run on whatever well-formed slug and provider the file states, even when
    // other fields are invalid, so one run shows every problem.
    const fields = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const slug = asSlug(fields.canonical_slug);
    const provider = asSlug(fields.provider);
    const before = problems.length;
    const [, dirProvider, base] = file.split('/') as [string, string, string];
    const slugFromPath = base.slice(0, -'.json'.length);
    if (slug !== undefined) {
      if ((RESERVED_SLUGS as readonly string[]).includes(slug)) {
        problems.push({ file, field: 'canonical_slug', reason: `"${slug}" is reserved (it collides with a route)` });
      }
      if (slug !== slugFromPath) {
        problems.push({ file, field: 'canonical_slug', reason: `"${slug}" does not match the file name (expected "${slugFromPath}")` });
      }
      const owner = slugOwner.get(slug);
      if (owner !== undefined) {
        problems.push({ file, field: 'canonical_slug', reason: `duplicate slug "${slug}" (also in ${owner})` });
      } else {
        slugOwner.set(slug, file);
      }
    }
    if (provider !== undefined) {
      if (provider !== dirProvider) {
        problems.push({ file, field: 'provider', reason: `"${provider}" does not match the folder (expected "${dirProvider}")` });
      }
      if (!providers.has(provider) && !brokenProviders.has(provider)) {
        problems.push({ file, field: 'provider', reason: `unknown provider "${provider}" (no providers/${provider}.json)` });
      }
    }
    if (!parsed.success) continue;
    problems.push(...variantProblems(file, parsed.data));
    if (problems.length === before) {
      games.push(parsed.data);
      gameFileOf.set(parsed.data, file);
    }
  }
  problems.push(
    ...provenanceProblems(
      dir,
      games.map((game) => ({ file: gameFileOf.get(game)!, game })),
    ),
  );
  const operators = await loadOperators(dir, problems);
  const pinned = new Map<string, string[] | null>();
  const lineOf = (file: string, line: number): string | undefined => {
    if (!pinned.has(file)) {
      const text = readText(dir, file);
      pinned.set(file, typeof text === 'string' ? text.split('\n') : null);
    }
    return pinned.get(file)?.[line - 1];
  };
  const entries = catalogueEntries(games, operators, lineOf, problems);

  const historyText = readText(dir, HISTORY_FILE);
  if (historyText instanceof Error)
    problems.push({ file: HISTORY_FILE, field: '(file)', reason: `cannot be read (${(historyText as NodeJS.ErrnoException).code ?? historyText.message})` });
  // No history.jsonl means nothing was frozen before this snapshot.
  const history = typeof historyText === 'string' ? historyProblems(historyText, meta, problems) : [];

  const frozenText = readText(dir, FROZEN_FILE);
  let frozen: FrozenFile | undefined;
  if (frozenText === null) {
    if (history.length > 0)
      problems.push({ file: FROZEN_FILE, field: '(file)', reason: `is missing although ${HISTORY_FILE} has entries (npm run data:freeze writes both)` });
  } else {
    const raw = parseJson(FROZEN_FILE, frozenText, problems);
    if (raw !== FAILED) {
      const parsed = FrozenFileSchema.safeParse(raw);
      if (!parsed.success) problems.push(...zodProblems(FROZEN_FILE, parsed.error));
      else {
        frozen = parsed.data;
        if (meta !== undefined) {
          if (frozen.data_version !== meta.data_version) {
            problems.push({
              file: FROZEN_FILE,
              field: 'data_version',
              reason: `"${frozen.data_version}" does not match ${REGISTRY_FILE} data_version "${meta.data_version}" (only npm run data:freeze changes versions)`,
            });
          }
          if (frozen.frozen_at !== meta.frozen_at) {
            problems.push({
              file: FROZEN_FILE,
              field: 'frozen_at',
              reason: `"${frozen.frozen_at}" does not match ${REGISTRY_FILE} frozen_at "${meta.frozen_at}" (only npm run data:freeze changes it)`,
            });
          }
        }
      }
    }
  }

  if (problems.length > 0 || meta === undefined) {
    return { ok: false, problems };
  }
  games.sort((a, b) => (a.canonical_slug < b.canonical_slug ? -1 : a.canonical_slug > b.canonical_slug ? 1 : 0));
  const registry: Registry = {
    dir,
    meta,
    providers: [...providers.values()].sort((a, b) => (a.provider < b.provider ? -1 : 1)),
    games,
    history,
    operators,
    operatorIndex: operatorIndex(operators, entries),
  };
  if (frozen !== undefined) registry.frozen = frozen;
  return { ok: true, registry };
}

/**
 * Parses history.jsonl line by line and checks the log's own rules: entries in version order (one
 * frozen_at per version), none newer than registry.json, `from`/`to` shaped for their field and
 * actually different.
 */
function historyProblems(text: string, meta: RegistryFile | undefined, problems: Problem[]): HistoryEntry[] {
  const history: HistoryEntry[] = [];
  let latest: HistoryEntry | undefined;
  let newerReported = false;
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const file = `${HISTORY_FILE}:${i + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      problems.push({ file, field: '(line)', reason: `is not valid JSON (${(err as Error).message})` });
      return;
    }
    const parsed = HistoryEntrySchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(...zodProblems(file, parsed.error));
      return;
    }
    const e = parsed.data;
    history.push(e);
    const wantArray = e.field === 'rtp_variants';
    for (const side of ['from', 'to'] as const) {
      const v = e[side];
      if (v !== null && Array.isArray(v) !== wantArray) {
        problems.push({ file, field: side, reason: `must be ${wantArray ? 'an array of RTPs' : 'a number'} or null for field "${e.field}"` });
      }
    }
    if (e.from === null && e.to === null) problems.push({ file, field: 'to', reason: 'from and to are both null' });
    else if (JSON.stringify(e.from) === JSON.stringify(e.to)) problems.push({ file, field: 'to', reason: 'equals from (not a change)' });
    if (latest !== undefined) {
      const order = compareVersions(e.data_version, latest.data_version);
      if (order < 0) {
        problems.push({ file, field: 'data_version', reason: `"${e.data_version}" follows "${latest.data_version}" (entries must be in version order)` });
        return;
      }
      if (order === 0 && e.frozen_at !== latest.frozen_at) {
        problems.push({ file, field: 'frozen_at', reason: `"${e.frozen_at}" differs from "${latest.frozen_at}" given earlier for ${e.data_version}` });
      }
    }
    latest = e;
    if (meta !== undefined && !newerReported && compareVersions(e.data_version, meta.data_version) > 0) {
      newerReported = true;
      problems.push({ file, field: 'data_version', reason: `"${e.data_version}" is newer than ${REGISTRY_FILE} data_version "${meta.data_version}"` });
    }
  });
  return history;
}

/** Loads the registry or throws one error listing every problem (for the build and the server). */
export async function loadRegistryOrThrow(dir: string): Promise<Registry> {
  const result = await loadRegistry(dir);
  if (!result.ok) {
    const err = new Error(
      `Invalid registry data in ${dir} (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}):\n${formatProblems(result.problems)}\nFix the files above, then run \`npm run data:check\`.`,
    );
    err.name = 'RegistryDataError';
    throw err;
  }
  return result.registry;
}
