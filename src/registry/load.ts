// Reads and validates a registry folder (RTP_DATA_DIR, default data/), collecting every problem before failing.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import type { z } from 'zod';
import {
  GameFileSchema,
  HistoryEntrySchema,
  ProviderFileSchema,
  RegistryFileSchema,
  RESERVED_SLUGS,
  type GameFile,
  type HistoryEntry,
  type ProviderFile,
  type RegistryFile,
} from '../schemas/authoring.ts';

/** One problem found in the data folder: which file, which field, and why. */
export interface Problem {
  file: string;
  field: string;
  reason: string;
}

/** A validated registry snapshot; games sorted by slug, providers by key. */
export interface Registry {
  dir: string;
  meta: RegistryFile;
  providers: ProviderFile[];
  games: GameFile[];
  history: HistoryEntry[];
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

function fieldPath(issuePath: PropertyKey[]): string {
  return issuePath.length === 0 ? '(file)' : issuePath.map(String).join('.');
}

function zodProblems(file: string, error: z.ZodError): Problem[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return { file, field: fieldPath([...issue.path, ...(issue.keys.length === 1 ? issue.keys : [])]) , reason: `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}` };
    }
    return { file, field: fieldPath(issue.path), reason: issue.message };
  });
}

async function readJson(dir: string, file: string, problems: Problem[]): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path.join(dir, file), 'utf8');
  } catch {
    problems.push({ file, field: '(file)', reason: 'cannot be read' });
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    problems.push({ file, field: '(file)', reason: `is not valid JSON (${(err as Error).message})` });
    return undefined;
  }
}

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
 * providers). Returns all problems at once, sorted by file, or the registry.
 */
export async function loadRegistry(dir: string): Promise<LoadResult> {
  const problems: Problem[] = [];

  const metaRaw = await readJson(dir, REGISTRY_FILE, problems);
  let meta: RegistryFile | undefined;
  if (metaRaw !== undefined) {
    const parsed = RegistryFileSchema.safeParse(metaRaw);
    if (parsed.success) meta = parsed.data;
    else problems.push(...zodProblems(REGISTRY_FILE, parsed.error));
  }

  const providerFiles = (await fg(PROVIDERS_GLOB, { cwd: dir })).sort();
  const providers = new Map<string, ProviderFile>();
  for (const file of providerFiles) {
    const raw = await readJson(dir, file, problems);
    if (raw === undefined) continue;
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

  const gameFiles = (await fg(GAMES_GLOB, { cwd: dir })).sort();
  const stray = (await fg(['games/**/*', `!${GAMES_GLOB}`], { cwd: dir })).sort();
  for (const file of stray) problems.push({ file, field: '(file)', reason: 'is not at games/<provider>/<slug>.json' });

  const games: GameFile[] = [];
  const slugOwner = new Map<string, string>();
  for (const file of gameFiles) {
    const raw = await readJson(dir, file, problems);
    if (raw === undefined) continue;
    const parsed = GameFileSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(...zodProblems(file, parsed.error));
      continue;
    }
    const game = parsed.data;
    const before = problems.length;
    const [, dirProvider, base] = file.split('/') as [string, string, string];
    const slugFromPath = base.slice(0, -'.json'.length);
    if ((RESERVED_SLUGS as readonly string[]).includes(game.canonical_slug)) {
      problems.push({ file, field: 'canonical_slug', reason: `"${game.canonical_slug}" is reserved (it collides with a route)` });
    }
    if (game.canonical_slug !== slugFromPath) {
      problems.push({ file, field: 'canonical_slug', reason: `"${game.canonical_slug}" does not match the file name (expected "${slugFromPath}")` });
    }
    if (game.provider !== dirProvider) {
      problems.push({ file, field: 'provider', reason: `"${game.provider}" does not match the folder (expected "${dirProvider}")` });
    }
    if (!providers.has(game.provider)) {
      problems.push({ file, field: 'provider', reason: `unknown provider "${game.provider}" (no providers/${game.provider}.json)` });
    }
    const owner = slugOwner.get(game.canonical_slug);
    if (owner !== undefined) {
      problems.push({ file, field: 'canonical_slug', reason: `duplicate slug "${game.canonical_slug}" (also in ${owner})` });
    } else {
      slugOwner.set(game.canonical_slug, file);
    }
    problems.push(...variantProblems(file, game));
    if (problems.length === before) games.push(game);
  }

  const history: HistoryEntry[] = [];
  let historyText: string | undefined;
  try {
    historyText = await readFile(path.join(dir, HISTORY_FILE), 'utf8');
  } catch {
    historyText = undefined; // no history yet: nothing frozen before this snapshot
  }
  if (historyText !== undefined) {
    historyText.split('\n').forEach((line, i) => {
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
      if (parsed.success) history.push(parsed.data);
      else problems.push(...zodProblems(file, parsed.error));
    });
  }

  if (problems.length > 0 || meta === undefined) {
    return { ok: false, problems };
  }
  games.sort((a, b) => (a.canonical_slug < b.canonical_slug ? -1 : a.canonical_slug > b.canonical_slug ? 1 : 0));
  return {
    ok: true,
    registry: { dir, meta, providers: [...providers.values()].sort((a, b) => (a.provider < b.provider ? -1 : 1)), games, history },
  };
}

/** One problem per line: `file: field: reason`. */
export function formatProblems(problems: Problem[]): string {
  return problems.map((p) => `${p.file}: ${p.field}: ${p.reason}`).join('\n');
}

/** Loads the registry or throws one error listing every problem (for the build and the server). */
export async function loadRegistryOrThrow(dir: string): Promise<Registry> {
  const result = await loadRegistry(dir);
  if (!result.ok) {
    const err = new Error(`Invalid registry data in ${dir} (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}):\n${formatProblems(result.problems)}\nFix the files above, then run \`npm run data:check\`.`);
    err.name = 'RegistryDataError';
    throw err;
  }
  return result.registry;
}
