// The OpenAPI document's operation of the MCP route: the MCP server over streamable HTTP
// (src/server/mcp-http.ts), its JSON-RPC answers and the server's own refusals.
import { paths } from '../routes/paths.ts';
import type { Json } from './components.ts';
import { sharedResponses } from './responses.ts';
import { jsonError, type OperationSpec, RATE_HEADERS, ref } from './shapes.ts';

const RPC_SCHEMA = {
  type: 'object',
  required: ['jsonrpc', 'error', 'id'],
  properties: { jsonrpc: { const: '2.0' }, error: { type: 'object', required: ['code', 'message'] }, id: { type: ['string', 'number', 'null'] } },
};

/**
 * A JSON-RPC error answer; `server`: or the server's JSON error body, for what is refused before
 * the MCP handler (a missing Host, a request Node cannot parse or a slow head, load shed).
 */
function rpcError(description: string, server = false, headers?: Json): Json {
  return {
    description,
    ...(headers === undefined ? {} : { headers }),
    content: { 'application/json': { schema: server ? { oneOf: [RPC_SCHEMA, ref('ErrorBody')] } : RPC_SCHEMA } },
  };
}

/** The MCP route's operation: never cached (no 304), counted like the list route. */
export const mcpOperation: OperationSpec = (policy) => {
  const { '304': _notModified, ...neverCached } = sharedResponses();
  return {
    summary: 'The registry as an MCP server, for AI assistants',
    description:
      'Model Context Protocol over streamable HTTP, stateless and read-only: JSON-RPC 2.0 requests (`initialize`, `tools/list`, `tools/call`) answered as JSON. Tools: `search_games` (the list semantics), `get_game`, `identify_build`, `operator_build` (which build a licensed casino runs for a game, as its catalogue showed on the date its source was pinned), `list_providers`, `registry_info`; every result carries `data_version`, the licence and, per game, `source_url`. ' +
      'Bodies up to 64 KiB. Rate limited like the list route; never cached. The same server runs over stdio with `npm run mcp`.',
    tags: ['mcp'],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 request or notification (MCP).' } } },
    },
    responses: {
      ...neverCached,
      '200': {
        description: 'The JSON-RPC response (an array for a batch).',
        ...(policy.rateLimited ? { headers: RATE_HEADERS } : {}),
        content: { 'application/json': { schema: { type: ['object', 'array'] } } },
      },
      '202': { description: 'A notification was accepted (no body).' },
      '400': rpcError(
        'The body is not JSON (code -32700), not a valid MCP request or batch, or names an unsupported `MCP-Protocol-Version`; or the request has no `Host` header.',
        true,
      ),
      '405': jsonError(`Only POST (and OPTIONS) are answered on ${paths.mcp}.`, { statusCode: 405, statusMessage: 'method not allowed' }),
      '406': rpcError('The `Accept` header does not allow `application/json` (code -32600).'),
      '408': rpcError("The body did not arrive within `BODY_TIMEOUT_MS` (code -32600), or the head within the server's timeout.", true),
      '413': rpcError('The body is larger than 64 KiB (code -32600).'),
      '415': rpcError('The `Content-Type` is not `application/json` (code -32600).'),
      '503': rpcError(
        'Server busy (code -32002): `ERR_MCP_BUSY`, one MCP request at a time per connection, a bound on MCP requests in flight (counted once a whole body is read); `ERR_MCP_BODIES_BUSY`, a bound on request bodies being received from one client address and in all; or answers wait unread past `MAX_UNSENT_MB`.',
        true,
        { 'Retry-After': ref('Retry-After', 'headers') },
      ),
    },
  };
};
