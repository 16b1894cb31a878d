// GET /api/oembed for `astro dev`; the Node server (src/server) answers it in production with the same handler.
import type { APIRoute } from 'astro';
import { toResponse } from '../../list/handler-result.ts';
import { devServices } from './rtp/_services.ts';

export const prerender = false;

export const GET: APIRoute = async ({ url }) => toResponse((await devServices()).oembed(url.searchParams));
