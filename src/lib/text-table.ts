// A plain-text table for command-line listings: columns padded to their widest cell, two spaces apart.

/** Rows (the first is the heading) as lines, each column padded to its widest cell but the last; trailing spaces trimmed. */
export function textTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map(
      (r) =>
        `${r
          .map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!)))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}
