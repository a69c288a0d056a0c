// The optional language-model client against a local stub that speaks the OpenAI chat-completions
// protocol: valid answers, invalid JSON, schema violations, HTTP 500, a slow reply (timeout),
// a closed port, and what leaves the process.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../../src/config.ts';
import { understandPrompt, parseReply } from '../../src/llm/client.ts';
import { parsePrompt, parsedQuerySchema } from '../../src/intelligence/prompt/index.ts';
import { SAMPLE_CATALOG } from '../../src/intelligence/prompt/sample-catalog.ts';

type Reply = { status?: number; body?: unknown; raw?: string; delayMs?: number };
let reply: Reply = {};
let requests: { url: string; headers: http.IncomingHttpHeaders; body: any }[] = [];
let server: http.Server;
let config: Config;

const completion = (content: unknown) => ({
  id: 'chatcmpl-stub',
  object: 'chat.completion',
  model: 'stub-model',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content) } }],
});

before(async () => {
  server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      requests.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(data || 'null') });
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        res.end(reply.raw ?? JSON.stringify(reply.body ?? {}));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  config = loadConfig({ AI_BASE_URL: `http://127.0.0.1:${port}/v1/`, AI_MODEL: 'stub-model', AI_API_KEY: 'sk-test', AI_TIMEOUT_MS: '10000' });
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  reply = {};
  requests = [];
});

const ask = (prompt: string, mode: 'customers' | 'techstack' | 'people' = 'customers', cfg: Pick<Config, 'ai'> = config) =>
  understandPrompt(prompt, SAMPLE_CATALOG, mode, cfg);

test('valid model output is grounded onto the catalog; what does not resolve is dropped', async () => {
  reply = {
    body: completion({
      products: ['Hubspot CRM', 'Imaginary Suite 9000'],
      vendors: ['atlasian'],
      categories: ['CRMs'],
      industries: ['Banking', 'Underwater Basket Weaving'],
      countries: ['de', 'France', 'XX', 'Germany'],
      employeeRanges: ['1,000 - 4,999'],
      revenueRanges: [],
      timeWindow: { field: 'adopted', withinDays: 183 },
      titles: [],
      seniority: [],
      functions: [],
      companies: [],
      terms: ['banks', 'unicorns'],
    }),
  };
  const r = await ask('banks in Germany or France using Hubspot CRM and atlasian tools, adopted in the last 6 months, 1000-4999 employees');
  assert.equal(r.parser, 'model');
  assert.equal(r.fallbackReason, undefined);
  assert.deepEqual(r.query.products, [{ id: 'prd_hubspot_crm', name: 'HubSpot CRM', text: 'Hubspot CRM', kind: 'exact', score: 1 }]);
  assert.deepEqual(
    r.query.vendors.map((v) => [v.id, v.kind]),
    [['ven_atlassian', 'fuzzy']],
  );
  assert.deepEqual(
    r.query.categories.map((c) => c.id),
    ['cat_crm'],
  );
  assert.deepEqual(
    r.query.industries.map((i) => i.id),
    ['ind_banking'],
  );
  assert.deepEqual(
    r.query.countries.map((c) => c.code),
    ['DE', 'FR'],
  );
  assert.deepEqual(r.query.employeeRanges, ['1,000 - 4,999']);
  assert.deepEqual(r.query.timeWindow, { field: 'adopted', withinDays: 183 });
  assert.deepEqual(r.query.terms, ['banks'], 'a term not in the prompt is dropped');
  assert.equal(parsedQuerySchema.safeParse(r.query).success, true);
});

test('only the prompt and fixed instructions leave the process; the request is OpenAI-shaped', async () => {
  reply = { body: completion({ products: ['Jira'] }) };
  const prompt = 'companies using Jira';
  await ask(prompt);
  assert.equal(requests.length, 1);
  const req = requests[0]!;
  assert.equal(req.url, '/v1/chat/completions');
  assert.equal(req.headers.authorization, 'Bearer sk-test');
  assert.equal(req.body.model, 'stub-model');
  assert.equal(req.body.temperature, 0);
  assert.deepEqual(req.body.response_format, { type: 'json_object' });
  assert.deepEqual(
    req.body.messages.map((m: any) => m.role),
    ['system', 'user'],
  );
  assert.equal(req.body.messages[1].content, prompt);
  assert.deepEqual(Object.keys(req.body).sort(), ['messages', 'model', 'response_format', 'temperature']);
  const sent = JSON.stringify(req.body);
  for (const secret of ['prd_', 'ven_', 'cat_', 'HubSpot', 'Salesforce', 'Atlassian']) assert.ok(!sent.includes(secret), `sent ${secret}`);
});

