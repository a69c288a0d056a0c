// What the MCP tools cost a model's context: the size of tools/list and of each tool's
// typical result, in characters and in tokens estimated as characters / 4, on a small demo
// world (seeded in memory, deterministic). Prints a markdown table; with --before it adds
// the figures of an earlier run (saved with --save) side by side.
//
//   npx tsx bench/mcp-sizes.ts [--companies 1000] [--save out.json] [--before bench/results/mcp-sizes-before.json]
//
// "result" is the whole JSON-RPC result of tools/call (content, structuredContent, isError)
// as the client receives it; "text" is the part a client that reads only text content shows
// the model. The arguments of each call are the typical ones a model sends (README, MCP).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestApp } from '../test/helpers/app.ts';
import { connectMcp } from '../test/helpers/mcp.ts';
import { seedWorld } from '../src/ingest/seed/index.ts';
import { refreshAll } from '../src/ingest/refresh.ts';

const { values } = parseArgs({
  options: {
    companies: { type: 'string', default: '1000' },
    save: { type: 'string' },
    before: { type: 'string' },
  },
});

interface Row {
  name: string;
  args: string;
  resultChars: number;
  textChars: number;
  isError: boolean;
}
interface Figures {
  toolsListChars: number;
  largestTool: { name: string; chars: number };
  rows: Row[];
}

