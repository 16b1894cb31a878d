// JSON Lines reading shared by the adapters: every non-empty line parsed on its own, with its number.
import type { AdapterResult, SourceFact } from '../source.ts';

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

/**
 * Reads a JSON Lines source: each line that is a JSON object with a non-empty `name` is passed to
 * `toFact`, which returns the line's fact or the reason it cannot be mapped; every other line, and
 * every reason, becomes an unmapped line of `file`.
 */
export function readRows<Row>(text: string, file: string, toFact: (row: Row, name: string, line: number) => SourceFact | string): AdapterResult {
  const result: AdapterResult = { facts: [], unmapped: [] };
  for (const { line, value, error } of jsonLines(text)) {
    const raw = (value ?? {}) as { name?: unknown };
    const name = typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name.trim() : null;
    const fact = error !== null ? error : name === null ? 'no name' : toFact(raw as Row, name, line);
    if (typeof fact === 'string') result.unmapped.push({ file, line, name, reason: fact });
    else result.facts.push(fact);
  }
  return result;
}
