// Public widget data: the body of GET /api/widget/rtp/{slug}, exactly what the widget page shows.
import { z } from 'zod';
import { ConfidenceSchema } from './game-record.ts';

export const WidgetAttributionSchema = z.strictObject({
  /** The short link text, e.g. "RTP Registry · CC BY 4.0". */
  text: z.string(),
  /** Link target: the registry's page for the game. */
  url: z.string(),
  license: z.literal('CC-BY-4.0'),
  license_url: z.string(),
});

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
  last_verified: z.string(),
  source_url: z.string(),
  page_url: z.string(),
  widget_url: z.string(),
  attribution: WidgetAttributionSchema,
  data_version: z.string(),
});
export type WidgetData = z.output<typeof WidgetDataSchema>;
