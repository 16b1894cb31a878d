// Reads a built dist and checks it against the registry it must have been built from (rules in ./rules.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { renderDumps } from '../src/emit/dumps.ts';
import { buildInfo, type EmitFamily, FAMILY_DIRS, prepareBuild, renderAll, serialise } from '../src/emit/emit.ts';
import { HEADERS_FILE, pageRules, renderHeadersFile } from '../src/emit/headers.ts';
import { listBundleProblem } from '../src/emit/list/list-bundle.ts';
import { EDGE_DIR, NGINX_CONF_FILE, renderNginxConf } from '../src/emit/nginx.ts';
import { REDIRECTS_FILE, renderRedirectsFile } from '../src/emit/redirects.ts';
import { RegistryBundleSchema } from '../src/registry/bundle.ts';
import { loadRegistry } from '../src/registry/load.ts';
import { BuildInfoError, readBuildInfo } from '../src/routes/build-info.ts';
import { dumpFiles } from '../src/routes/paths.ts';
import { servedFiles } from '../src/routes/served-files.ts';
import { siteUrl } from '../src/routes/urls.ts';
import { checkCounts, checkDump, checkFile, checkHeadersFile, type DistProblem, strayFiles } from './rules.ts';

/** The folder of the dumps (inside api/rtp/, beside the provider folder). */
const DUMP_DIR = path.posix.dirname(dumpFiles.json);
/** Folders that may sit inside a family's folder. */
const NESTED_DIRS: ReadonlySet<string> = new Set([FAMILY_DIRS.provider, FAMILY_DIRS.operator, DUMP_DIR]);

import { formatProblems } from '../src/registry/problems.ts';
import { BUILD_INFO_FILE, BUNDLE_FILE, LIST_BUNDLE_FILE, SERVER_ENTRY_FILE } from '../src/schemas/dist.ts';

export interface CheckOptions {
  /** The build output folder (holds client/ and server/). */
  outDir: string;
  /** The registry folder the dist must match. */
  dataDir: string;
  env?: NodeJS.ProcessEnv;
}

