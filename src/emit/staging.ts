// The build writes the per-game and per-provider files into a staging folder beside the output
// folder, from a worker thread (write-worker.ts), while Astro runs Vite and prerenders; once Astro
// is done the staged folders are renamed into dist/client (one rename per folder, same disk).
// Nothing reaches dist/ before the data has been validated, and no staging folder outlives the build.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { FAMILY_DIRS } from './emit.ts';
import { runWorker } from './workers.ts';

/** The staging folder for an output folder: a sibling, so a rename moves it into place. */
export function stagingDirFor(outDir: string): string {
  return `${path.resolve(outDir)}.rtp-staging-${process.pid}`;
}

/** The top folders of the families under dist/client (api/rtp holds api/rtp/provider). */
export function topFamilyDirs(): string[] {
  const dirs = [...new Set(Object.values(FAMILY_DIRS))].sort();
  return dirs.filter((d) => !dirs.some((other) => other !== d && d.startsWith(`${other}/`)));
}

export interface StagedWrite {
  /** Resolves to the number of files written once the worker is done. */
  done: Promise<number>;
  /** Moves the staged folders into `clientDir` (after `done`) and removes the staging folder. */
  moveInto(clientDir: string): void;
}

/**
 * Starts writing the families for the registry bundle `bundleText` (its exact JSON) into a fresh
 * staging folder beside `outDir`, in the worker `workerFile` (write-worker.ts, resolved by the
 * caller from the project root). The staging folder is removed when the process exits, whatever happens.
 */
export function startStagedWrite(bundleText: string, site: string, outDir: string, workerFile: URL): StagedWrite {
  const stagingDir = stagingDirFor(outDir);
  rmSync(stagingDir, { recursive: true, force: true });
  mkdirSync(stagingDir, { recursive: true });
  const discard = () => rmSync(stagingDir, { recursive: true, force: true });
  process.once('exit', discard);
  const done = runWorker<number>(workerFile, { bundleText, site, stagingDir }, 'the file writer');
  return {
    done,
    moveInto(clientDir: string): void {
      for (const rel of topFamilyDirs()) {
        const from = path.join(stagingDir, rel);
        if (!existsSync(from)) continue;
        const to = path.join(clientDir, rel);
        mkdirSync(path.dirname(to), { recursive: true });
        if (!existsSync(to)) renameSync(from, to);
        else for (const name of readdirSync(from)) renameSync(path.join(from, name), path.join(to, name)); // Astro wrote there too (not expected)
      }
      discard();
    },
  };
}
