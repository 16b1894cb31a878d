// The route table as Markdown, for the docs (docs/server.md's table between its route-table
// markers, written by `npm run docs:routes`): one row per family, every column read from POLICIES.
import { DYNAMIC_FAMILIES, POLICIES, type RoutePolicy } from './routes.ts';

/** The markers around the generated table in a Markdown file. */
export const ROUTE_TABLE_START = '<!-- route table: written by npm run docs:routes from src/routes/routes.ts -->';
export const ROUTE_TABLE_END = '<!-- end of route table -->';

const code = (text: string) => (text.startsWith('(') ? text.slice(1, -1) : `\`${text}\``);

function row(p: RoutePolicy): string {
  const answered = DYNAMIC_FAMILIES.has(p.family) ? `Node (\`${p.handler}\`)` : 'file in `dist/client`';
  const extra = Object.keys(p.headers ?? {}).filter((h) => h !== 'X-Content-Type-Options');
  const type = p.family === 'page' || p.family === 'asset' || p.family === 'dump' ? 'by file extension' : `\`${p.contentType}\``;
  return `| ${code(p.logName.replace(/^POST /, ''))} | ${p.methods.join(', ')} | ${answered} | ${type} | \`${p.cacheControl}\` | ${p.rateLimited ? 'counted' : 'exempt'} | ${extra.length === 0 ? '—' : extra.map((h) => `\`${h}\``).join(', ')} |`;
}

/** The route table in Markdown, between its markers. */
export function routeTableMarkdown(): string {
  return [
    ROUTE_TABLE_START,
    '| Route | Methods | Answered by | Content-Type | Cache-Control | Rate limit | Further headers |',
    '|---|---|---|---|---|---|---|',
    ...Object.values(POLICIES).map(row),
    ROUTE_TABLE_END,
  ].join('\n');
}

/** `text` with its route table replaced by the current one; null when it has no markers. */
export function withRouteTable(text: string): string | null {
  const start = text.indexOf(ROUTE_TABLE_START);
  const end = text.indexOf(ROUTE_TABLE_END);
  if (start < 0 || end < start) return null;
  return text.slice(0, start) + routeTableMarkdown() + text.slice(end + ROUTE_TABLE_END.length);
}