const t = await createTestApp({ env: { LOG_LEVEL: 'silent' } });
const started = Date.now();
await seedWorld(t.db, { companies: Number(values.companies), seed: 'stacklens', asOf: '2026-11-01' });
await refreshAll(t.db);
console.error(`world seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);

// A typical subject: the company with the most installs (a long stack, a full cohort).
const one = async <T extends object>(sql: string, params: unknown[] = []) => (await t.db.query<T>(sql, params))[0]!;
const company = await one<{ id: string; domain: string }>(
  `SELECT c.id, c.domain FROM companies c JOIN installs i ON i.company_id = c.id GROUP BY c.id, c.domain ORDER BY count(*) DESC, c.id LIMIT 1`,
);
const peers = (
  await t.db.query<{ domain: string }>(
    `SELECT m.domain FROM cohorts k JOIN companies m ON m.id = k.member_id WHERE k.company_id = $1 AND k.kind = 'default' ORDER BY k.rank LIMIT 5`,
    [company.id],
  )
).map((r) => r.domain);
const vendor = await one<{ domain: string }>(
  `SELECT v.domain FROM vendors v JOIN products p ON p.vendor_id = v.id GROUP BY v.domain ORDER BY count(*) DESC, v.domain LIMIT 1`,
);
const product = await one<{ id: string; name: string }>(
  `SELECT p.id, p.name FROM installs i JOIN products p ON p.id = i.product_id WHERE i.company_id = $1 ORDER BY i.intensity DESC, p.id LIMIT 1`,
  [company.id],
);
const someProducts = (
  await t.db.query<{ product_id: string }>(`SELECT product_id FROM installs WHERE company_id = $1 ORDER BY product_id LIMIT 5`, [company.id])
).map((r) => r.product_id);
const person = await one<{ id: string; title: string }>(`SELECT id, title FROM people WHERE company_id = $1 AND title IS NOT NULL ORDER BY id LIMIT 1`, [
  company.id,
]);
const USER = 'analyst@example.com';

const calls: Array<[string, Record<string, unknown>]> = [
  ['companies_search', { filter: { vendorDomainIn: [vendor.domain] } }],
  ['company_products_paged', { companyDomain: company.domain }],
  ['company_firmographics', { companyDomain: company.domain }],
  ['company_feed', { companyDomain: company.domain }],
  ['vendors_search', { vendor: 'soft', fuzzy: true }],
  ['vendor_products', { vendorDomain: vendor.domain }],
  ['categories_list', {}],
  ['industries_list', {}],
  ['profiles_search', { titles: ['CTO'] }],
  ['profile_get', { profileId: person.id }],
  ['profiles_purchase', { profileIds: [person.id], onBehalfOfUser: USER }],
  ['credits_balance', {}],
  ['company_cohort', { companyDomain: company.domain, cohort: 'Default' }],
  ['company_competitors', { companyDomain: company.domain }],
  ['usage_metrics', { companyDomain: company.domain, cohort: 'Default' }],
  ['usage_metrics_details', { companyDomain: company.domain, cohortCompanyDomain: peers }],
  ['products_related_in_cohort', { companyDomain: company.domain, productId: product.id, cohort: 'Default' }],
  ['products_in_use', { companyDomain: company.domain, productIds: someProducts }],
  ['find_customers_of_products', { prompt: `companies using ${product.name}`, onBehalfOfUser: USER }],
  ['find_techstacks_for_company', { companyDomain: company.domain, onBehalfOfUser: USER }],
  ['find_people_profiles', { prompt: `CTO at ${company.domain}`, onBehalfOfUser: USER }],
];

const { client } = await connectMcp(t, 'full', 100);
const listed = await client.listTools();
const wrapped = new Set(listed.tools.filter((tool) => 'body' in ((tool.inputSchema.properties ?? {}) as object)).map((tool) => tool.name));
const sizes = listed.tools.map((tool) => ({ name: tool.name, chars: JSON.stringify(tool).length })).sort((a, b) => b.chars - a.chars);
const figures: Figures = { toolsListChars: JSON.stringify(listed).length, largestTool: sizes[0]!, rows: [] };

for (const [name, args] of calls) {
  // The earlier code wrapped the company search in a `body` argument.
  const sent = wrapped.has(name) ? { body: args } : args;
  const result = await callRaw(client, name, sent);
  const text = (result.content as Array<{ type: string; text?: string }>).filter((c) => c.type === 'text').reduce((n, c) => n + (c.text ?? '').length, 0);
  figures.rows.push({ name, args: describeArgs(args), resultChars: JSON.stringify(result).length, textChars: text, isError: result.isError === true });
}
await client.close();
await t.close();

const before: Figures | undefined = values.before ? (JSON.parse(fs.readFileSync(values.before, 'utf8')) as Figures) : undefined;
if (values.save) fs.writeFileSync(values.save, `${JSON.stringify(figures, null, 2)}\n`);
print(figures, before);

/** tools/call without the SDK client's own output-schema check: a bench measures what comes back. */
async function callRaw(c: Client, name: string, args: Record<string, unknown>) {
  const { CallToolResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
  return c.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema);
}

function describeArgs(args: Record<string, unknown>): string {
  const s = JSON.stringify(args, (k, v) => (k === 'onBehalfOfUser' ? undefined : v));
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function print(now: Figures, was?: Figures): void {
  const tok = (chars: number) => Math.round(chars / 4).toLocaleString('en-US');
  const n = (chars: number) => chars.toLocaleString('en-US');
  const pair = (after: number, b?: number) => (b === undefined ? `${n(after)} (${tok(after)})` : `${n(b)} (${tok(b)}) → ${n(after)} (${tok(after)})`);
  const head = was ? 'before → after: characters (≈ tokens)' : 'characters (≈ tokens)';
  console.log(`| call | ${head} | text part |`);
  console.log('| --- | --- | --- |');
  console.log(
    `| tools/list (${listed.tools.length} tools; largest ${now.largestTool.name}) | ${pair(now.toolsListChars, was?.toolsListChars)} | largest tool ${pair(now.largestTool.chars, was?.largestTool.chars)} |`,
  );
  for (const row of now.rows) {
    const old = was?.rows.find((r) => r.name === row.name);
    const flag = row.isError ? ' (isError!)' : '';
    console.log(`| ${row.name} \`${row.args}\`${flag} | ${pair(row.resultChars, old?.resultChars)} | ${pair(row.textChars, old?.textChars)} |`);
  }
}
