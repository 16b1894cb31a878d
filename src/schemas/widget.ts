// Public widget data: the body of GET /api/widget/rtp/{slug}, exactly what the widget page shows.
import { z } from 'zod';
import { ConfidenceSchema, OperatorBuildKindSchema } from './game-record.ts';

export const WidgetAttributionSchema = z.strictObject({
  /** The short link text, e.g. "RTP Registry · CC BY 4.0". */
  text: z.string(),
  /** Link target: the registry's page for the game. */
  url: z.string(),
  license: z.literal('CC-BY-4.0'),
  license_url: z.string(),
});

/**
 * One operator's build as the widget shows it (`operator=<key>`): what that casino's catalogue showed
 * on the date its source was pinned, not a live reading.
 */
export const WidgetOperatorSchema = z.strictObject({
  operator: z.string(),
  display: z.string(),
  rtp: z.number(),
  build: OperatorBuildKindSchema,
  pinned_at: z.string(),
});
export type WidgetOperator = z.output<typeof WidgetOperatorSchema>;

export const WidgetDataSchema = z.strictObject({
  slug: z.string(),
  name: z.string(),
  provider: z.string(),
  provider_display: z.string(),
  stated_rtp: z.number(),
  rtp_min: z.number(),
  rtp_max: z.number(),
  rtp_variants: z.array(z.number()).min(1),
  confidence: ConfidenceSchema,
  /** The operator builds the widget can show, one per operator (the record's `operators`, in its order). */
  operators: z.array(WidgetOperatorSchema),
  last_verified: z.string(),
  source_url: z.string(),
  page_url: z.string(),
  widget_url: z.string(),
  attribution: WidgetAttributionSchema,
  data_version: z.string(),
});
export type WidgetData = z.output<typeof WidgetDataSchema>;
