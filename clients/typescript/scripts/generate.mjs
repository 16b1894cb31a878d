// Generates src/schema.ts (the API's types) from the registry's OpenAPI document with
// openapi-typescript. Input: openapi.json beside package.json (the registry's /api/openapi.json,
// copied by the repository's `npm run client:build`), or `--from <URL or file>`, e.g.
// `--from https://rtp.example.org/api/openapi.json`. `--check`: exit 1 when src/schema.ts differs.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'src/schema.ts');
const { values } = parseArgs({ options: { from: { type: 'string' }, check: { type: 'boolean' } } });
const from = values.from ?? path.join(ROOT, 'openapi.json');

let source;
if (/^https?:\/\//.test(from)) {
  const res = await fetch(from, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`GET ${from} answered ${res.status}`);
  source = await res.text();
} else source = await readFile(from, 'utf8');

const ast = await openapiTS(JSON.parse(source), { alphabetize: false, exportType: false });
const text = `${COMMENT_HEADER}${astToString(ast)}`;

if (values.check) {
  const current = await readFile(OUT, 'utf8').catch(() => '');
  if (current !== text) {
    console.error(
      `${path.relative(process.cwd(), OUT)} is out of date with ${path.basename(from)}: run \`npm run client:build\` in the repository (or \`npm run generate\` here)`,
    );
    process.exit(1);
  }
  console.log(`${path.relative(process.cwd(), OUT)} is up to date`);
} else {
  await writeFile(OUT, text);
  console.log(`wrote ${path.relative(process.cwd(), OUT)} from ${from}`);
}
