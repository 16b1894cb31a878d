// GET /api/oembed: the oEmbed 1.0 answer (type `rich`) for a game page or widget URL of the
// registry, and the error bodies the spec's statuses carry (https://oembed.com/, section 2.3).
import { z } from 'zod';
import type { ErrorBody } from './errors.ts';

/** Width of the embedded widget when the consumer sets no `maxwidth`, and its fixed height (CSS pixels). */
export const OEMBED_WIDTH = 480;
export const OEMBED_HEIGHT = 220;
/** Narrowest widget served: a `maxwidth` below it has no answer (404). */
export const OEMBED_MIN_WIDTH = 200;

export const OembedResponseSchema = z.strictObject({
  version: z.literal('1.0'),
  type: z.literal('rich'),
  title: z.string(),
  author_name: z.string(),
  author_url: z.string(),
  provider_name: z.string(),
  provider_url: z.string(),
  cache_age: z.int().min(0),
  html: z.string(),
  width: z.int().min(OEMBED_MIN_WIDTH),
  height: z.int().min(1),
});
export type OembedResponse = z.output<typeof OembedResponseSchema>;

export const OEMBED_NOT_FOUND: ErrorBody = { statusCode: 404, statusMessage: 'no embeddable registry page at this url' };
export const OEMBED_TOO_SMALL: ErrorBody = {
  statusCode: 404,
  statusMessage: `the widget needs at least ${OEMBED_MIN_WIDTH} px of width and ${OEMBED_HEIGHT} px of height`,
};
export const OEMBED_FORMAT: ErrorBody = { statusCode: 501, statusMessage: 'format not implemented: only json' };
