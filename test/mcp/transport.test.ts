// The /mcp door with a real SDK Client over HTTP: sessions, reply modes, auth, Origin,
// protocol errors and tool errors. The tools here are test doubles of the transport's
// contract; the real tools are tested in test/mcp/tools*.test.ts.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { testTool } from '../helpers/mcp.ts';
import { NotFoundError } from '../../src/errors.ts';
import { MAX_RESULT_CHARS } from '../../src/mcp/results.ts';
import { revokeApiKey } from '../../src/auth/api-keys.ts';

const tools = [
  testTool({
    name: 'echo_page',
    title: 'Echo',
    description: 'Echoes its arguments as a page.',
    input: z.object({ word: z.string().min(1), page: z.number().int().min(0).default(0) }),
    aliases: ['EchoPage'],
    run: async (args, ctx) => ({ totalPages: 1, totalElements: 1, content: [{ word: args.word, page: args.page, client: ctx.principal.clientId }] }),
  }),
  testTool({
    name: 'always_missing',
    title: 'Missing',
    description: 'Always fails with a 404.',
    input: z.object({}),
    run: async () => {
      throw new NotFoundError("Company 'nope.example' not found");
    },
  }),
  testTool({
    name: 'ai_thing',
    title: 'AI thing',
    description: 'Needs the ai permission and an on-behalf user.',
    input: z.object({}),
    permission: 'ai',
    run: async (_args, ctx) => ({ onBehalfOf: ctx.onBehalfOf }),
  }),
  testTool({
    name: 'huge',
    title: 'Huge',
    description: 'Returns more than fits in one result.',
    input: z.object({}),
    run: async () => Array.from({ length: 5000 }, (_, i) => ({ i, pad: 'x'.repeat(40) })),
  }),
];

let t: TestApp;
let base: string;
let full: TestClient;
let basic: TestClient;

async function connect(key: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-api-key': key, ...headers } } });
  await client.connect(transport);
  return { client, transport };
}

const rawPost = (body: unknown, headers: Record<string, string>) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const initBody = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

