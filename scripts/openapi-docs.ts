// Writes docs/api.md, the readable API reference, from the OpenAPI document and examples over data/,
// the route list of README.md's API summary (between its markers) from the same document, and the
// data figures of README.md's "The data" (between theirs) from data/.
// Usage: node scripts/openapi-docs.ts [--check]   (--check: exit 1 when either is out of date)
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openApiDocument } from '../src/openapi/document.ts';
import { makeBundle } from '../src/registry/bundle.ts';
import { dataDir, loadRegistryOrThrow } from '../src/registry/load.ts';
import { HELD_BACK_FILE, HeldBackFileSchema } from '../src/schemas/held-back.ts';
import { withDataFigures } from './lib/data-figures.ts';
import { routeExamples } from './lib/openapi-examples.ts';
import { renderApiMarkdown, withRouteList } from './lib/openapi-markdown.ts';

export const API_DOC = path.resolve('docs/api.md');
export const README = path.resolve('README.md');
export const FIX_COMMAND = 'node scripts/openapi-docs.ts';

/** The reference as it should be for the registry in `dir`. */
export async function expectedApiDoc(dir: string = dataDir()): Promise<string> {
  const bundle = makeBundle(await loadRegistryOrThrow(dir));
  return renderApiMarkdown(openApiDocument(), routeExamples(bundle));
}

/** README.md as it should be: its route list from the OpenAPI document, its data figures from `dir` (throws when markers are missing). */
export async function expectedReadme(dir: string = dataDir()): Promise<string> {
  const text = withRouteList(await readFile(README, 'utf8'), openApiDocument());
  if (text === null) throw new Error('README.md has no route-list markers');
  const held = HeldBackFileSchema.parse(JSON.parse(await readFile(path.join(dir, HELD_BACK_FILE), 'utf8'))).games.length;
  const figures = withDataFigures(text, makeBundle(await loadRegistryOrThrow(dir)), held);
  if (figures === null) throw new Error('README.md has no data-figure markers');
  return figures;
}

if (import.meta.main) {
  let stale = false;
  for (const [file, text] of [
    [API_DOC, await expectedApiDoc()],
    [README, await expectedReadme()],
  ] as const) {
    const name = path.relative(process.cwd(), file);
    if (process.argv.includes('--check')) {
      if ((await readFile(file, 'utf8').catch(() => '')) === text) {
        console.log(`${name} is up to date`);
      } else {
        console.error(`${name} is out of date: run \`${FIX_COMMAND}\``);
        stale = true;
      }
    } else {
      await writeFile(file, text);
      console.log(`wrote ${name}`);
    }
  }
  if (stale) process.exit(1);
}
