// Writes CITATION.cff (Citation File Format 1.2.0) at the repository root from data/registry.json.
// Usage: npm run citation [-- --check]   (--check: exit 1 when CITATION.cff is out of date)
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../src/lib/write.ts';
import { loadRegistryOrThrow } from '../src/registry/load.ts';
import { citationCff } from '../src/site/dataset.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The citation file, beside README.md. */
export const CITATION_FILE = path.join(ROOT, 'CITATION.cff');
/** The data the citation describes: the repository's own data/, whatever RTP_DATA_DIR says. */
export const CITED_DATA = path.join(ROOT, 'data');

/** CITATION.cff as it should be for the repository's data. */
export async function expectedCitation(): Promise<string> {
  return citationCff((await loadRegistryOrThrow(CITED_DATA)).meta);
}

if (import.meta.main) {
  const text = await expectedCitation();
  if (process.argv.includes('--check')) {
    const current = await readFile(CITATION_FILE, 'utf8').catch(() => '');
    if (current !== text) {
      console.error('CITATION.cff is out of date with data/registry.json: run `npm run citation`');
      process.exit(1);
    }
    console.log('CITATION.cff is up to date');
  } else {
    await writeFileAtomic(CITATION_FILE, text);
    console.log(`wrote ${path.relative(process.cwd(), CITATION_FILE)}`);
  }
}
