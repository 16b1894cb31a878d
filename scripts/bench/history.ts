// Earlier full runs, carried from one BENCHMARKS.md to the next: before a full run overwrites the
// report it reads the previous report's commit, date and measured targets (and the earlier runs it
// already listed), so the new report shows before/after figures of every change.

/** One earlier full run: its commit, date, and the measured value of each target ("#8 uncached distinct queries" -> "11,994 req/s, p99 2.41 ms"). */
export interface EarlierRun {
  commit: string;
  date: string;
  measured: Record<string, string>;
}

/** Runs kept in a report (newest first). */
export const HISTORY_LIMIT = 12;
const HISTORY_HEADING = '## Earlier full runs';

function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

/** The rows of the first Markdown table after `heading` (header row first), or [] when there is none. */
function tableAfter(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const at = lines.findIndex((l) => l.trim() === heading);
  if (at < 0) return [];
  const rows: string[][] = [];
  for (let k = at + 1; k < lines.length; k++) {
    const line = lines[k]!.trim();
    if (line.startsWith('## ')) break;
    if (!line.startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    if (/^\|[\s|:-]+\|$/.test(line)) continue; // the separator row
    rows.push(cells(line));
  }
  return rows;
}

/**
 * The earlier runs to list in the next report: the previous full report's own run (from its header
 * table and its Targets table) followed by the runs it listed. Empty for a missing or partial report.
 */
export function carryHistory(previousReport: string): EarlierRun[] {
  if (!previousReport.startsWith('# Benchmarks\n')) return [];
  const head = new Map(tableAfter(previousReport, '# Benchmarks').slice(1).map((r) => [r[0]!, r[1] ?? '']));
  const targets = tableAfter(previousReport, '## Targets').slice(1);
  const runs: EarlierRun[] = [];
  if (head.get('commit') && targets.length > 0) {
    runs.push({
      commit: head.get('commit')!,
      date: (head.get('date') ?? '').slice(0, 10),
      measured: Object.fromEntries(targets.map((r) => [`${r[0]} ${r[1]}`, r[3] ?? ''])),
    });
  }
  const earlier = tableAfter(previousReport, HISTORY_HEADING);
  const header = earlier[0] ?? [];
  for (const row of earlier.slice(1)) {
    const measured: Record<string, string> = {};
    header.forEach((name, k) => {
      if (k >= 2 && row[k] !== undefined && row[k] !== '–') measured[name] = row[k]!;
    });
    runs.push({ commit: row[0] ?? '', date: row[1] ?? '', measured });
  }
  return runs.slice(0, HISTORY_LIMIT);
}

/** The "Earlier full runs" section: one row per run, one column per target of this run. */
export function renderHistory(runs: readonly EarlierRun[], targetKeys: readonly string[], table: (header: readonly string[], rows: ReadonlyArray<readonly string[]>) => string): string {
  if (runs.length === 0) return '';
  return [
    HISTORY_HEADING,
    '',
    'The measured figures of the full runs before this one (newest first), as their reports gave them: before/after figures for every change. Each run compared against its own baselines; compare ratios, not absolute times.',
    '',
    table(['commit', 'date', ...targetKeys], runs.map((r) => [r.commit, r.date, ...targetKeys.map((k) => r.measured[k] ?? '–')])),
  ].join('\n');
}
