// The AI endpoints with the optional model configured, against a local stub of the
// OpenAI chat-completions protocol: the model's grounded answer is used (X-Stacklens-Parser:
// model); when it fails, the embedded parser answers and the header says why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { refreshAll } from '../../src/ingest/refresh.ts';
import { aiWorld } from '../intelligence/ai-world.ts';

let reply: { status: number; content?: unknown } = { status: 200 };
let server: http.Server;
let t: TestApp;
let client: TestClient;

before(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(reply.content ?? {}) } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  t = await createTestApp({ env: { AI_BASE_URL: `http://127.0.0.1:${port}/v1`, AI_MODEL: 'stub-model', AI_TIMEOUT_MS: '5000' } });
  await insertWorld(t.db, aiWorld());
  await refreshAll(t.db, { cohortParams: { defaultRelativeCut: 0, competitorsRelativeCut: 0 } });
  client = await createTestClient(t.db, 'full');
});
after(async () => {
  await t.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const call = (prompt: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/ai/find-customers-of-products?prompt=${encodeURIComponent(prompt)}&size=5`,
    headers: { ...client.headers, 'x-on-behalf-of-user': 'ann@example.com' },
  });

test('the model answers when its output grounds onto the catalog', async () => {
  reply = { status: 200, content: { products: ['Salesforce Sales Cloud'], industries: ['Banking'] } };
  const r = await call('our usual bank prospects on the big CRM');
  assert.equal(r.statusCode, 200);
  assert.equal(r.headers['x-stacklens-parser'], 'model');
  assert.equal(r.headers['x-stacklens-parser-fallback'], undefined);
  assert.match(String(r.headers['x-stacklens-understood']), /products=Salesforce Sales Cloud; industries=Banking/);
  const items = r.json() as any[];
  assert.equal(items.length, 5);
  assert.ok(items.every((i) => i.industry === 'Banking' && i.productId === 'prd_sales_cloud'));
});

test('on a model failure the embedded parser answers, and the header says why', async () => {
  reply = { status: 500 };
  const r = await call('companies using Mailchimp');
  assert.equal(r.statusCode, 200);
  assert.equal(r.headers['x-stacklens-parser'], 'embedded');
  assert.equal(r.headers['x-stacklens-parser-fallback'], 'http_error');
  assert.ok((r.json() as any[]).every((i) => i.productId === 'prd_mailchimp'));
  reply = { status: 200, content: { products: ['Nothing We Sell'] } };
  const ungrounded = await call('companies using Mailchimp');
  assert.equal(ungrounded.headers['x-stacklens-parser-fallback'], 'ungrounded');
  assert.equal(ungrounded.statusCode, 200);
  const audit = await t.db.query<{ params: any }>(`SELECT params FROM audit_log WHERE action = 'ai.find_customers_of_products' ORDER BY id DESC LIMIT 1`);
  assert.equal(audit[0]!.params.fallbackReason, 'ungrounded');
});
