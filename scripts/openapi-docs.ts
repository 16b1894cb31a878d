// Writes docs/api.md, the readable API reference, from the OpenAPI document and examples over data/.
// Usage: node scripts/openapi-docs.ts [--check]   (--check: exit 1 when docs/api.md is out of date)
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeBundle } from '../src/registry/bundle.ts';
import { dataDir, loadRegistryOrThrow } from '../src/registry/load.ts';
import { openApiDocument } from '../src/openapi/document.ts';
import { routeExamples } from './lib/openapi-examples.ts';
import { renderApiMarkdown } from './lib/openapi-markdown.ts';

export const API_DOC = path.resolve('docs/api.md');
export const FIX_COMMAND = 'node scripts/openapi-docs.ts';

/** The reference as it should be for the registry in `dir`. */
export async function expectedApiDoc(dir: string = dataDir()): Promise<string> {
  const bundle = makeBundle(await loadRegistryOrThrow(dir));
  return renderApiMarkdown(openApiDocument(), routeExamples(bundle));
}

if (import.meta.main) {
  const text = await expectedApiDoc();
  if (process.argv.includes('--check')) {
    const current = await readFile(API_DOC, 'utf8').catch(() => '');
    if (current !== text) {
      console.error(`docs/api.md is out of date: run \`${FIX_COMMAND}\``);
      process.exit(1);
    }
    console.log('docs/api.md is up to date');
  } else {
    await writeFile(API_DOC, text);
    console.log(`wrote ${path.relative(process.cwd(), API_DOC)}`);
  }
}
