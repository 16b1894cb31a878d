// The registry bundle: the build's hand-off to the Node server (dist/server/registry-bundle.json).
import { z } from 'zod';
import { HistoryEntrySchema, OperatorFileSchema, ProviderFileSchema, RegistryFileSchema } from '../schemas/authoring.ts';
import { GameRecordSchema } from '../schemas/game-record.ts';
import { toGameRecord } from './derive.ts';
import type { Registry } from './load.ts';
import { NO_OPERATORS } from './operators.ts';

export const RegistryBundleSchema = z.strictObject({
  format: z.literal(1),
  meta: RegistryFileSchema,
  providers: z.array(ProviderFileSchema),
  /** The operators of data/operators/, by key. */
  operators: z.array(OperatorFileSchema),
  /** Public game records, sorted by slug. */
  records: z.array(GameRecordSchema),
  /** The history log in file order (oldest first). */
  history: z.array(HistoryEntrySchema),
});
export type RegistryBundle = z.output<typeof RegistryBundleSchema>;

/** Derives the bundle (public records and all) from a validated registry. */
export function makeBundle(registry: Registry): RegistryBundle {
  const providers = new Map(registry.providers.map((p) => [p.provider, p]));
  return {
    format: 1,
    meta: registry.meta,
    providers: registry.providers,
    operators: registry.operators ?? [],
    records: registry.games.map((g) => toGameRecord(g, providers.get(g.provider)!, registry.operatorIndex ?? NO_OPERATORS)),
    history: registry.history,
  };
}
