// `npm test`, the full gate: provides what the tests drive (Debian's chromium, redis-server and
// nginx, installed with apt when missing and running as root), then runs typecheck, lint, client:build, data:check,
// test:unit, build, dist:check, test:integration, test:browser and the bench smoke run, stopping at the first failure.
// Ends with one plain line, "tests: N passed, N failed, N skipped", summed over the Vitest runs;
// a skipped test fails the gate (a test that cannot run must fail with its reason instead).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { provisionTools, TOOLS, type ToolName } from './lib/system-tools.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  skippedNames: string[];
}

/** Reads Vitest's JSON report (numPassedTests…; skipped = pending + todo). */
function readReport(file: string, into: Counts): void {
  let report: {
    numPassedTests?: number;
    numFailedTests?: number;
    numPendingTests?: number;
    numTodoTests?: number;
    testResults?: Array<{ name: string; assertionResults: Array<{ fullName: string; status: string }> }>;
  };
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return; // the run died before writing it; its failure is reported by the exit code
  }
  into.passed += report.numPassedTests ?? 0;
  into.failed += report.numFailedTests ?? 0;
  into.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const file of report.testResults ?? []) {
    for (const a of file.assertionResults)
      if (a.status === 'pending' || a.status === 'skipped' || a.status === 'todo') into.skippedNames.push(`${path.relative(ROOT, file.name)}: ${a.fullName}`);
  }
}

function main(): number {
  const started = performance.now();
  if (!provisionTools(Object.keys(TOOLS) as ToolName[], 'the browser, shared rate-limit and edge tests', 'test')) return 1;
  const reports = mkdtempSync(path.join(os.tmpdir(), 'rtp-test-'));
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, skippedNames: [] };
  const vitest = (name: string) => ['--', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(reports, `${name}.json`)}`];
  const steps: Array<[string, string[]]> = [
    ['typecheck', []],
    ['lint', []],
    ['client:build', ['--', '--check']],
    ['data:check', []],
    ['test:unit', vitest('unit')],
    ['build', []],
    ['dist:check', []],
    ['test:integration', vitest('integration')],
    ['test:browser', vitest('browser')],
    ['bench', ['--', '--quick']],
  ];
  let failedStep: string | null = null;
  try {
    for (const [script, args] of steps) {
      console.log(`\ntest: npm run ${script}`);
      const r = spawnSync(NPM, ['run', '--silent', script, ...args], { cwd: ROOT, stdio: 'inherit' });
      if (script.startsWith('test:')) readReport(path.join(reports, `${script.slice(5)}.json`), counts);
      if (r.status !== 0) {
        failedStep = script;
        break;
      }
    }
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
  const seconds = Math.round((performance.now() - started) / 1000);
  if (failedStep !== null) console.error(`\ntest: FAILED at npm run ${failedStep} (${seconds} s)`);
  else if (counts.skipped > 0) {
    console.error(`\ntest: FAILED: ${counts.skipped} test(s) skipped; a test that cannot run here must fail with its reason:`);
    for (const name of counts.skippedNames) console.error(`  ${name}`);
  } else console.log(`\ntest: the gate passed (${seconds} s)`);
  // The closing line CI reads (plain "N passed, N failed", skipped after).
  console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  return failedStep !== null || counts.skipped > 0 || counts.failed > 0 ? 1 : 0;
}

process.exit(main());
