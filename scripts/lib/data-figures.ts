// The data figures of README.md's "The data" section (games, providers, data version, confidence
// levels, games held back), written between its markers from data/ by node scripts/openapi-docs.ts,
// as the route list is: a figure in the README is never typed by hand.
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { CONFIDENCE_LEVELS } from '../../src/schemas/game-record.ts';

export const README_DATA_START = '<!-- data figures: written by node scripts/openapi-docs.ts from data/ -->';
export const README_DATA_END = '<!-- end of data figures -->';

const n = (x: number) => x.toLocaleString('en-US');

/** The lines between the markers: the figures of `bundle`, with `heldBack` games held back. */
export function dataFigures(bundle: RegistryBundle, heldBack: number): string[] {
  const records = bundle.records;
  const providers = new Set(records.map((r) => r.provider)).size;
  const levels = CONFIDENCE_LEVELS.map((c) => `${n(records.filter((r) => r.confidence === c).length)} \`${c}\``).join(', ');
  const withOperator = records.filter((r) => r.sources.some((s) => s.kind === 'operator')).length;
  return [
    `\`data/\` holds ${n(records.length)} games from ${n(providers)} providers at data version ${bundle.meta.data_version} (frozen ${bundle.meta.frozen_at}).`,
    `Confidence: ${levels}.`,
    `${n(withOperator)} records carry a licensed casino's figure; ${n(heldBack)} games the sources name are held back (listed in docs/DATA.md).`,
  ];
}

/** `text` with the figures between its markers replaced, or null when the markers are missing. */
export function withDataFigures(text: string, bundle: RegistryBundle, heldBack: number): string | null {
  const start = text.indexOf(README_DATA_START);
  const end = text.indexOf(README_DATA_END);
  if (start < 0 || end < start) return null;
  return [text.slice(0, start) + README_DATA_START, ...dataFigures(bundle, heldBack), text.slice(end)].join('\n');
}
