// JSON Lines reading shared by the adapters: every non-empty line parsed on its own, with its number.

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
  /** Why the line is not a JSON object, or null. */
  error: string | null;
}

/** The non-empty lines of `text`, each parsed; a line that is not a JSON object carries an error. */
export function jsonLines(text: string): JsonLine[] {
  const out: JsonLine[] = [];
  const lines = text.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const raw = lines[k]!.trim();
    if (raw === '') continue;
    try {
      const value: unknown = JSON.parse(raw);
      out.push({ line: k + 1, value, error: value !== null && typeof value === 'object' && !Array.isArray(value) ? null : 'not a JSON object' });
    } catch {
      out.push({ line: k + 1, value: null, error: 'not valid JSON' });
    }
  }
  return out;
}
