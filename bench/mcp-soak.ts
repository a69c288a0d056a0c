// MCP soak: N tool calls on ONE session through a real SDK client over HTTP, printing the
// server's heap before and after (after a forced GC). Goal: growth < 20 MB for 50,000 calls.
//
//   node --expose-gc --import tsx bench/mcp-soak.ts [--calls 50000] [--tool categories_list] [--args '{}'] [--mode sse|json]
//
// Runs the app in-process on an in-memory PGlite with a small fixture world (or on
// DATABASE_URL in a scratch schema) so that the measured heap is the server's own.
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestApp } from '../test/helpers/app.ts';
import { createTestClient } from '../test/helpers/auth.ts';
import { insertWorld } from '../test/helpers/fixtures.ts';
import { definePlan } from '../src/auth/clients.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '50000' },
    tool: { type: 'string', default: 'categories_list' },
    args: { type: 'string', default: '{}' },
    mode: { type: 'string', default: 'sse' },
  },
});
const calls = Number(values.calls);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.warn('warning: run with node --expose-gc for exact heap figures');

const t = await createTestApp({ env: { MCP_RESPONSE_MODE: values.mode!, LOG_LEVEL: 'silent' } });
await insertWorld(t.db, {
  categories: [{ id: 'cat_sales' }, { id: 'cat_crm', parent_id: 'cat_sales' }],
  industries: [{ id: 'ind_software' }],
  vendors: [{ id: 'ven_acme', domain: 'acme-soft.com' }],
  products: [{ id: 'prd_acme_crm', vendor_id: 'ven_acme', category_id: 'cat_crm' }],
  companies: [{ id: 'cmp_a', domain: 'a.example', industry_id: 'ind_software' }],
  installs: [{ company_id: 'cmp_a', product_id: 'prd_acme_crm' }],
});
// Plans are data: a soak plan whose rate limit a single session cannot reach, so every
// call does the full work instead of stopping at the limiter.
await definePlan(t.db, {
  id: 'soak',
  description: 'benchmark',
  canExport: true,
  canAi: true,
  canPurchase: true,
  initialCredits: 0,
  requestsPerMinute: 10_000_000,
  aiRequestsPerMinute: 10_000_000,
  exportRequestsPerMinute: 10_000_000,
  maxMonitors: 1_000_000,
  maxWebhooks: 1_000_000,
  eventsPerDay: 1_000_000_000,
  enrichRowsPerDay: 1_000_000_000,
  maxListRows: 1_000_000,
  facetsPerDay: 1000,
  detectionsPerDay: 100,
});
const { apiKey } = await createTestClient(t.db, 'soak' as 'full');
const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
const client = new Client({ name: 'soak', version: '1.0.0' });
// The SDK client passes one long-lived AbortSignal to every fetch, and undici keeps a
// listener on it per request (MaxListenersExceededWarning after ~1,500 calls): a leak of the
// client, not the server. Dropping that signal keeps the measured heap the server's.
const fetchWithoutSharedSignal: typeof fetch = (url, init) => fetch(url, { ...init, signal: undefined });
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-api-key': apiKey } }, fetch: fetchWithoutSharedSignal }),
);
const args = JSON.parse(values.args!) as Record<string, unknown>;

const heap = () => {
  gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};
// Warm up (JIT, caches), then measure.
for (let i = 0; i < 500; i++) await client.callTool({ name: values.tool!, arguments: args });
const before = heap();
const started = Date.now();
let errors = 0;
for (let i = 0; i < calls; i++) {
  const res = await client.callTool({ name: values.tool!, arguments: args });
  if (res.isError) errors++;
  if ((i + 1) % 10_000 === 0) console.log(`  ${i + 1} calls, heap ${heap().toFixed(1)} MB`);
}
const seconds = (Date.now() - started) / 1000;
const after = heap();
console.log(
  `tool ${values.tool} (${values.mode}): ${calls} calls on one session in ${seconds.toFixed(1)} s (${Math.round(calls / seconds)} calls/s), ${errors} error results`,
);
console.log(`heap before ${before.toFixed(1)} MB, after ${after.toFixed(1)} MB, growth ${(after - before).toFixed(1)} MB (goal < 20 MB)`);
await client.close();
await t.close();