export interface CheckResult {
  problems: DistProblem[];
  /** Set when the data itself is invalid (then the dist is not checked). */
  dataProblems?: string;
  games: number;
  providers: number;
  files: number;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Files directly in `dir` (relative to the client dir as `rel/name`), and names of its subfolders. */
function listDir(clientDir: string, rel: string): { files: string[]; dirs: string[] } | undefined {
  const abs = path.join(clientDir, rel);
  if (!existsSync(abs)) return undefined;
  const files: string[] = [];
  const dirs: string[] = [];
  for (const e of readdirSync(abs, { withFileTypes: true })) (e.isDirectory() ? dirs : files).push(e.name);
  return { files: files.map((f) => `${rel}/${f}`), dirs };
}

function readBytes(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The compiled list bundle must have been compiled from exactly the registry bundle beside it
 * (which is itself checked against the data above). Required in a server build (entry.mjs present).
 */
function checkListBundle(serverDir: string): DistProblem[] {
  const file = `server/${LIST_BUNDLE_FILE}`;
  const list = readBytes(path.join(serverDir, LIST_BUNDLE_FILE));
  if (list === undefined) return existsSync(path.join(serverDir, 'entry.mjs')) ? [{ file, problem: 'is missing' }] : [];
  const bundle = readBytes(path.join(serverDir, BUNDLE_FILE));
  if (bundle === undefined) return [];
  const problem = listBundleProblem(list, bundle);
  return problem === null ? [] : [{ file, problem }];
}

/** A server build (entry.mjs present) holds the bundled production server `npm run serve` runs. */
function checkServerRuntime(serverDir: string): DistProblem[] {
  if (!existsSync(path.join(serverDir, 'entry.mjs')) || existsSync(path.join(serverDir, SERVER_ENTRY_FILE))) return [];
  return [{ file: `server/${SERVER_ENTRY_FILE}`, problem: 'is missing' }];
}

/** Checks the dist in `outDir` against the data in `dataDir`; collects every problem. */
export async function checkDist(opts: CheckOptions): Promise<CheckResult> {
  const env = opts.env ?? process.env;
  const loaded = await loadRegistry(opts.dataDir);
  if (!loaded.ok) return { problems: [], dataProblems: formatProblems(loaded.problems), games: 0, providers: 0, files: 0 };
  const registry = loaded.registry;
  const clientDir = path.join(opts.outDir, 'client');
  const serverDir = path.join(opts.outDir, 'server');
  const problems: DistProblem[] = [];

  // The site the dist was built for (absolute links depend on it).
  const info = await readBuildInfo(serverDir).catch((err: unknown) => {
    if (!(err instanceof BuildInfoError)) throw err;
    problems.push({ file: `server/${BUILD_INFO_FILE}`, problem: err.code === 'build_info_missing' ? 'is missing' : 'is not a valid build record' });
    return undefined;
  });
  let site = info?.site;
  if (env.RTP_SITE !== undefined && env.RTP_SITE.trim() !== '') {
    const wanted = siteUrl(env);
    if (site !== undefined && site !== wanted)
      problems.push({ file: `server/${BUILD_INFO_FILE}`, problem: `was built for site ${site}, but RTP_SITE is ${wanted}` });
    site ??= wanted;
  }
  site ??= siteUrl(env);

  const prep = prepareBuild(registry, site);
  if (info !== undefined && serialise(buildInfo(prep)) !== serialise(info) && !problems.some((p) => p.file === `server/${BUILD_INFO_FILE}`)) {
    problems.push({ file: `server/${BUILD_INFO_FILE}`, problem: 'is stale: its data version or counts differ from the data' });
  }

  // Every family directory: present files vs expected files.
  const present = new Map<EmitFamily, Set<string>>();
  const missingDir = new Set<EmitFamily>();
  for (const [family, rel] of Object.entries(FAMILY_DIRS) as Array<[EmitFamily, string]>) {
    const listing = listDir(clientDir, rel);
    if (listing === undefined) {
      missingDir.add(family);
      problems.push({ file: `client/${rel}/`, problem: 'is missing' });
      present.set(family, new Set());
      continue;
    }
    // /api/rtp/removed is a dump file in the slots' folder (its slug is reserved).
    present.set(family, new Set(listing.files.filter((f) => f !== dumpFiles.removed)));
    // The provider and dump folders live inside api/rtp/; any other subfolder is stray.
    for (const d of listing.dirs) if (!NESTED_DIRS.has(`${rel}/${d}`)) problems.push({ file: `client/${rel}/${d}/`, problem: 'is a stray folder' });
  }

  const expected = new Map<EmitFamily, Set<string>>(Object.keys(FAMILY_DIRS).map((f) => [f as EmitFamily, new Set<string>()]));
  let files = 0;
  for (const out of renderAll(prep)) {
    expected.get(out.family)!.add(out.file);
    files++;
    if (missingDir.has(out.family)) continue; // one problem for the whole folder
    const actual = present.get(out.family)!.has(out.file) ? readText(path.join(clientDir, out.file)) : undefined;
    problems.push(...checkFile(out, actual));
  }
  const counts = new Map<EmitFamily, number>();
  for (const [family, set] of present) {
    problems.push(...strayFiles(expected.get(family)!, [...set]));
    if (!missingDir.has(family)) counts.set(family, set.size);
  }
  problems.push(...checkCounts(counts, registry.games.length, registry.providers.length, FAMILY_DIRS, undefined, registry.operators?.length ?? 0));

  const headersText = readText(path.join(clientDir, HEADERS_FILE));
  problems.push(...checkHeadersFile(headersText));
  // _headers (its page rules) and the edge's nginx.conf: what the route table gives the files of this build.
  const served = existsSync(clientDir) ? servedFiles(clientDir) : [];
  if (headersText !== undefined && headersText !== renderHeadersFile(pageRules(served), new URL(site).origin)) {
    problems.push({ file: `client/${HEADERS_FILE}`, problem: 'differs from what the route table gives the pages of this build' });
  }
  // _redirects: the merged slugs of the data, as the server answers them.
  const redirectsText = readText(path.join(clientDir, REDIRECTS_FILE));
  if (redirectsText === undefined) problems.push({ file: `client/${REDIRECTS_FILE}`, problem: 'is missing' });
  else if (redirectsText !== renderRedirectsFile(prep.merged))
    problems.push({ file: `client/${REDIRECTS_FILE}`, problem: 'differs from the merged slugs of the data' });
  const nginxText = readText(path.join(opts.outDir, EDGE_DIR, NGINX_CONF_FILE));
  if (nginxText === undefined) problems.push({ file: `${EDGE_DIR}/${NGINX_CONF_FILE}`, problem: 'is missing' });
  else if (nginxText !== renderNginxConf(served, site, prep.merged))
    problems.push({ file: `${EDGE_DIR}/${NGINX_CONF_FILE}`, problem: 'differs from what the route table gives the files of this build' });

  // The dumps: each byte-identical to what the data produces now, its JSON valid; nothing else in their folders.
  const dumps = renderDumps(prep.bundle, site);
  for (const d of dumps) problems.push(...checkDump(d, readBytes(path.join(clientDir, d.file))));
  const dumpSet = new Set(dumps.map((d) => d.file));
  for (const dir of [DUMP_DIR, `${DUMP_DIR}/changes`]) {
    const listing = listDir(clientDir, dir);
    if (listing === undefined) continue; // the missing files are named above
    problems.push(...strayFiles(dumpSet, listing.files));
    for (const d of listing.dirs) if (`${dir}/${d}` !== `${DUMP_DIR}/changes`) problems.push({ file: `client/${dir}/${d}/`, problem: 'is a stray folder' });
  }
  files += dumps.length;

  const bundleText = readText(path.join(serverDir, BUNDLE_FILE));
  if (bundleText === undefined) {
    problems.push({ file: `server/${BUNDLE_FILE}`, problem: 'is missing' });
  } else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bundleText);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || !RegistryBundleSchema.safeParse(parsed).success)
      problems.push({ file: `server/${BUNDLE_FILE}`, problem: 'does not parse as a registry bundle' });
    else if (bundleText !== serialise(prep.bundle)) problems.push({ file: `server/${BUNDLE_FILE}`, problem: 'is stale: it differs from the data' });
  }

  problems.push(...checkListBundle(serverDir));
  problems.push(...checkServerRuntime(serverDir));

  return { problems, games: registry.games.length, providers: registry.providers.length, files };
}