for (const mode of ['sse', 'json'] as const) {
  describe(`reply mode ${mode}`, () => {
    before(async () => {
      t = await createTestApp({ mcpTools: tools, env: { MCP_RESPONSE_MODE: mode, MCP_TOOL_LIST: 'all' } });
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      full = await createTestClient(t.db, 'full');
      basic = await createTestClient(t.db, 'basic');
    });
    after(() => t.close());

    test('SDK client: initialize, list tools with schemas, call a tool, alias', async () => {
      const { client, transport } = await connect(full.apiKey);
      assert.ok(transport.sessionId, 'the server issued a session id');
      const { tools: listed } = await client.listTools();
      assert.deepEqual(
        listed.map((x) => x.name),
        ['echo_page', 'always_missing', 'ai_thing', 'huge'],
      );
      const echo = listed[0]!;
      assert.deepEqual(echo.inputSchema.required, ['word']);
      assert.ok(!('onBehalfOfUser' in (echo.inputSchema.properties ?? {})), 'only attributed tools take onBehalfOfUser');
      assert.ok('onBehalfOfUser' in (listed[2]!.inputSchema.properties ?? {}));
      const res = await client.callTool({ name: 'echo_page', arguments: { word: 'hi' } });
      assert.deepEqual(JSON.parse((res.content as any)[0].text), {
        totalPages: 1,
        totalElements: 1,
        content: [{ word: 'hi', page: 0, client: full.clientId }],
      });
      assert.deepEqual((res.structuredContent as any).content[0].word, 'hi');
      const alias = await client.callTool({ name: 'EchoPage', arguments: { word: 'alias' } });
      assert.equal(JSON.parse((alias.content as any)[0].text).content[0].word, 'alias');
      await client.close();
    });

    test('reply content type follows the mode', async () => {
      const res = await rawPost(initBody, { 'x-api-key': full.apiKey });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, mode === 'json' ? /application\/json/ : /text\/event-stream/);
      assert.ok(res.headers.get('mcp-session-id'));
      const text = await res.text();
      assert.match(text, /"protocolVersion":"2024-11-05"/, 'the protocol version the client asked for is negotiated');
    });

    test('protocol errors are JSON-RPC errors; argument and domain errors are isError results', async () => {
      const { client } = await connect(full.apiKey);
      await assert.rejects(
        client.callTool({ name: 'no_such_tool', arguments: {} }),
        (e: any) => e.code === -32602 && e.message === "MCP error -32602: Unknown tool 'no_such_tool'. Call tools/list for the available tools.",
      );
      const empty = await client.callTool({ name: 'echo_page', arguments: { word: '' } });
      assert.equal(empty.isError, true);
      assert.match((empty.content as any)[0].text, /^Error 400: Invalid arguments for echo_page: word: /);
      const unknown = await client.callTool({ name: 'echo_page', arguments: { word: 'x', bogus: 1 } });
      assert.equal(unknown.isError, true);
      assert.match((unknown.content as any)[0].text, /^Error 400: Invalid arguments for echo_page: bogus: unknown argument \(echo_page takes word, page\)/);
      const missing = await client.callTool({ name: 'always_missing', arguments: {} });
      assert.equal(missing.isError, true);
      assert.match((missing.content as any)[0].text, /^Error 404: Company 'nope.example' not found\. .*companies_search/);
      await client.close();
    });

    test('permission and on-behalf rules apply to tools as on REST', async () => {
      const b = await connect(basic.apiKey);
      const denied = await b.client.callTool({ name: 'ai_thing', arguments: { onBehalfOfUser: 'a@b.co' } });
      assert.equal(denied.isError, true);
      assert.match((denied.content as any)[0].text, /Error 403: Permission 'ai' is required/);
      await b.client.close();
      const f = await connect(full.apiKey);
      const noUser = await f.client.callTool({ name: 'ai_thing', arguments: {} });
      assert.match((noUser.content as any)[0].text, /Error 403: .*onBehalfOfUser/);
      const badUser = await f.client.callTool({ name: 'ai_thing', arguments: { onBehalfOfUser: 'not-an-email' } });
      assert.match((badUser.content as any)[0].text, /Error 400: .*not a valid email/);
      const ok = await f.client.callTool({ name: 'ai_thing', arguments: { onBehalfOfUser: 'Ann@Example.com' } });
      assert.deepEqual(JSON.parse((ok.content as any)[0].text), { onBehalfOf: 'ann@example.com' });
      await f.client.close();
      const h = await connect(full.apiKey, { 'x-on-behalf-of-user': 'bob@example.com' });
      const viaHeader = await h.client.callTool({ name: 'ai_thing', arguments: {} });
      assert.deepEqual(JSON.parse((viaHeader.content as any)[0].text), { onBehalfOf: 'bob@example.com' });
      await h.client.close();
    });

    test('results are bounded with a continuation hint', async () => {
      const { client } = await connect(full.apiKey);
      const res = await client.callTool({ name: 'huge', arguments: {} });
      const text = (res.content as any)[0].text as string;
      assert.ok(text.length <= MAX_RESULT_CHARS + 500, `result is ${text.length} chars`);
      const body = JSON.parse(text);
      assert.equal(body.truncated, true);
      assert.ok(body.items.length > 100 && body.items.length < 5000);
      assert.match(body.note, /Call again with size=\d+/);
      await client.close();
    });

    test('session errors: missing 400, unknown 404, deleted 404, other client 403', async () => {
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
      const missing = await rawPost(call, { 'x-api-key': full.apiKey });
      assert.equal(missing.status, 400);
      assert.match(((await missing.json()) as any).error.message, /mcp-session-id header is required/);
      const unknown = await rawPost(call, { 'x-api-key': full.apiKey, 'mcp-session-id': 'no-such-session' });
      assert.equal(unknown.status, 404);

      const { client, transport } = await connect(full.apiKey);
      const sid = transport.sessionId!;
      const other = await rawPost(call, { 'x-api-key': basic.apiKey, 'mcp-session-id': sid });
      assert.equal(other.status, 403);
      await transport.terminateSession();
      const gone = await rawPost(call, { 'x-api-key': full.apiKey, 'mcp-session-id': sid });
      assert.equal(gone.status, 404);
      await client.close();
    });

    test('a key revoked mid-session is refused on its next request', async () => {
      const victim = await createTestClient(t.db, 'full');
      const init = await rawPost(initBody, { 'x-api-key': victim.apiKey });
      const sid = init.headers.get('mcp-session-id')!;
      await init.text();
      const call = { jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} };
      const before = await rawPost(call, { 'x-api-key': victim.apiKey, 'mcp-session-id': sid, 'mcp-protocol-version': '2024-11-05' });
      assert.equal(before.status, 200);
      await before.text();
      await revokeApiKey(t.db, victim.apiKey.split('_')[1]!);
      const after = await rawPost(call, { 'x-api-key': victim.apiKey, 'mcp-session-id': sid, 'mcp-protocol-version': '2024-11-05' });
      assert.equal(after.status, 401);
      assert.match(((await after.json()) as any).error.message, /revoked/);
    });

    test('a plain tools/call is answered directly, with what the SDK transport sends for the same call', async () => {
      // The SDK path serves a call that is not plain (here: an extra params member, which the
      // SDK ignores); the direct path serves the plain one (src/mcp/direct-call.ts callDirectly).
      const viaSdk = (call: { id: number; params: Record<string, unknown> }) => ({ ...call, params: { ...call.params, notPlain: true } });
      const calls = [
        { id: 7, params: { name: 'echo_page', arguments: { word: 'same' } } },
        { id: 8, params: { name: 'echo_page', arguments: { word: '' } } }, // isError: the argument named
        { id: 9, params: { name: 'always_missing', arguments: {}, _meta: { progressToken: 1 } } },
        { id: 10, params: { name: 'no_such_tool' } }, // a JSON-RPC error, -32602
      ];
      const events = (text: string) =>
        text
          .split('\n\n')
          .filter(Boolean)
          .map((e) => Object.fromEntries(e.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()])));
      for (const version of ['2025-11-25', '2025-06-18']) {
        const init = await rawPost({ ...initBody, params: { ...initBody.params, protocolVersion: version } }, { 'x-api-key': full.apiKey });
        const headers = { 'x-api-key': full.apiKey, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': version };
        await init.text();
        for (const call of calls) {
          const answers = [];
          for (const body of [
            { jsonrpc: '2.0', method: 'tools/call', ...call },
            { jsonrpc: '2.0', method: 'tools/call', ...viaSdk(call) },
          ]) {
            const res = await rawPost(body, headers);
            const text = await res.text();
            answers.push({ status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), text });
          }
          const [direct, sdk] = answers;
          const what = `${version} ${call.params.name} (${mode})`;
          assert.equal(direct!.status, sdk!.status, what);
          assert.equal(direct!.type, sdk!.type, what);
          if (mode === 'json') {
            assert.deepEqual(JSON.parse(direct!.text), JSON.parse(sdk!.text), what);
            continue;
          }
          assert.equal(direct!.cache, sdk!.cache, what);
          const [d, k] = [events(direct!.text), events(sdk!.text)];
          assert.deepEqual(
            d.map((e) => Object.keys(e)),
            k.map((e) => Object.keys(e)),
            `${what}: the same events and fields`,
          );
          assert.equal(d.length, version >= '2025-11-25' ? 2 : 1, `${what}: a priming event from 2025-11-25 on`);
          if (d.length === 2) assert.equal(d[0]!.retry, k[0]!.retry, what);
          const message = d.at(-1)!;
          assert.equal(message.event, 'message');
          assert.match(message.id!, new RegExp(`^[0-9a-f-]{36}\\.${d.length - 1}$`), `${what}: the event id numbers the stream's events`);
          assert.deepEqual(JSON.parse(message.data!), JSON.parse(k.at(-1)!.data!), `${what}: the same JSON-RPC response`);
        }
      }
    });

    test('auth on every request, Origin allow-list, parse errors', async () => {
      const none = await rawPost(initBody, {});
      assert.equal(none.status, 401);
      // No credentials: no error code (RFC 6750 §3.1), and where the metadata is (RFC 9728); more in test/auth/mcp-authorization.test.ts.
      assert.equal(none.headers.get('www-authenticate'), 'Bearer resource_metadata="http://stacklens.test/.well-known/oauth-protected-resource/mcp"');
      const wrong = await rawPost(initBody, { 'x-api-key': 'sl_wrong' });
      assert.equal(wrong.status, 401);
      const foreign = await rawPost(initBody, { 'x-api-key': full.apiKey, origin: 'https://evil.example' });
      assert.equal(foreign.status, 403);
      assert.match(((await foreign.json()) as any).message, /Origin/, 'in the service error shape (test/mcp/transport-security.test.ts)');
      const own = await rawPost(initBody, { 'x-api-key': full.apiKey, origin: 'http://stacklens.test' });
      assert.equal(own.status, 200);
      await own.text();
      const garbled = await rawPost('{"jsonrpc":', { 'x-api-key': full.apiKey });
      assert.equal(garbled.status, 400);
      assert.equal(((await garbled.json()) as any).error.code, -32700);
      const notRpc = await rawPost('42', { 'x-api-key': full.apiKey });
      assert.equal(((await notRpc.json()) as any).error.code, -32600);
      const init = await rawPost(initBody, { 'x-api-key': full.apiKey });
      const sid = init.headers.get('mcp-session-id')!;
      await init.text();
      const unknownMethod = await rawPost(
        { jsonrpc: '2.0', id: 9, method: 'no/such', params: {} },
        { 'x-api-key': full.apiKey, 'mcp-session-id': sid, 'mcp-protocol-version': '2024-11-05' },
      );
      assert.match(await unknownMethod.text(), /"code":-32601/);
    });
  });
}
