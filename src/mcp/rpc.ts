// The JSON-RPC envelope of the MCP server, shared by POST /mcp and stdio: checks each message
// before the SDK sees it (batch size, the JSON-RPC shape, known methods and their params, each
// tool's arguments), meters every call against a budget, hands each call to one SDK server under
// an id of its own, and bounds the answer of each call and of each batch by bytes. Errors carry
// the JSON-RPC code of their kind and name the rule, never the value a client sent.

import { setImmediate as nextTurn } from 'node:timers/promises';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type Id, MCP_BATCH_ANSWER_BYTES, MCP_BATCH_MESSAGES, MCP_CALL_ANSWER_BYTES, RPC, type RpcErrorMessage, rpcError } from '../schemas/rpc.ts';
import { TOOL_INPUTS } from './server.ts';

/**
 * Meters one call against the caller's budget: null when it may run, else the error to answer
 * instead (src/server/mcp-http.ts gives one per request, over the rate limiter).
 */
export type Meter = () => RpcErrorMessage['error'] | null | Promise<RpcErrorMessage['error'] | null>;

/** The methods answered, with the SDK's schema of each request. */
const METHODS: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};
const TOOL_SCHEMAS = new Map<string, z.ZodType>(Object.entries(TOOL_INPUTS).map(([name, shape]) => [name, z.object(shape)]));
const MAX_METHOD = 128;
const MAX_ID = 256;
const MAX_ISSUES = 8;

