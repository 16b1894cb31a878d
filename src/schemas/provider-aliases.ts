// The provider alias table (data/provider-aliases.json): every provider label a source writes, mapped
// to one provider key with its group, and the labels refused as no provider at all.
import { z } from 'zod';
import { SlugSchema } from './authoring.ts';

export const ProviderAliasRowSchema = z.strictObject({
  /** The registry's provider key. */
  provider: SlugSchema,
  /** The display name a new provider file gets (an existing provider file keeps its own). */
  display: z.string().trim().min(1, 'must not be empty'),
  /** The group the studio belongs to (a key of `groups`), or null. */
  group: SlugSchema.nullable(),
  /** Every label the sources write for this provider, exactly as written. */
  labels: z.array(z.string().trim().min(1)).min(1, 'must list at least one label'),
  /** The provider that publishes this studio's games under its own name (Reel Kingdom's: Pragmatic Play), if any. */
  distributor: SlugSchema.optional(),
  /**
   * Providers whose games this provider's catalogue files also list (a licensed casino's studio file
   * that holds a hub's partner studios: its Silver Bullet file Print Studios' games). A line of such a
   * file whose name is a game one of them publishes is that game.
   */
  partners: z.array(SlugSchema).optional(),
});
export type ProviderAliasRow = z.output<typeof ProviderAliasRowSchema>;

export const ProviderAliasesFileSchema = z
  .strictObject({
    format: z.literal(1),
    /** Group key → display name. */
    groups: z.record(SlugSchema, z.string().trim().min(1)),
    providers: z.array(ProviderAliasRowSchema).min(1),
    /** Labels that name no provider (a catalogue's catch-all), with the reason; their lines are not mapped. */
    refused: z.array(z.strictObject({ label: z.string().trim().min(1), reason: z.string().trim().min(1) })),
  })
  .superRefine((file, ctx) => {
    const seen = new Map<string, string>();
    const keys = new Set<string>();
    file.providers.forEach((row, i) => {
      if (keys.has(row.provider)) ctx.addIssue({ code: 'custom', path: ['providers', i, 'provider'], message: `${row.provider} has two rows` });
      keys.add(row.provider);
      if (row.group !== null && !(row.group in file.groups))
        ctx.addIssue({ code: 'custom', path: ['providers', i, 'group'], message: `${row.group} is not a key of groups` });
      if (row.distributor !== undefined && !file.providers.some((r) => r.provider === row.distributor))
        ctx.addIssue({ code: 'custom', path: ['providers', i, 'distributor'], message: `${row.distributor} has no row` });
      for (const p of row.partners ?? [])
        if (!file.providers.some((r) => r.provider === p)) ctx.addIssue({ code: 'custom', path: ['providers', i, 'partners'], message: `${p} has no row` });
      for (const label of row.labels) {
        const had = seen.get(label);
        if (had !== undefined)
          ctx.addIssue({ code: 'custom', path: ['providers', i, 'labels'], message: `${JSON.stringify(label)} is also a label of ${had}` });
        seen.set(label, row.provider);
      }
    });
    file.refused.forEach((r, i) => {
      if (seen.has(r.label))
        ctx.addIssue({ code: 'custom', path: ['refused', i, 'label'], message: `${JSON.stringify(r.label)} is also a label of ${seen.get(r.label)}` });
    });
  });
export type ProviderAliasesFile = z.output<typeof ProviderAliasesFileSchema>;