test('people mode: titles must be in the prompt; employers resolve to vendors or domains', async () => {
  reply = {
    body: completion({
      titles: ['VP of Sales', 'Chief Hacker'],
      seniority: ['VP'],
      functions: ['Sales'],
      companies: ['HubSpot', 'globex.io', 'Nowhere Ltd'],
      countries: ['US'],
      emails: ['ceo@globex.io'],
      phone: '+1 555',
    }),
  };
  const r = await ask('VPs of Sales at HubSpot and globex.io in the US', 'people');
  assert.equal(r.parser, 'model');
  assert.deepEqual(r.query.titles, ['VP of Sales']);
  assert.deepEqual(r.query.seniority, ['VP']);
  assert.deepEqual(
    r.query.companies.map((c) => [c.domain, c.kind]),
    [
      ['hubspot.com', 'vendor'],
      ['globex.io', 'domain'],
    ],
  );
  assert.doesNotMatch(JSON.stringify(r.query), /ceo@|555|emails|phone/);
});

test('invalid JSON, wrong shapes and missing choices fall back to the embedded parser', async () => {
  const prompt = 'companies using Jira in Germany';
  const embedded = parsePrompt(prompt, SAMPLE_CATALOG, { mode: 'customers' });
  for (const bad of [
    { raw: 'this is not json' },
    { body: completion('Sure! Here are some companies: ...') },
    { body: completion({ products: 'Jira' }) },
    { body: completion({ employeeRanges: ['huge'] }) },
    { body: completion({ timeWindow: { field: 'adopted' } }) },
    { body: { choices: [] } },
    { body: { error: { message: 'nope' } } },
  ]) {
    reply = bad;
    const r = await ask(prompt);
    assert.equal(r.parser, 'embedded', JSON.stringify(bad));
    assert.equal(r.fallbackReason, 'invalid_output', JSON.stringify(bad));
    assert.deepEqual(r.query, embedded);
  }
});

test('a fenced JSON answer is accepted', () => {
  const parsed = parseReply(JSON.stringify(completion('```json\n{"products": ["Jira"]}\n```')));
  assert.deepEqual(parsed?.products, ['Jira']);
});

test('HTTP 500 and 429 fall back with reason http_error', async () => {
  for (const status of [500, 429, 401]) {
    reply = { status, body: { error: { message: 'boom' } } };
    const r = await ask('companies using Jira');
    assert.deepEqual([r.parser, r.fallbackReason], ['embedded', 'http_error']);
    assert.deepEqual(
      r.query.products.map((p) => p.id),
      ['prd_jira'],
    );
  }
});

test('a slow model times out and the embedded parser answers', async () => {
  reply = { delayMs: 20_000, body: completion({ products: ['Jira'] }) };
  const impatient = { ai: { ...config.ai!, timeoutMs: 200 } };
  const r = await ask('companies using hubspt', 'customers', impatient);
  assert.deepEqual([r.parser, r.fallbackReason], ['embedded', 'timeout']);
  assert.deepEqual(
    r.query.vendors.map((v) => v.id),
    ['ven_hubspot'],
  );
});

test('an unreachable endpoint falls back with reason network_error', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const cfg = loadConfig({ AI_BASE_URL: `http://127.0.0.1:${port}`, AI_MODEL: 'm', AI_TIMEOUT_MS: '10000' });
  const r = await ask('companies using Jira', 'customers', cfg);
  assert.deepEqual([r.parser, r.fallbackReason], ['embedded', 'network_error']);
});

test('an answer that grounds to nothing yields to the embedded parser when it finds something', async () => {
  reply = { body: completion({ products: ['Totally Made Up'], terms: ['fabricated'] }) };
  const r = await ask('companies using Jira');
  assert.deepEqual([r.parser, r.fallbackReason], ['embedded', 'ungrounded']);
  assert.deepEqual(
    r.query.products.map((p) => p.id),
    ['prd_jira'],
  );
});

test('without AI_BASE_URL no request is made and the embedded parser answers', async () => {
  const r = await ask('companies using Jira', 'customers', { ai: undefined });
  assert.deepEqual([r.parser, r.fallbackReason], ['embedded', undefined]);
  assert.equal(requests.length, 0);
});
