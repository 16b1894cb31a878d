// POST /mcp: the MCP server (src/mcp/server.ts) over streamable HTTP, stateless (one server and
// transport per request, JSON answers, no sessions or SSE streams), read-only. The body is bounded
// by bytes (MCP_BODY_BYTES) and parsed here; the request timeout of the server bounds its time.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RegistryServices } from '../list/service.ts';
import { createMcpServer } from '../mcp/server.ts';
import type { McpHandler } from './app.ts';

/** Largest JSON-RPC request body accepted (a tool call is a few hundred bytes). */
export const MCP_BODY_BYTES = 64 * 1024;

/** A JSON-RPC error answer (JSON-RPC 2.0 §5.1 codes) with the status the MCP transport spec gives it. */
function rpcError(res: ServerResponse, status: number, code: number, message: string, extra: string[] | null): void {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
  res.writeHead(status, ['Content-Type', 'application/json; charset=utf-8', 'Cache-Control', 'no-store', 'Access-Control-Allow-Origin', '*', 'X-Content-Type-Options', 'nosniff', ...(extra ?? []), 'Content-Length', String(body.length)]);
  res.end(body);
}

/** Reads the request body up to `limit` bytes; null when it is larger (the rest is not read). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return resolve(null);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.pause();
        resolve(null);
      } else chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

/** The POST /mcp handler over one release's services; `extra` are the rate-limit headers of the request. */
export function createMcpHandler(services: RegistryServices, site: string): McpHandler {
  return async (req, res, extra) => {
    const body = await readBody(req, MCP_BODY_BYTES);
    if (body === null) {
      rpcError(res, 413, -32600, `request body larger than ${MCP_BODY_BYTES} bytes`, extra);
      // The unread rest of the body is not waited for.
      res.once('finish', () => req.destroy());
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      return rpcError(res, 400, -32700, 'Parse error: the body is not JSON', extra);
    }
    const server = createMcpServer(services, site);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    for (let k = 0; extra !== null && k + 1 < extra.length; k += 2) res.setHeader(extra[k]!, extra[k + 1]!);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Access-Control-Allow-Origin', '*');
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
  };
}
