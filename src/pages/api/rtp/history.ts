// GET /api/rtp/history for `astro dev`; the Node server (src/server) answers it in production with the same handler.
import type { APIRoute } from 'astro';
import { toResponse } from '../../../list/handler-result.ts';
import { devServices } from './_services.ts';

export const prerender = false;

export const GET: APIRoute = async ({ url }) => toResponse((await devServices()).history(url.searchParams));