/** `arguments.limit: Too big: …`: where each issue is and its rule, never the value (zod's messages name types and bounds only). */
function describeIssues(error: z.ZodError, prefix: string): string {
  const parts = error.issues.slice(0, MAX_ISSUES).map((issue) => {
    const at = [prefix, ...issue.path.map((p) => String(p).slice(0, 64))].filter((p) => p !== '').join('.');
    return `${at === '' ? '(message)' : at}: ${issue.message.slice(0, 200)}`;
  });
  if (error.issues.length > MAX_ISSUES) parts.push(`and ${error.issues.length - MAX_ISSUES} more`);
  return parts.join('; ');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const validId = (v: unknown): v is string | number => (typeof v === 'string' && v.length <= MAX_ID) || (typeof v === 'number' && Number.isFinite(v));

/** What one message asks for: a call to pass on, an error to answer, or nothing (notifications, responses). */
type Checked = { kind: 'call'; id: string | number; message: Record<string, unknown> } | { kind: 'error'; answer: RpcErrorMessage } | { kind: 'none' };

/** Checks one message's envelope, method and params. */
export function checkMessage(message: unknown): Checked {
  if (!isObject(message)) return { kind: 'error', answer: rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: each message must be a JSON object') };
  const hasId = 'id' in message;
  const id = hasId && validId(message.id) ? message.id : null;
  const invalid = (rule: string): Checked => ({ kind: 'error', answer: rpcError(id, RPC.INVALID_REQUEST, `Invalid Request: ${rule}`) });
  if (message.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"');
  if (hasId && id === null && message.id !== null) return invalid(`"id" must be a string of at most ${MAX_ID} characters or a number`);
  // A response from the client: this server sends no requests, so none is owed anything.
  if (!('method' in message) && ('result' in message || 'error' in message)) return { kind: 'none' };
  if (typeof message.method !== 'string' || message.method.length === 0 || message.method.length > MAX_METHOD)
    return invalid(`"method" must be a string of 1 to ${MAX_METHOD} characters`);
  if ('params' in message && !isObject(message.params) && !Array.isArray(message.params)) return invalid('"params" must be an object');
  // Notifications (initialized, cancelled) change nothing on a stateless, read-only server.
  if (!hasId) return { kind: 'none' };
  if (id === null) return invalid('"id" must not be null');
  const schema = METHODS[message.method];
  if (schema === undefined)
    return { kind: 'error', answer: rpcError(id, RPC.METHOD_NOT_FOUND, `Method not found: this server answers ${Object.keys(METHODS).join(', ')}`) };
  const parsed = schema.safeParse(message);
  if (!parsed.success) return { kind: 'error', answer: rpcError(id, RPC.INVALID_PARAMS, `Invalid params: ${describeIssues(parsed.error, '')}`) };
  if (message.method === 'tools/call') {
    const params = message.params as { name: string; arguments?: unknown };
    const tool = TOOL_SCHEMAS.get(params.name);
    if (tool === undefined)
      return {
        kind: 'error',
        answer: rpcError(id, RPC.INVALID_PARAMS, `Invalid params: params.name is not a tool of this server (${[...TOOL_SCHEMAS.keys()].join(', ')})`),
      };
    const args = tool.safeParse(params.arguments ?? {});
    if (!args.success) return { kind: 'error', answer: rpcError(id, RPC.INVALID_PARAMS, `Invalid params: ${describeIssues(args.error, 'params.arguments')}`) };
  }
  return { kind: 'call', id, message };
}

/**
 * A transport that is one end of a function call: each message is handed to the SDK server under
 * an id of this transport's own (so callers' ids never collide), and its answer comes back to the
 * caller under the caller's id.
 */
class CallTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private next = 0;
  private readonly waiting = new Map<number, (answer: JSONRPCMessage) => void>();

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || typeof message.id !== 'number') return;
    const done = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    done?.(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** The SDK server's answer to one checked request. */
  call(message: Record<string, unknown>): Promise<JSONRPCMessage> {
    const own = ++this.next;
    return new Promise((resolve) => {
      this.waiting.set(own, resolve);
      this.onmessage?.({ ...message, id: own } as JSONRPCMessage);
    });
  }
}

/** An answer as JSON text; `refused` when the request as a whole is not a valid JSON-RPC request (HTTP 400). */
export interface RpcAnswer {
  text: string;
  refused: boolean;
}

const refusal = (answer: RpcErrorMessage): RpcAnswer => ({ text: JSON.stringify(answer), refused: true });

/** Answers JSON-RPC messages (one, or a batch) for one MCP server. */
export class RpcDispatcher {
  private readonly transport = new CallTransport();
  private readonly ready: Promise<void>;

  constructor(server: McpServer) {
    this.ready = server.connect(this.transport);
  }

  /**
   * The answer to a parsed request body or line; null when nothing is owed (only notifications or
   * responses). `meter` is asked before each call runs.
   */
  async answer(parsed: unknown, meter?: Meter): Promise<RpcAnswer | null> {
    await this.ready;
    if (!Array.isArray(parsed)) {
      const one = await this.one(parsed, meter, MCP_BATCH_ANSWER_BYTES);
      return one === null ? null : { text: one.text, refused: one.refused };
    }
    if (parsed.length === 0) return refusal(rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: an empty batch'));
    if (parsed.length > MCP_BATCH_MESSAGES) {
      return refusal(
        rpcError(null, RPC.INVALID_REQUEST, `Invalid Request: a batch holds at most ${MCP_BATCH_MESSAGES} messages`, {
          code: 'ERR_MCP_BATCH_TOO_LONG',
          max_messages: MCP_BATCH_MESSAGES,
        }),
      );
    }
    const ids = new Set<string | number>();
    const texts: string[] = [];
    let left = MCP_BATCH_ANSWER_BYTES;
    // One call after another: a batch never holds more than its byte cap of answers at once, and
    // other requests are served between its calls (each call is a turn of the event loop).
    for (const [k, message] of parsed.entries()) {
      if (k > 0) await nextTurn();
      const id = isObject(message) && validId(message.id) ? message.id : null;
      if (id !== null && ids.has(id)) {
        texts.push(JSON.stringify(rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: an id repeated within one batch')));
        continue;
      }
      if (id !== null) ids.add(id);
      const one = await this.one(message, meter, left);
      if (one === null) continue;
      texts.push(one.text);
      left -= one.bytes;
    }
    return texts.length === 0 ? null : { text: `[${texts.join(',')}]`, refused: false };
  }

  /** One message's answer within `left` bytes of its batch. */
  private async one(message: unknown, meter: Meter | undefined, left: number): Promise<{ text: string; bytes: number; refused: boolean } | null> {
    const checked = checkMessage(message);
    if (checked.kind === 'none') return null;
    const refused = checked.kind === 'error' && checked.answer.error.code === RPC.INVALID_REQUEST;
    const text = checked.kind === 'error' ? JSON.stringify(checked.answer) : await this.run(checked.id, checked.message, meter, left);
    return { text, bytes: Buffer.byteLength(text), refused };
  }

  private async run(id: string | number, message: Record<string, unknown>, meter: Meter | undefined, left: number): Promise<string> {
    if (left <= 0) return JSON.stringify(batchTooLarge(id));
    const refused = meter === undefined ? null : await meter();
    if (refused !== null) return JSON.stringify({ jsonrpc: '2.0', id, error: refused });
    const answer = await this.transport.call(message);
    const text = JSON.stringify(
      'error' in answer ? { jsonrpc: '2.0', id, error: answer.error } : { jsonrpc: '2.0', id, result: 'result' in answer ? answer.result : null },
    );
    const bytes = Buffer.byteLength(text);
    if (bytes > MCP_CALL_ANSWER_BYTES) {
      return JSON.stringify(
        rpcError(id, RPC.ANSWER_TOO_LARGE, `answer larger than ${MCP_CALL_ANSWER_BYTES} bytes, the cap per call: ask for fewer games (limit)`, {
          code: 'ERR_MCP_ANSWER_TOO_LARGE',
          max_bytes: MCP_CALL_ANSWER_BYTES,
        }),
      );
    }
    return bytes > left ? JSON.stringify(batchTooLarge(id)) : text;
  }
}

function batchTooLarge(id: Id): RpcErrorMessage {
  return rpcError(id, RPC.ANSWER_TOO_LARGE, `the batch's answers passed ${MCP_BATCH_ANSWER_BYTES} bytes, the cap per batch: send this call in another batch`, {
    code: 'ERR_MCP_BATCH_ANSWER_TOO_LARGE',
    max_bytes: MCP_BATCH_ANSWER_BYTES,
  });
}

/** Parses a request body or line: the message, or the -32700 answer. */
export function parseMessage(text: string): { ok: true; value: unknown } | { ok: false; answer: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, answer: JSON.stringify(rpcError(null, RPC.PARSE_ERROR, 'Parse error: the message is not JSON')) };
  }
}
