// Renders the readable API reference (docs/api.md) from the OpenAPI document and route examples.
import type { Example } from './openapi-examples.ts';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked by key, whatever each value's shape
type Json = Record<string, any>;

/** GitHub's heading anchor: lowercase, punctuation other than `-` and `_` dropped, spaces as `-`. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** A JSON Schema as a short type text, component references as links. */
export function typeText(schema: Json | undefined): string {
  if (schema === undefined) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    return `[${name}](#${anchor(name)})`;
  }
  if (Array.isArray(schema.anyOf)) return schema.anyOf.map((s: Json) => (s.type === 'object' && s.properties ? 'object (below)' : typeText(s))).join(' or ');
  if ('const' in schema) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => `\`${String(v)}\``).join(', ');
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array') return `array of ${typeText(schema.items)}`;
  if (schema.type === 'object' && schema.properties === undefined) return 'object';
  if (schema.type === 'object') return 'object (below)';
  const bounds: string[] = [];
  if (schema.minimum !== undefined && schema.maximum !== undefined) bounds.push(`${schema.minimum}–${schema.maximum}`);
  else if (schema.minimum !== undefined) bounds.push(`≥ ${schema.minimum}`);
  else if (schema.maximum !== undefined) bounds.push(`≤ ${schema.maximum}`);
  if (schema.maxLength !== undefined) bounds.push(`at most ${schema.maxLength} characters`);
  if (schema.pattern !== undefined) bounds.push(`pattern \`${schema.pattern}\``);
  return bounds.length === 0 ? String(schema.type ?? 'any') : `${schema.type} (${bounds.join(', ')})`;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function fieldRows(schema: Json, prefix: string, rows: string[]): void {
  const required = new Set<string>(schema.required ?? []);
  for (const [name, prop] of Object.entries<Json>(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    rows.push(`| \`${path}\` | ${cell(typeText(prop))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(prop.description ?? '')} |`);
    const obj = prop.type === 'object' ? prop : prop.anyOf?.find((b: Json) => b.type === 'object');
    if (obj?.properties) fieldRows(obj, `${path}.`, rows);
    if (prop.type === 'array' && prop.items?.type === 'object') fieldRows(prop.items, `${path}[].`, rows);
  }
}

function resolve(doc: Json, item: Json): Json {
  if (typeof item.$ref !== 'string') return item;
  const parts = item.$ref.replace(/^#\//, '').split('/');
  // biome-ignore lint/suspicious/noExplicitAny: a JSON pointer walks any value
  let node: any = doc;
  for (const p of parts) node = node[p];
  return node as Json;
}

function exampleBlock(ex: Example): string {
  let body: string;
  if (ex.contentType === 'text/html') {
    const html = String(ex.body);
    body = `${html.slice(0, 400)}…  (${html.length} characters in all)`;
  } else if (ex.contentType === 'application/json') {
    body = JSON.stringify(ex.body, null, 2);
  } else {
    body = String(ex.body); // the first lines of a bulk download
  }
  const lang = {
    'text/html': 'html',
    'application/json': 'json',
    'text/csv': 'csv',
    'application/x-ndjson': 'json',
    'text/plain': 'markdown',
    'image/svg+xml': 'svg',
    'image/png': 'text',
    'application/atom+xml': 'xml',
  }[ex.contentType];
  return `\`\`\`sh\ncurl -i '{base_url}${ex.request}'\n\`\`\`\n\n\`${ex.status}\` · \`${ex.contentType}\`\n\n\`\`\`${lang}\n${body}\n\`\`\`\n`;
}

/** The route list: each operation's method and path (linked to its section of docs/api.md, at `page`) and its summary. */
export function routeList(doc: Json, page = ''): string[] {
  return Object.entries<Json>(doc.paths).map(([path, item]) => {
    const { method, op } = opOf(item);
    return `- [\`${method} ${path}\`](${page}#${anchor(`${method.toLowerCase()} ${path}`)}): ${op.summary}${op['x-rate-limited'] ? '' : ' (not rate limited)'}`;
  });
}

/** The markers around the route list in README.md. */
export const README_ROUTES_START = '<!-- route list: written by node scripts/openapi-docs.ts from the OpenAPI document -->';
export const README_ROUTES_END = '<!-- end of route list -->';

/** `text` (README.md) with its route list replaced by the document's, linked to docs/api.md; null when it has no markers. */
export function withRouteList(text: string, doc: Json): string | null {
  const start = text.indexOf(README_ROUTES_START);
  const end = text.indexOf(README_ROUTES_END);
  if (start < 0 || end < start) return null;
  return [text.slice(0, start) + README_ROUTES_START, ...routeList(doc, 'docs/api.md'), text.slice(end)].join('\n');
}

// Every path has one operation: a GET, or POST /mcp.
const opOf = (item: Json) => (item.get !== undefined ? { method: 'GET', op: item.get as Json } : { method: 'POST', op: item.post as Json });

/**
 * The markdown reference: routes (parameters, responses, examples), then every schema's fields.
 * `examples` come from `routeExamples` over the shipped registry.
 */
export function renderApiMarkdown(doc: Json, examples: Example[]): string {
  const out: string[] = [];
  out.push('<!-- Generated from src/openapi/document.ts by `node scripts/openapi-docs.ts`; do not edit by hand. -->');
  out.push(`# ${doc.info.title} reference (v${doc.info.version})`, '');
  out.push(doc.info.description, '');
  out.push(
    "The machine-readable contract is the OpenAPI 3.1 document at [`/api/openapi.json`](/api/openapi.json). Examples below are real answers computed from the shipped registry; `{base_url}` is the address of a registry (the local server listens on `http://127.0.0.1:4321`). Long arrays in examples are shortened by the `limit` shown in the request; in the bulk downloads' examples, to their first items (their counts are whole), and the CSV and NDJSON files to their first lines.",
    '',
  );
  out.push('Changes to the contract are listed in [CHANGELOG-API.md](CHANGELOG-API.md).', '');
  out.push('## Routes', '', ...routeList(doc), '');
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    const { method, op } = opOf(item);
    out.push(`## ${method} ${path}`, '');
    out.push(`${op.summary}. ${op.description}`, '');
    out.push(`Rate limited: ${op['x-rate-limited'] ? 'yes (1,000 requests per 24 hours per IP address)' : 'no'}.`, '');
    const params = ((op.parameters ?? []) as Json[]).map((p) => resolve(doc, p));
    if (params.length > 0) {
      out.push('| Parameter | In | Type | Default | Description |', '|---|---|---|---|---|');
      for (const p of params) {
        const def = p.schema?.default === undefined ? '' : `\`${String(p.schema.default)}\``;
        out.push(`| \`${p.name}\` | ${p.in} | ${cell(typeText(p.schema))} | ${def} | ${cell(p.description ?? '')} |`);
      }
      out.push('');
    }
    out.push('| Status | Meaning | Body |', '|---|---|---|');
    for (const [status, raw] of Object.entries<Json>(op.responses)) {
      const resp = resolve(doc, raw);
      const media = resp.content ? Object.keys(resp.content)[0]! : '';
      const body = media === '' ? '—' : `${typeText(resp.content[media].schema)} (\`${media}\`)`;
      out.push(`| ${status} | ${cell(resp.description)} | ${cell(body)} |`);
    }
    out.push('');
    const exs = examples.filter((e) => e.path === path);
    for (const ex of exs) {
      out.push(`### Example: ${ex.status}`, '', exampleBlock(ex));
    }
  }
  out.push('## Headers', '');
  out.push('| Header | Meaning |', '|---|---|');
  for (const [name, h] of Object.entries<Json>(doc.components.headers)) out.push(`| \`${name}\` | ${cell(h.description)} |`);
  out.push('');
  out.push('## Schemas', '');
  for (const [name, schema] of Object.entries<Json>(doc.components.schemas)) {
    out.push(`### ${name}`, '');
    out.push('| Field | Type | Required | Description |', '|---|---|---|---|');
    const rows: string[] = [];
    fieldRows(schema, '', rows);
    out.push(...rows, '');
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
