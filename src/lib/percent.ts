// Percentages as people read them: at least two decimals, never rounded away (96.3 -> 96.30%).

/** How a locale writes a percentage: its decimal separator and what follows the number. */
export interface PercentStyle {
  decimal: string;
  /** `%`, or a no-break space and `%` where the locale spaces it (CLDR percent patterns). */
  suffix: string;
}

export const EN_PERCENT: PercentStyle = { decimal: '.', suffix: '%' };

/**
 * The figure with at least two decimals and any further ones it has (96 -> `96.00`, 96.3 -> `96.30`,
 * 96.125 -> `96.125`): a provider's figure is shown as stated, only padded.
 */
export function figure(x: number, decimal = '.'): string {
  const s = String(x);
  if (s.includes('e')) return x.toFixed(2).replace('.', decimal); // not a registry figure (RTP is 0-100), but never exponent notation
  const dot = s.indexOf('.');
  const whole = dot === -1 ? s : s.slice(0, dot);
  const frac = dot === -1 ? '' : s.slice(dot + 1);
  return `${whole}${decimal}${frac.padEnd(2, '0')}`;
}

/** A percentage for reading, e.g. `96.30%` (English) or `96,30 %` (German style). */
export function percent(x: number, style: PercentStyle = EN_PERCENT): string {
  return figure(x, style.decimal) + style.suffix;
}
