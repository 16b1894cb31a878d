// Source provider labels to registry provider keys, through the alias table
// (data/provider-aliases.json): a label the table does not list, or lists as refused, makes no
// provider; so a typo or a catch-all label never becomes a key of its own.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ProviderAliasesFile, ProviderAliasesFileSchema, type ProviderAliasRow } from '../schemas/provider-aliases.ts';

/** The alias table's file name in a data folder. */
export const ALIASES_FILE = 'provider-aliases.json';

/** Where one label went: a provider key, or refused with the reason. */
export type LabelResolution = { provider: string; group: string | null } | { refused: string };

/** The alias table, read for lookups. */
export interface ProviderTable {
  file: ProviderAliasesFile;
  /** Resolves a label as written (surrounding spaces ignored); undefined when the table lacks it. */
  resolve(label: string): LabelResolution | undefined;
  /** The row of a provider key. */
  row(provider: string): ProviderAliasRow | undefined;
  /** The group key of a provider, or null. */
  groupOf(provider: string): string | null;
  /** The provider that publishes this one's games under its own name, or null. */
  distributorOf(provider: string): string | null;
  /** The providers whose games this provider's catalogue files also list (its row's `partners`), in table order. */
  partnersOf(provider: string): readonly string[];
}

/** The table over a parsed alias file. */
export function providerTable(file: ProviderAliasesFile): ProviderTable {
  const byLabel = new Map<string, LabelResolution>();
  const rows = new Map(file.providers.map((r) => [r.provider, r]));
  for (const r of file.providers) for (const l of r.labels) byLabel.set(l.trim(), { provider: r.provider, group: r.group });
  for (const r of file.refused) byLabel.set(r.label.trim(), { refused: r.reason });
  return {
    file,
    resolve: (label) => byLabel.get(label.trim()),
    row: (provider) => rows.get(provider),
    groupOf: (provider) => rows.get(provider)?.group ?? null,
    distributorOf: (provider) => rows.get(provider)?.distributor ?? null,
    partnersOf: (provider) => rows.get(provider)?.partners ?? [],
  };
}

/** Reads and checks `<dataDir>/provider-aliases.json`; throws naming every problem. */
export async function readProviderTable(dataDir: string): Promise<ProviderTable> {
  const file = path.join(dataDir, ALIASES_FILE);
  const parsed = ProviderAliasesFileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return providerTable(parsed.data);
}
