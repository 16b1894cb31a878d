// Public schema of the MCP route's JSON-RPC 2.0 error answers, with its codes and size limits: the
// server (src/mcp/rpc.ts, src/server/mcp-http.ts) and the route table, which the edge's nginx.conf
// reads (src/routes/routes.ts, src/emit/nginx.ts), answer with the same bytes.
import { z } from 'zod';

/** Most messages in one batch. */
export const MCP_BATCH_MESSAGES = 20;
/** Largest answer of one call, and of one batch (its answers joined), in bytes. */
export const MCP_CALL_ANSWER_BYTES = 256 * 1024;
export const MCP_BATCH_ANSWER_BYTES = 1024 * 1024;
/** Largest request: a POST /mcp body, or one line on stdio (a tool call is a few hundred bytes). */
export const MCP_MESSAGE_BYTES = 64 * 1024;

/** JSON-RPC 2.0 error codes (§5.1), and the server-defined ones (-32000 to -32099) this server uses. */
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  RATE_LIMITED: -32000,
  ANSWER_TOO_LARGE: -32001,
  BUSY: -32002,
} as const;

/** Extra facts of an error: a stable code (`ERR_MCP_*`) and figures a client can act on. */
const ErrorDataSchema = z.intersection(z.object({ code: z.string() }), z.record(z.string(), z.union([z.string(), z.number()])));
export type ErrorData = z.output<typeof ErrorDataSchema>;
const IdSchema = z.union([z.string(), z.number(), z.null()]);
export type Id = z.output<typeof IdSchema>;

/** A JSON-RPC 2.0 error answer (§5, §5.1). */
export const RpcErrorMessageSchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  id: IdSchema,
  error: z.strictObject({ code: z.int(), message: z.string(), data: ErrorDataSchema.optional() }),
});
export type RpcErrorMessage = z.output<typeof RpcErrorMessageSchema>;

/** A JSON-RPC error answer. */
export function rpcError(id: Id, code: number, message: string, data?: ErrorData): RpcErrorMessage {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** The answer to a `POST /mcp` body larger than MCP_MESSAGE_BYTES (a 413), from an instance or the edge. */
export function bodyTooLarge(): RpcErrorMessage {
  return rpcError(null, RPC.INVALID_REQUEST, `request body larger than ${MCP_MESSAGE_BYTES} bytes`);
}
