// The MCP protocol surface with the real tools, through the SDK client: each supported
// revision negotiated (in memory and over HTTP), structuredContent valid against every
// tool's outputSchema (Ajv, draft-07, as SDK clients check it) in both detail forms,
// argument errors and not-found as isError results, resource links readable through
// resources/read, resources, prompts, and the size of tools/list.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient } from '../helpers/auth.ts';
import { answerOf, connectMcp, listAllTools } from '../helpers/mcp.ts';
import { CORE_TOOLS } from '../../src/mcp/toolsets.ts';
import { seedMcpWorld } from '../helpers/mcp-world.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { allTools } from '../../src/mcp/tools/index.ts';
import { findClient } from '../../src/store/access.ts';
import { VERSION } from '../../src/version.ts';

let t: TestApp;
let world: Awaited<ReturnType<typeof seedMcpWorld>>;
let base: string;
let site: http.Server;
before(async () => {
  // detect_technologies fetches a site: a local one, which this deployment allows.
  site = http.createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<meta name="generator" content="WordPress 6.5.2">'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({ env: { DETECT_ALLOW_PRIVATE_NETWORKS: 'true' } });
  world = await seedMcpWorld(t.db);
  world.calls.push(['detect_technologies', { url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/` }]);
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await t.close();
  await new Promise((resolve) => site.close(resolve));
});

/** A client transport that asks for an older revision in initialize (the SDK client always asks for the newest). */
function asking<T extends Transport>(transport: T, revision: string): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { method?: string; params?: { protocolVersion?: string } };
    return send(m.method === 'initialize' ? ({ ...m, params: { ...m.params, protocolVersion: revision } } as unknown as typeof message) : message, options);
  };
  return transport;
}

async function inMemoryClient(revision: string) {
  const tc = await createTestClient(t.db, 'full', 10);
  const c = (await findClient(t.db, tc.clientId))!;
  const server = createMcpServer(allTools, { db: t.db, config: t.config, principal: { clientId: c.id, clientName: c.name, plan: c.plan, via: 'api_key' } });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'revision-test', version: '1' });
  await client.connect(asking(b, revision));
  return client;
}

async function httpClient(revision: string) {
  const tc = await createTestClient(t.db, 'full', 10);
  const client = new Client({ name: 'revision-test', version: '1' });
  const transport = asking(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-api-key': tc.apiKey } } }), revision);
  await client.connect(transport);
  return client;
}

describe('each supported revision is negotiated and served in its own dialect', () => {
  for (const [door, connect] of [
    ['in memory', inMemoryClient],
    ['HTTP', httpClient],
  ] as const) {
    for (const revision of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      test(`${door}: ${revision}`, async () => {
        const client = await connect(revision);
        try {
          assert.equal(client.getServerVersion()?.version, VERSION, "the server version is package.json's");
          const res = await client.request(
            { method: 'tools/call', params: { name: 'company_cohort', arguments: { companyDomain: world.company, cohort: 'Default' } } },
            CallToolResultSchema,
          );
          const text = (res.content[0] as { text: string }).text;
          assert.ok(res.structuredContent, 'structuredContent for every revision (extra fields are allowed in older ones)');
          if (revision >= '2025-06-18') {
            assert.match(text, /^\d+ of \d+ members in the default cohort of /, 'a summary, not the data again');
            assert.ok(!text.includes('"items"'));
          } else {
            const json = text.slice(text.indexOf('\n') + 1);
            assert.deepEqual(JSON.parse(json), res.structuredContent, 'a client that reads only text gets the data as JSON');
          }
        } finally {
          await client.close();
        }
      });
    }
  }
  test('the negotiated revision is the one asked for', async () => {
    for (const revision of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      const raw = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': (await createTestClient(t.db, 'full')).apiKey,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      assert.match(await raw.text(), new RegExp(`"protocolVersion":"${revision}"`));
    }
  });
});

test('every tool declares an outputSchema, and its structuredContent validates against it (compact and full)', async () => {
  const { client } = await connectMcp(t, 'full', 100, undefined, undefined, 'all');
  const { tools } = await client.listTools();
  const ajv = new Ajv({ strict: false });
  const validators = new Map(
    tools.map((tool) => {
      assert.ok(tool.outputSchema, `${tool.name} has an outputSchema`);
      assert.equal(tool.outputSchema.type, 'object');
      return [tool.name, ajv.compile(tool.outputSchema)];
    }),
  );
  const called = new Set<string>();
  // An argument "$tool.field" is that field of an earlier call's answer (lists_get reads the id lists_upload made).
  const answers = new Map<string, Record<string, unknown>>();
  const resolved = (args: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(args).map(([k, v]) => {
        const ref = typeof v === 'string' ? /^\$(\w+)\.(\w+)$/u.exec(v) : null;
        return [k, ref ? answers.get(ref[1]!)?.[ref[2]!] : v];
      }),
    );
  for (const [name, given] of world.calls) {
    const args = resolved(given);
    const takesDetail = 'detail' in ((tools.find((x) => x.name === name)!.inputSchema.properties ?? {}) as object);
    for (const extra of takesDetail ? [{}, { detail: 'full' }] : [{}]) {
      // The SDK client checks structuredContent against the outputSchema itself: a mismatch would reject.
      const res = answerOf((await client.callTool({ name, arguments: { ...args, ...extra } })) as never);
      assert.equal(res.isError, false, `${name} ${JSON.stringify(extra)}: ${res.text}`);
      const validate = validators.get(name)!;
      assert.ok(validate(res.json()), `${name}: ${ajv.errorsText(validate.errors)}`);
      assert.ok(res.text.length < 1000, `${name}: the text is a summary (${res.text.length} chars)`);
      answers.set(name, res.json());
      called.add(name);
    }
  }
  assert.deepEqual([...called].sort(), tools.map((x) => x.name).sort(), 'every tool was called');
});

test('lookup: the summary names the best matches that fit and counts the rest, which are all in structuredContent', async () => {
  const { client } = await connectMcp(t, 'full', 100, undefined, undefined, 'all');
  const res = answerOf((await client.callTool({ name: 'lookup', arguments: { q: 'a', size: 20 } })) as never);
  const { matches } = res.json() as { matches: { id: string }[] };
  const lines = res.text.split('\n').slice(1);
  const more = /^… and (\d+) more in the structured result\.$/u.exec(lines.at(-1) ?? '');
  assert.ok(more, `a broad lookup leaves matches out of its summary: ${res.text}`);
  assert.equal(lines.length - 1 + Number(more[1]), matches.length);
  assert.ok(res.text.length < 1000, `the text is a summary (${res.text.length} chars)`);
  lines.slice(0, -1).forEach((line, i) => assert.ok(line.endsWith(`: ${matches[i]!.id}`) || line.includes(`: ${matches[i]!.id} (`), line));
});

test('annotations and titles come from the operation records', async () => {
  const { client } = await connectMcp(t, 'basic', undefined, undefined, undefined, 'all');
  const { tools } = await client.listTools();
  for (const tool of tools) {
    const def = allTools.find((d) => d.name === tool.name)!;
    assert.equal(tool.title, def.operation.mcp!.title);
    assert.equal(tool.annotations?.readOnlyHint, def.operation.readOnly, tool.name);
    assert.equal(tool.annotations?.openWorldHint, false);
    if (!def.operation.readOnly) {
      assert.equal(tool.annotations?.destructiveHint, false);
      assert.equal(tool.annotations?.idempotentHint, def.operation.idempotent ?? false);
    }
  }
});

// The short list (the specification's tools, lookup, submit_feedback and more_tools) keeps a
// model's context small; more_tools describes and calls the rest (progressive disclosure).
test('tools/list answers the short list within 25 KB; more_tools lists, describes and calls the others', async () => {
  const { client, call } = await connectMcp(t, 'basic');
  const listed = await client.listTools();
  const size = Buffer.byteLength(JSON.stringify(listed));
  assert.ok(size <= 25_000, `tools/list is ${size} bytes`);
  const names = listed.tools.map((x) => x.name);
  assert.deepEqual(names.filter((n) => n !== 'more_tools').sort(), [...CORE_TOOLS].sort());
  assert.ok(names.includes('more_tools'));
  const all = (await listAllTools(t, 'basic')).tools;
  assert.ok(all.length > names.length && !all.some((x) => x.name === 'more_tools'), 'the whole list has every tool and no more_tools');

  const more = await call('more_tools', {});
  assert.equal(more.isError, false, more.text);
  const others = more
    .json()
    .tools.map((x: { name: string }) => x.name)
    .sort();
  assert.deepEqual(
    others,
    all
      .map((x) => x.name)
      .filter((n) => !CORE_TOOLS.has(n))
      .sort(),
    'more_tools lists exactly the tools not listed',
  );
  assert.match(more.text, /^\d+ more tools .*\nenrich_companies: /s);

  const described = await call('more_tools', { describe: 'find_lookalikes' });
  assert.deepEqual(
    described.json().tool,
    all.find((x) => x.name === 'find_lookalikes'),
    'describe answers the tool as the whole list has it',
  );

  const direct = await call('company_competitors', { companyDomain: 'nobody.example' });
  const through = await call('more_tools', { call: 'company_competitors', arguments: { companyDomain: 'nobody.example' } });
  assert.equal(through.isError, true);
  assert.equal(through.text, direct.text, 'a call through more_tools answers as the tool does');
  const credits = await call('more_tools', { call: 'credits_balance', arguments: {} });
  assert.equal(credits.isError, false, credits.text);
  assert.deepEqual(credits.json(), (await call('credits_balance', {})).json());

  for (const [args, rule] of [
    [{ call: 'nope' }, /call: no tool 'nope'/],
    [{ call: 'more_tools' }, /call: no tool 'more_tools'/],
    [{ describe: 'x', call: 'credits_balance' }, /give describe or call, not both/],
    [{ arguments: {} }, /arguments: only with call/],
    [{ call: 'credits_balance', arguments: [1] }, /arguments: must be an object/],
    [{ bogus: 1 }, /bogus: unknown argument/],
  ] as const) {
    const res = await call('more_tools', args);
    assert.equal(res.isError, true, JSON.stringify(args));
    assert.match(res.text, rule);
  }
});

test('bad, unknown and missing arguments and unknown records are isError results naming the problem', async () => {
  const { call } = await connectMcp(t, 'full');
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'company_firmographics',
      { companyDomain: 'not a domain' },
      /^Error 400: Invalid arguments for company_firmographics: companyDomain: 'not a domain' is not a valid domain name/,
    ],
    ['company_firmographics', {}, /^Error 400: .*companyDomain: /],
    ['company_cohort', { companyDomain: world.company, cohort: 'Best' }, /cohort: cohort must be one of Default, Defined, Aspirational/],
    [
      'vendors_search',
      { vendor: 'x', color: 'red' },
      /^Error 400: Invalid arguments for vendors_search: color: unknown argument \(vendors_search takes vendor, fuzzy, page, size\)/,
    ],
    ['companies_search', { filter: { vendorDomainIn: ['hubspot.com'], colour: 1 } }, /filter\.colour: unknown argument/],
    ['vendors_search', { onBehalfOfUser: 'a@b.co' }, /onBehalfOfUser: unknown argument/],
    // Keys of Object.prototype are unknown arguments like any other.
    ['vendors_search', { constructor: 'x' }, /^Error 400: Invalid arguments for vendors_search: constructor: unknown argument/],
    ['companies_search', { filter: { toString: 'x' } }, /filter\.toString: unknown argument/],
    ['categories_list', { size: 0 }, /size: size must be a whole number from 1 to 200/],
    ['company_firmographics', { companyDomain: 'nobody.example' }, /^Error 404: .*nobody\.example/],
    ['profile_get', { profileId: 'per_nobody' }, /^Error 404: .*per_nobody/],
  ];
  for (const [name, args, expected] of cases) {
    const res = await call(name, args);
    assert.equal(res.isError, true, `${name} ${JSON.stringify(args)}`);
    assert.match(res.text, expected);
  }
});

test('paging: nextPage continues until null, and the pages hold every item once', async () => {
  const { call } = await connectMcp(t, 'basic');
  const seen: string[] = [];
  let args: Record<string, unknown> | null = { size: 50 };
  let total = 0;
  while (args) {
    const page: any = (await call('categories_list', args)).json();
    total = page.total;
    seen.push(...page.items.map((c: any) => c.id));
    args = page.nextPage;
  }
  assert.equal(seen.length, total);
  assert.equal(new Set(seen).size, total);
});

test('resource links are readable through resources/read', async () => {
  const { client, call } = await connectMcp(t, 'full');
  const usage = await call('usage_metrics', { companyDomain: world.company, cohort: 'Default', size: 2 });
  assert.equal(usage.links.length, 1);
  const table = await client.readResource({ uri: usage.links[0]!.uri });
  const csv = (table.contents[0] as { text: string }).text;
  const lines = csv.trim().split('\r\n');
  assert.equal(lines[0], 'percentage,product,category,productId,vendorDomain,companiesUsing,cohortSize');
  assert.equal(lines.length - 1, usage.json().total, 'the whole table');

  const details = await call('usage_metrics_details', { companyDomain: world.company, cohortCompanyDomain: world.peers });
  const comparison = (await client.readResource({ uri: details.links[0]!.uri })).contents[0] as { text: string; mimeType: string };
  assert.equal(comparison.mimeType, 'text/csv');
  assert.match(comparison.text, /^companyDomain,category,categoryId,status,product,productId,companyProducts\r\n/);
  for (const peer of world.peers) assert.ok(comparison.text.includes(`\r\n${peer},`), peer);

  const products = await call('company_products_paged', { companyDomain: world.company, size: 1 });
  const all = (await client.readResource({ uri: products.links[0]!.uri })).contents[0] as { text: string };
  assert.equal(all.text.trim().split('\r\n').length - 1, products.json().total);
  const audit = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE action = 'company-products.export.csv'`);
  assert.equal(audit.length, 1, 'the full product list is an audited export');
});

test('resources: the category tree and the industries; unknown and malformed URIs are protocol errors', async () => {
  const { client } = await connectMcp(t, 'basic');
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((r) => r.uri).sort(), ['stacklens://reference/categories', 'stacklens://reference/industries']);
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(
    resourceTemplates.map((r) => r.name),
    ['cohort-usage', 'comparison', 'company-products', 'company-export', 'monitor-events'],
  );
  const tree = JSON.parse(((await client.readResource({ uri: 'stacklens://reference/categories' })).contents[0] as { text: string }).text);
  const count = (nodes: any[]): number => nodes.reduce((n, c) => n + 1 + count(c.children ?? []), 0);
  const [categories] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM categories');
  assert.equal(count(tree), categories?.n, 'every category once, in a tree');
  assert.ok(tree.some((c: any) => c.children?.length));
  const industries = JSON.parse(((await client.readResource({ uri: 'stacklens://reference/industries' })).contents[0] as { text: string }).text);
  assert.ok(industries.length > 5 && industries[0].id && industries[0].name);
  await assert.rejects(client.readResource({ uri: 'stacklens://nothing/here' }), (e: any) => e.code === -32002 && /not found/.test(e.message));
  await assert.rejects(
    client.readResource({ uri: 'stacklens://companies/not%20a%20domain/products' }),
    (e: any) => e.code === -32602 && /companyDomain/.test(e.message),
  );
  await assert.rejects(client.readResource({ uri: 'stacklens://companies/nobody.example/cohorts/Default/usage' }), (e: any) => e.code === -32002);
});

test('prompts are listed and rendered with their arguments; bad arguments are named', async () => {
  const { client } = await connectMcp(t, 'basic');
  const { prompts } = await client.listPrompts();
  assert.deepEqual(
    prompts.map((p) => p.name),
    ['benchmark_stack', 'find_lookalikes', 'account_brief'],
  );
  for (const p of prompts)
    assert.deepEqual(
      p.arguments?.filter((a) => a.required).map((a) => a.name),
      ['companyDomain'],
    );
  const brief = await client.getPrompt({ name: 'account_brief', arguments: { companyDomain: 'HTTPS://WWW.Acme.com/', focus: 'selling a CRM' } });
  const text = (brief.messages[0]!.content as { text: string }).text;
  assert.match(text, /^Prepare an account brief on acme\.com for this purpose: selling a CRM/);
  for (const tool of ['company_firmographics', 'company_products_paged', 'company_feed', 'profiles_search']) assert.ok(text.includes(tool), tool);
  const bench = await client.getPrompt({ name: 'benchmark_stack', arguments: { companyDomain: 'acme.com', cohort: 'Aspirational' } });
  assert.match((bench.messages[0]!.content as { text: string }).text, /usage_metrics \{companyDomain: "acme\.com", cohort: "Aspirational"\}/);
  await assert.rejects(
    client.getPrompt({ name: 'find_lookalikes', arguments: { companyDomain: 'not a domain' } }),
    (e: any) =>
      e.code === -32602 &&
      e.message === "MCP error -32602: Invalid arguments for prompt find_lookalikes: companyDomain: 'not a domain' is not a valid domain name",
  );
  await assert.rejects(client.getPrompt({ name: 'no_such_prompt' }), (e: any) => e.code === -32602);
});
