// `npm run client:build [-- --check]`: the typed client in clients/typescript/ from the OpenAPI
// document: writes its openapi.json (the bytes of /api/openapi.json), installs its own
// dependencies when missing (openapi-typescript needs TypeScript 5, the project runs 7, so the
// client keeps its own package-lock.json), regenerates src/schema.ts and compiles dist/.
// --check (what `npm test` runs): fails when openapi.json or src/schema.ts is out of date instead of writing them.
import { spawnSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../src/lib/write.ts';
import { openApiJson } from '../src/openapi/document.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
export const CLIENT_DIR = path.join(ROOT, 'clients/typescript');
const DOCUMENT = path.join(CLIENT_DIR, 'openapi.json');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const check = process.argv.includes('--check');

function npm(args: string[]): void {
  const r = spawnSync(NPM, args, { cwd: CLIENT_DIR, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`client:build: npm ${args.join(' ')} failed (exit code ${r.status ?? r.signal}) in ${path.relative(ROOT, CLIENT_DIR)}`);
    process.exit(1);
  }
}

const mtime = (file: string) =>
  stat(file).then(
    (s) => s.mtimeMs,
    () => null,
  );

const document = openApiJson();
if ((await readFile(DOCUMENT, 'utf8').catch(() => '')) !== document) {
  if (check) {
    console.error('client:build: clients/typescript/openapi.json is out of date with the OpenAPI document (src/openapi/): run `npm run client:build`');
    process.exit(1);
  }
  await writeFileAtomic(DOCUMENT, document);
  console.log('client:build: wrote clients/typescript/openapi.json');
}

// Installed once, and again when the client's lock file changes.
const installed = await mtime(path.join(CLIENT_DIR, 'node_modules/.package-lock.json'));
const lock = await mtime(path.join(CLIENT_DIR, 'package-lock.json'));
if (installed === null || lock === null || installed < lock) npm(['ci', '--no-audit', '--no-fund', '--loglevel=error']);
if (!check) npm(['run', '--silent', 'generate']);
npm(['run', '--silent', 'build']);
console.log('client:build: clients/typescript/dist is built');
