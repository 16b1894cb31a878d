// The stages of src/ and which may import which (docs/architecture.md): every relative import of
// every file under src/ is checked against the table, and the file graph must have no cycle.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');

/** Each folder of src/ and the folders it may import from (besides itself). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  schemas: [],
  lib: [],
  styles: [],
  routes: ['schemas', 'lib'],
  registry: ['schemas', 'routes', 'lib'],
  ingest: ['schemas', 'registry', 'lib'],
  openapi: ['schemas', 'routes'],
  site: ['schemas', 'routes', 'registry', 'lib'],
  emit: ['schemas', 'routes', 'registry', 'site', 'lib'],
  list: ['schemas', 'routes', 'lib'],
  keys: ['schemas', 'lib'],
  release: ['schemas', 'routes', 'registry', 'lib'],
  hooks: ['schemas', 'routes', 'release', 'lib'],
  mcp: ['schemas', 'routes', 'list'],
  server: ['schemas', 'routes', 'list', 'keys', 'mcp', 'site', 'lib'],
  // `npm run edge`: runs the build's nginx.conf (its file names) in front of the server instances.
  edge: ['schemas', 'emit', 'lib'],
  // Astro's pages and layout: the glue of `astro build` and `astro dev`.
  layouts: ['schemas', 'routes', 'site', 'styles'],
  pages: ['schemas', 'routes', 'registry', 'site', 'openapi', 'emit', 'list', 'layouts', 'lib'],
};

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|new URL\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(ts|mjs|astro)$/.test(e.name) ? [full] : [];
  });
}

/** Relative imports of every file under src/: file -> resolved targets. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(SPECIFIER)].map((m) => path.resolve(path.dirname(file), m[2]!.replace(/\?.*$/, '')));
    graph.set(file, targets);
  }
  return graph;
}

const stageOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;
const rel = (file: string) => path.relative(ROOT, file);

/** Every import of `graph` that leaves src/ or goes the wrong way between stages. */
function wrongImports(graph: Map<string, string[]>): string[] {
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const from = stageOf(file);
    for (const target of targets) {
      if (!target.startsWith(SRC + path.sep)) {
        wrong.push(`${rel(file)} imports ${rel(target)} (outside src/)`);
        continue;
      }
      const to = stageOf(target);
      if (to !== from && !(MAY_IMPORT[from] ?? []).includes(to)) wrong.push(`${rel(file)} imports ${rel(target)} (${from} may not import ${to})`);
    }
  }
  return wrong;
}

describe('layers of src/', () => {
  const graph = importGraph();

  it('has every folder of src/ in the table', () => {
    const stages = new Set([...graph.keys()].map(stageOf));
    expect([...stages].filter((s) => !(s in MAY_IMPORT))).toEqual([]);
    expect(graph.size).toBeGreaterThan(100);
  });

  it('imports only from its own stage or an allowed one, never from scripts/ or tests/', () => {
    expect(wrongImports(graph)).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].map(rel).join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) if (graph.has(target)) visit(target, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('reports a wrong-way import and an import from scripts/ (the check itself)', () => {
    const at = (p: string) => path.join(ROOT, p);
    const fake = new Map([
      [at('src/list/engine.ts'), [at('src/schemas/list.ts'), at('src/emit/emit.ts')]],
      [at('src/server/app.ts'), [at('scripts/lib/services.ts')]],
    ]);
    expect(wrongImports(fake)).toEqual([
      'src/list/engine.ts imports src/emit/emit.ts (list may not import emit)',
      'src/server/app.ts imports scripts/lib/services.ts (outside src/)',
    ]);
    const sample = "import { x } from '../emit/emit.ts';\nconst w = new URL('./worker.ts', import.meta.url);\nawait import('./late.ts');";
    expect([...sample.matchAll(SPECIFIER)].map((m) => m[2])).toEqual(['../emit/emit.ts', './worker.ts', './late.ts']);
  });
});
