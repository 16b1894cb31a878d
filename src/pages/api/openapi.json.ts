// GET /api/openapi.json: the OpenAPI 3.1 document, pre-rendered to dist/client/api/openapi.json.
import type { APIRoute } from 'astro';
import { openApiJson } from '../../openapi/document.ts';
import { JSON_TYPE } from '../../routes/response-headers.ts';

export const prerender = true;

export const GET: APIRoute = () => new Response(openApiJson(), { headers: { 'Content-Type': JSON_TYPE } });
