// Writes the route table into docs/server.md (between its markers) from src/routes/routes.ts.
// Usage: node scripts/routes-docs.ts [--check]   (--check: exit 1 when the docs are out of date)
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withRouteTable } from '../src/routes/docs.ts';

export const ROUTE_DOCS = [path.resolve('docs/server.md')];
export const FIX_COMMAND = 'npm run docs:routes';

let stale = false;
for (const file of ROUTE_DOCS) {
  const current = await readFile(file, 'utf8');
  const next = withRouteTable(current);
  if (next === null) {
    console.error(`${path.relative(process.cwd(), file)}: no route-table markers`);
    process.exit(1);
  }
  if (next === current) continue;
  if (process.argv.includes('--check')) {
    console.error(`${path.relative(process.cwd(), file)}: the route table is out of date: run \`${FIX_COMMAND}\``);
    stale = true;
  } else {
    await writeFile(file, next);
    console.log(`wrote the route table into ${path.relative(process.cwd(), file)}`);
  }
}
if (stale) process.exit(1);
