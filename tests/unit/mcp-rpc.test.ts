// The JSON-RPC envelope of the MCP server (src/mcp/rpc.ts) on the shipped registry: what each
// message is checked for, the codes of each refusal, batches answered in order one call at a time,
// the meter asked before each call, and the byte caps of a call and of a batch.
import { beforeAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { checkMessage, parseMessage, RpcDispatcher } from '../../src/mcp/rpc.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { MCP_BATCH_ANSWER_BYTES, MCP_BATCH_MESSAGES, RPC } from '../../src/schemas/rpc.ts';
import { shippedBundle } from '../helpers/shipped.ts';

let dispatcher: RpcDispatcher;
beforeAll(async () => {
  const bundle = shippedBundle();
  dispatcher = new RpcDispatcher(createMcpServer(servicesFor(bundle), 'https://rtp.example.org'));
});

const call = (id: number | string, name: string, args: unknown = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
type Answer = { id: unknown; result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } };
const answerOf = async (message: unknown, meter?: Parameters<RpcDispatcher['answer']>[1]) => {
  const a = await dispatcher.answer(message, meter);
  return a === null ? null : { refused: a.refused, value: JSON.parse(a.text) as Answer | Answer[] };
};

describe('checkMessage', () => {
  it.each([
    ['not an object', 42, -32600, 'Invalid Request: each message must be a JSON object'],
    ['no jsonrpc', { id: 1, method: 'ping' }, -32600, 'Invalid Request: "jsonrpc" must be "2.0"'],
    ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, -32600, 'Invalid Request: "id" must be a string of at most 256 characters or a number'],
    ['a long method', { jsonrpc: '2.0', id: 1, method: 'm'.repeat(129) }, -32600, 'Invalid Request: "method" must be a string of 1 to 128 characters'],
    ['scalar params', { jsonrpc: '2.0', id: 1, method: 'ping', params: 3 }, -32600, 'Invalid Request: "params" must be an object'],
    [
      'an unknown method',
      { jsonrpc: '2.0', id: 1, method: 'resources/list' },
      -32601,
      'Method not found: this server answers initialize, ping, tools/list, tools/call',
    ],
    [
      'an unknown tool',
      call(1, 'drop_tables'),
      -32602,
      'Invalid params: params.name is not a tool of this server (search_games, get_game, identify_build, operator_build, list_providers, registry_info)',
    ],
    ['a bad argument', call(1, 'search_games', { limit: 51 }), -32602, 'Invalid params: params.arguments.limit: Too big: expected number to be <=50'],
    [
      'a name of the wrong type',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5 } },
      -32602,
      'Invalid params: params.name: Invalid input: expected string, received number',
    ],
  ])('%s: %i', (_what, message, code, text) => {
    const checked = checkMessage(message);
    expect(checked.kind).toBe('error');
    if (checked.kind === 'error') expect(checked.answer.error).toEqual({ code, message: text });
  });

  it('passes calls, and owes nothing to notifications and responses', () => {
    expect(checkMessage(call(1, 'registry_info')).kind).toBe('call');
    expect(checkMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }).kind).toBe('none');
    expect(checkMessage({ jsonrpc: '2.0', id: 3, result: {} }).kind).toBe('none');
  });

  it('never repeats what the client sent', () => {
    const junk = `<script>${'A'.repeat(5000)}`;
    for (const m of [call(1, junk), call(1, 'search_games', { [junk]: 1, sort: junk }), { jsonrpc: '2.0', id: 1, method: junk.slice(0, 100) }]) {
      const checked = checkMessage(m);
      expect(checked.kind).toBe('error');
      if (checked.kind === 'error') expect(checked.answer.error.message).not.toContain('<script>');
    }
  });

  it('parseMessage answers text that is not JSON with -32700', () => {
    expect(parseMessage('{')).toEqual({
      ok: false,
      answer: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not JSON"}}',
    });
  });
});

describe('RpcDispatcher', () => {
  it('answers a batch in order under the callers ids, one refusal per bad message', async () => {
    const a = await answerOf([
      call('a', 'registry_info'),
      call(7, 'nope'),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      call('a', 'registry_info'),
      { jsonrpc: '2.0', id: 8, method: 'ping' },
    ]);
    const list = a!.value as Answer[];
    expect(a!.refused).toBe(false);
    expect(list.map((x) => x.id)).toEqual(['a', 7, 'a', 8]);
    expect(list[0]!.result).toBeDefined();
    expect(list[1]!.error!.code).toBe(RPC.INVALID_PARAMS);
    expect(list[2]!.error).toEqual({ code: -32600, message: 'Invalid Request: an id repeated within one batch' });
    expect(list[3]!.result).toEqual({});
  });

  it('refuses an empty batch and one past the cap whole', async () => {
    expect(await answerOf([])).toEqual({
      refused: true,
      value: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } },
    });
    const long = await answerOf(Array.from({ length: MCP_BATCH_MESSAGES + 1 }, (_, k) => call(k, 'registry_info')));
    expect(long!.refused).toBe(true);
    expect((long!.value as Answer).error!.data).toEqual({ code: 'ERR_MCP_BATCH_TOO_LONG', max_messages: MCP_BATCH_MESSAGES });
  });

  it('asks the meter before each call and answers its refusal instead', async () => {
    let left = 2;
    const meter = () => (left-- > 0 ? null : { code: RPC.RATE_LIMITED, message: 'rate limit exceeded', data: { code: 'ERR_MCP_RATE_LIMITED', limit: 2 } });
    const list = (await answerOf([call(1, 'registry_info'), call(2, 'registry_info'), call(3, 'registry_info'), call(4, 'nope')], meter))!.value as Answer[];
    expect(list.map((x) => (x.result === undefined ? x.error!.code : 'ok'))).toEqual(['ok', 'ok', RPC.RATE_LIMITED, RPC.INVALID_PARAMS]);
  });

  it('keeps a batch within its byte cap: calls past it are answered -32001 and not run', async () => {
    const list = (await answerOf(Array.from({ length: MCP_BATCH_MESSAGES }, (_, k) => call(k, 'search_games', { limit: 50, offset: k * 50 }))))!
      .value as Answer[];
    const text = JSON.stringify(list);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MCP_BATCH_ANSWER_BYTES + MCP_BATCH_MESSAGES * 400);
    const past = list.filter((x) => x.error !== undefined);
    expect(past.length).toBeGreaterThan(0);
    for (const x of past)
      expect(x.error).toMatchObject({ code: RPC.ANSWER_TOO_LARGE, data: { code: 'ERR_MCP_BATCH_ANSWER_TOO_LARGE', max_bytes: MCP_BATCH_ANSWER_BYTES } });
    // Once past, every later call is refused too: answers stay in order, none after the cap is run.
    const first = list.findIndex((x) => x.error !== undefined);
    expect(list.slice(first).every((x) => x.error !== undefined)).toBe(true);
  });
});
