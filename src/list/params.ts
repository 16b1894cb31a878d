// Shared query-string reading for the list and history routes: repeats, empty values, integers, text.
import { TEXT_PARAM_MAX } from '../schemas/list.ts';

/** One rejected query parameter, as listed in a 400 body's `errors`. */
export interface ParamError {
  param: string;
  message: string;
}

export const MSG_REPEATED = 'must be given at most once';
export const MSG_TEXT_TOO_LONG = `must be at most ${TEXT_PARAM_MAX} characters`;

/** Anything with URLSearchParams' iteration, so callers may pass a URL's `searchParams`. */
export type QueryInput = URLSearchParams | URL | string;

/**
 * Collects the values of the named parameters (others are ignored), in one pass.
 * `+` and percent-escapes are decoded by URLSearchParams.
 */
export function collectParams(input: QueryInput, names: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (key: string, value: string) => {
    if (!names.includes(key)) return;
    const list = out.get(key);
    if (list === undefined) out.set(key, [value]);
    else list.push(value);
  };
  if (typeof input === 'string' && !NEEDS_DECODING.test(input)) {
    // Nothing to decode: splitting is exactly what URLSearchParams would do (WHATWG URL,
    // application/x-www-form-urlencoded parsing), without building its entry list.
    let from = input.startsWith('?') ? 1 : 0;
    while (from <= input.length) {
      let to = input.indexOf('&', from);
      if (to < 0) to = input.length;
      if (to > from) {
        const eq = input.indexOf('=', from);
        if (eq < 0 || eq > to) add(input.slice(from, to), '');
        else add(input.slice(from, eq), input.slice(eq + 1, to));
      }
      from = to + 1;
    }
    return out;
  }
  const params = input instanceof URL ? input.searchParams : typeof input === 'string' ? new URLSearchParams(input) : input;
  for (const [key, value] of params) add(key, value);
  return out;
}

/** Query strings with escapes, `+` or non-ASCII text go through URLSearchParams. */
const NEEDS_DECODING = /[%+\u0080-\uffff]/;

/**
 * The single value of a parameter, or null when it is absent or empty (an empty value is treated
 * as absent everywhere, docs/api-list.md). A repeated parameter records an error and yields null.
 */
export function single(values: Map<string, string[]>, name: string, errors: ParamError[]): string | null {
  const list = values.get(name);
  if (list === undefined) return null;
  if (list.length > 1) {
    errors.push({ param: name, message: MSG_REPEATED });
    return null;
  }
  const value = list[0]!;
  return value === '' ? null : value;
}

/** Free text: trimmed, whitespace runs collapsed to one space, empty → null, at most TEXT_PARAM_MAX characters. */
export function text(values: Map<string, string[]>, name: string, errors: ParamError[]): string | null {
  const raw = single(values, name, errors);
  if (raw === null) return null;
  const value = raw.trim().replace(/\s+/gu, ' ');
  if (value === '') return null;
  // Count code points, not UTF-16 units, so the limit matches what a person calls characters.
  let n = 0;
  for (const _ of value) if (++n > TEXT_PARAM_MAX) break;
  if (n > TEXT_PARAM_MAX) {
    errors.push({ param: name, message: MSG_TEXT_TOO_LONG });
    return null;
  }
  return value;
}

/** A decimal integer in [min, max] (digits only: no sign, fraction, exponent or spaces), or the default. */
export function integer(values: Map<string, string[]>, name: string, errors: ParamError[], range: { min: number; max: number; fallback: number }): number {
  const raw = single(values, name, errors);
  if (raw === null) return range.fallback;
  const n = /^[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= range.min && n <= range.max)) {
    errors.push({ param: name, message: `must be an integer from ${range.min} to ${range.max}` });
    return range.fallback;
  }
  return n;
}

/** One of a fixed set of values, or null. */
export function oneOf<T extends string>(values: Map<string, string[]>, name: string, errors: ParamError[], allowed: readonly T[]): T | null {
  const raw = single(values, name, errors);
  if (raw === null) return null;
  if (!(allowed as readonly string[]).includes(raw)) {
    errors.push({ param: name, message: `must be one of: ${allowed.join(', ')}` });
    return null;
  }
  return raw as T;
}

/**
 * A plain decimal number in [0, max] with at most two decimals (`96`, `96.5`, `96.21`; no sign,
 * exponent or spaces), or null when absent; `message` is the error text.
 */
export function decimal(values: Map<string, string[]>, name: string, errors: ParamError[], max: number, message: string): number | null {
  const raw = single(values, name, errors);
  if (raw === null) return null;
  const n = /^[0-9]{1,12}(?:\.[0-9]{1,2})?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 0 && n <= max)) {
    errors.push({ param: name, message });
    return null;
  }
  return n;
}

/** Several of a fixed set of values separated by commas: each once, in the set's order; null when absent. */
export function someOf<T extends string>(values: Map<string, string[]>, name: string, errors: ParamError[], allowed: readonly T[]): T[] | null {
  const raw = single(values, name, errors);
  if (raw === null) return null;
  const given = raw.split(',');
  if (given.some((v) => !(allowed as readonly string[]).includes(v))) {
    errors.push({ param: name, message: `must be one or more of: ${allowed.join(', ')} (separated by commas)` });
    return null;
  }
  return allowed.filter((v) => given.includes(v));
}
