// The bench's size budget: its code (scripts/bench/**/*.ts) stays at most 2,000 lines.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';

const BENCH = path.resolve(import.meta.dirname, '../../scripts/bench');
const BUDGET = 2000;

/** Lines of a file as `wc -l` counts them (its newline characters). */
const lineCount = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;

describe('bench code', () => {
  it(`stays at most ${BUDGET} lines`, () => {
    const files = fg.sync('**/*.ts', { cwd: BENCH, absolute: true });
    // The count covers the bench itself: a pattern that matched nothing would pass with 0.
    expect(files.map((f) => path.relative(BENCH, f))).toEqual(expect.arrayContaining(['run.ts', 'load.ts', 'list.ts', 'render.ts']));
    const counts = files.map((f) => [path.relative(BENCH, f), lineCount(f)] as const);
    const total = counts.reduce((sum, [, n]) => sum + n, 0);
    expect(total, counts.map(([f, n]) => `${n} ${f}`).join('\n')).toBeLessThanOrEqual(BUDGET);
  });
});
