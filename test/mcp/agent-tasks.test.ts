// Research tasks a RevOps analyst asks, each scripted as the tool calls a competent agent makes
// against the MCP server (the short tool list, `more_tools` for the rest, as a hosted agent
// sees it), with the agent's final answer checked against what the database says, computed
// here independently in SQL. Counted per task: tool calls and the tokens of the answers the
// agent read (text and structured content, characters / 4). The summary table is printed; the
// figures are in docs/mcp.md ("Scripted agent tasks"). Both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { seedMcpWorld, USER } from '../helpers/mcp-world.ts';
import { CORE_TOOLS } from '../../src/mcp/toolsets.ts';

let t: TestApp;
let world: Awaited<ReturnType<typeof seedMcpWorld>>;
let agent: Agent;

/** What the agent read of one answer: its text and structured content. */
const tokensOf = (res: { content: Array<{ type: string; text?: string }>; structuredContent?: unknown }) =>
  Math.ceil((res.content.map((c) => c.text ?? '').join('').length + (res.structuredContent ? JSON.stringify(res.structuredContent).length : 0)) / 4);

class Agent {
  calls = 0;
  tokens = 0;
  constructor(private readonly client: Awaited<ReturnType<typeof connectMcp>>['client']) {}

  /** One tool call as the agent makes it: by name when listed, else through more_tools. The structured answer. */
  async call(name: string, args: Record<string, unknown> = {}): Promise<any> {
    this.calls++;
    const res = (await this.client.callTool(
      CORE_TOOLS.has(name) ? { name, arguments: args } : { name: 'more_tools', arguments: { call: name, arguments: args } },
    )) as {
      content: Array<{ type: string; text?: string }>;
      structuredContent?: any;
      isError?: boolean;
    };
    this.tokens += tokensOf(res);
    if (res.isError) throw new Error(`${name}: ${res.content[0]?.text}`);
    return res.structuredContent;
  }
}

const results: Array<{ task: string; calls: number; tokens: number }> = [];

/** One task: the agent's script, run from a fresh count, and its check. */
function task(question: string, script: () => Promise<void>) {
  test(question, async () => {
    agent.calls = 0;
    agent.tokens = 0;
    await script();
    results.push({ task: question, calls: agent.calls, tokens: agent.tokens });
  });
}

const one = async <T extends object>(sql: string, params: unknown[] = []) => (await t.db.query<T>(sql, params))[0]!;
const many = <T extends object>(sql: string, params: unknown[] = []) => t.db.query<T>(sql, params);
const sorted = (xs: string[]) => [...xs].sort();

before(async () => {
  t = await createTestApp();
  world = await seedMcpWorld(t.db, 300);
  const { client } = await connectMcp(t, 'full', 10_000, USER);
  agent = new Agent(client);
});

after(async () => {
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const lines = results.map((r) => `| ${r.task} | ${r.calls} | ${r.tokens} |`);
  console.log(
    [
      '| task | calls | answer tokens |',
      '| --- | ---: | ---: |',
      ...lines,
      `tasks ${results.length}; median calls ${median(results.map((r) => r.calls))}; median answer tokens ${median(results.map((r) => r.tokens))}; total answer tokens ${results.reduce((s, r) => s + r.tokens, 0)}`,
    ].join('\n'),
  );
  await t.close();
});

// A product used by many companies of the world, and the vendor of it.
const popular = () =>
  one<{ id: string; name: string; vendor: string }>(
    `SELECT p.id, p.name, v.domain AS vendor FROM installs i JOIN products p ON p.id = i.product_id JOIN vendors v ON v.id = p.vendor_id
     GROUP BY p.id, p.name, v.domain ORDER BY count(*) DESC, p.id OFFSET 3 LIMIT 1`,
  );

task('what is the id of the technology named like X (to filter by it)?', async () => {
  const p = await popular();
  const found = await agent.call('lookup', { q: p.name });
  assert.equal(found.matches[0].id, p.id);
});

task('how many companies use technology X?', async () => {
  const p = await popular();
  const id = (await agent.call('lookup', { q: p.name })).matches[0].id;
  const answer = (await agent.call('companies_search', { filter: { productIdIn: [id] }, count: true })).total;
  const expected = await one<{ n: number }>('SELECT count(DISTINCT company_id)::int AS n FROM installs WHERE product_id = $1', [p.id]);
  assert.equal(answer, expected.n);
});

task('how many companies use a product of vendor V, by country?', async () => {
  const p = await popular();
  const f = await agent.call('companies_search', { filter: { vendorDomainIn: [p.vendor] }, count: ['country'] });
  const expected = await many<{ country: string; n: number }>(
    `SELECT c.country, count(DISTINCT c.id)::int AS n FROM companies c JOIN installs i ON i.company_id = c.id JOIN products p ON p.id = i.product_id
     JOIN vendors v ON v.id = p.vendor_id WHERE v.domain = $1 GROUP BY c.country`,
    [p.vendor],
  );
  const answer = Object.fromEntries(f.cells.map((c: any) => [c.values[0].value, c.companies]));
  assert.deepEqual(answer, Object.fromEntries(expected.map((r) => [r.country, r.n])));
});

task('which companies in country C use technology X (first page, by name)?', async () => {
  const p = await popular();
  const c = await one<{ country: string }>(
    `SELECT c.country FROM companies c JOIN installs i ON i.company_id = c.id WHERE i.product_id = $1 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
    [p.id],
  );
  const page = await agent.call('companies_search', { filter: { productIdIn: [p.id], countryIn: [c.country] }, size: 100 });
  const expected = await many<{ domain: string }>(
    `SELECT DISTINCT c.domain FROM companies c JOIN installs i ON i.company_id = c.id WHERE i.product_id = $1 AND c.country = $2`,
    [p.id, c.country],
  );
  assert.deepEqual(sorted(page.items.map((i: any) => i.domain)), sorted(expected.map((r) => r.domain)));
});

task('what industry, size and country is company X?', async () => {
  const f = await agent.call('company_firmographics', { companyDomain: world.company });
  const expected = await one<{ country: string; employee_band: string; industry: string }>(
    `SELECT c.country, c.employee_band, i.name AS industry FROM companies c LEFT JOIN industries i ON i.id = c.industry_id WHERE c.domain = $1`,
    [world.company],
  );
  assert.deepEqual([f.industry, f.employeeRange, f.hqCountry], [expected.industry, expected.employee_band, expected.country]);
});

task('how many technologies does company X use?', async () => {
  const page = await agent.call('company_products_paged', { companyDomain: world.company, size: 100 });
  const expected = await one<{ n: number }>('SELECT count(*)::int AS n FROM installs i JOIN companies c ON c.id = i.company_id WHERE c.domain = $1', [
    world.company,
  ]);
  assert.equal(page.total, expected.n);
  assert.equal(page.items.length, Math.min(100, expected.n));
});

task('does company X use technology Y right now (with confidence)?', async () => {
  const p = await one<{ id: string }>(
    `SELECT i.product_id AS id FROM installs i JOIN companies c ON c.id = i.company_id WHERE c.domain = $1 ORDER BY i.intensity DESC, i.product_id LIMIT 1`,
    [world.company],
  );
  const answer = await agent.call('products_in_use', { companyDomain: world.company, productIds: [p.id] });
  assert.equal(answer.items[0].productId, p.id);
  assert.ok(answer.items[0].confidence > 0 && answer.items[0].confidence <= 1);
});

/** The domains of a company's computed cohort of this kind, in rank order. */
const cohortOf = async (domain: string, kind: 'default' | 'competitors') =>
  (
    await many<{ domain: string }>(
      // The cohort's rows first (a CTE): members live on other shards on Citus (store/cohorts.ts).
      `WITH k AS (SELECT k.member_id, k.rank FROM cohorts k JOIN companies c ON c.id = k.company_id WHERE c.domain = $1 AND k.kind = $2)
       SELECT m.domain FROM k JOIN companies m ON m.id = k.member_id ORDER BY k.rank`,
      [domain, kind],
    )
  ).map((r) => r.domain);

task('who are the competitors of X?', async () => {
  const answer = await agent.call('company_competitors', { companyDomain: world.company, size: 50 });
  assert.deepEqual(
    answer.items.map((i: any) => i.domain),
    (await cohortOf(world.company, 'competitors')).slice(0, 50),
  );
});

task('who are the competitors of X, and what does the closest one run?', async () => {
  const competitors = (await agent.call('company_competitors', { companyDomain: world.company, size: 3 })).items.map((i: any) => i.domain);
  const first = competitors[0]!;
  const stack = await agent.call('company_products_paged', { companyDomain: first, size: 100 });
  const expected = await many<{ product_id: string }>('SELECT i.product_id FROM installs i JOIN companies c ON c.id = i.company_id WHERE c.domain = $1', [
    first,
  ]);
  assert.deepEqual(sorted(stack.items.map((i: any) => i.productId)), sorted(expected.map((r) => r.product_id)));
});

task('which peers are in X’s default cohort?', async () => {
  const answer = await agent.call('company_cohort', { companyDomain: world.company, cohort: 'Default', size: 50 });
  assert.deepEqual(
    answer.items.map((i: any) => i.domain),
    await cohortOf(world.company, 'default'),
  );
});

task('what share of X’s peers use the most common product among them?', async () => {
  const metrics = await agent.call('usage_metrics', { companyDomain: world.company, cohort: 'Default', size: 1 });
  const top = metrics.items[0];
  const expected = await one<{ n: number; size: number }>(
    // The members first (a CTE), then their stacks by id: members live on other shards on Citus.
    `WITH k AS (SELECT DISTINCT k.member_id FROM cohorts k JOIN companies c ON c.id = k.company_id WHERE c.domain = $1 AND k.kind = 'default')
     SELECT (SELECT count(*) FROM company_stacks s WHERE s.company_id IN (SELECT member_id FROM k) AND $2 = ANY(s.product_ids))::int AS n,
            (SELECT count(*) FROM k)::int AS size`,
    [world.company, top.productId],
  );
  assert.equal(metrics.cohortSize, expected.size);
  assert.equal(top.percentage, Math.round((100 * expected.n) / expected.size));
});

task('what is the domain of the vendor named N?', async () => {
  const v = await one<{ name: string; domain: string }>('SELECT name, domain FROM vendors ORDER BY id OFFSET 7 LIMIT 1');
  const answer = await agent.call('vendors_search', { vendor: v.name });
  assert.ok(
    answer.items.some((i: any) => i.domain === v.domain),
    JSON.stringify(answer.items),
  );
});

task('which products does vendor V sell?', async () => {
  const p = await popular();
  const answer = await agent.call('vendor_products', { vendorDomain: p.vendor, size: 100 });
  const expected = await many<{ id: string }>('SELECT p.id FROM products p JOIN vendors v ON v.id = p.vendor_id WHERE v.domain = $1', [p.vendor]);
  assert.deepEqual(sorted(answer.items.map((i: any) => i.id)), sorted(expected.map((r) => r.id)));
});

task('how many categories and industries does the taxonomy have?', async () => {
  const categories = (await agent.call('categories_list', { size: 1 })).total;
  const industries = (await agent.call('industries_list', { size: 1 })).total;
  const expected = await one<{ c: number; i: number }>('SELECT (SELECT count(*) FROM categories)::int AS c, (SELECT count(*) FROM industries)::int AS i');
  assert.deepEqual([categories, industries], [expected.c, expected.i]);
});

task('how many companies are there by employee band in industry I?', async () => {
  const ind = await one<{ id: string; name: string }>(
    'SELECT i.id, i.name FROM industries i JOIN companies c ON c.industry_id = i.id GROUP BY i.id, i.name ORDER BY count(*) DESC, i.id LIMIT 1',
  );
  const found = await agent.call('lookup', { q: ind.name, kind: 'industry' });
  const f = await agent.call('companies_search', { filter: { industryIn: [found.matches[0].id] }, count: ['employeeBand'] });
  const expected = await many<{ band: string | null; n: number }>(
    'SELECT employee_band AS band, count(*)::int AS n FROM companies WHERE industry_id = $1 GROUP BY 1',
    [ind.id],
  );
  assert.deepEqual(
    Object.fromEntries(f.cells.map((c: any) => [String(c.values[0].value), c.companies])),
    Object.fromEntries(expected.map((r) => [String(r.band), r.n])),
  );
});

task('how many companies use X (count mode: no rows, no credits)?', async () => {
  const p = await popular();
  const f = await agent.call('companies_search', { filter: { productIdIn: [p.id] }, count: true });
  const expected = await one<{ n: number }>('SELECT count(DISTINCT company_id)::int AS n FROM installs WHERE product_id = $1', [p.id]);
  assert.equal(f.total, expected.n);
  assert.deepEqual(f.cells, []);
});

task('find the people at X with a leadership title', async () => {
  const answer = await agent.call('profiles_search', { companyDomains: [world.company], seniority: ['C-Level'], size: 100 });
  const expected = await many<{ id: string }>(
    `SELECT p.id FROM people p WHERE p.company_id IN (SELECT id FROM companies WHERE domain = $1) AND p.seniority = 'C-Level'`,
    [world.company],
  );
  assert.deepEqual(sorted(answer.items.map((i: any) => i.id)), sorted(expected.map((r) => r.id)));
});

task('buy the contact details of one person at X and report the email', async () => {
  const person = (await agent.call('profiles_search', { companyDomains: [world.company], size: 1 })).items[0];
  const bought = await agent.call('profiles_purchase', { profileIds: [person.id], onBehalfOfUser: USER });
  const expected = await many<{ value: string }>(`SELECT value FROM contacts WHERE person_id = $1 AND kind = 'email'`, [person.id]);
  assert.deepEqual(sorted(bought.results[0].emails.map((e: any) => e.value)), sorted(expected.map((r) => r.value)));
});

task('how many credits are left after buying a contact?', async () => {
  const before = (await agent.call('credits_balance', {})).balance;
  const person = (await agent.call('profiles_search', { companyDomains: [world.peers[0]!], size: 1 })).items[0];
  const bought = await agent.call('profiles_purchase', { profileIds: [person.id], onBehalfOfUser: USER });
  assert.equal(bought.balance, before - bought.charged);
  assert.equal(bought.charged, 1);
});

task('what news is there about X, newest first?', async () => {
  const feed = await agent.call('company_feed', { companyDomain: world.company });
  const expected = await many<{ title: string }>(
    'SELECT f.title FROM feed_items f JOIN companies c ON c.id = f.company_id WHERE c.domain = $1 ORDER BY f.published_at DESC, f.id LIMIT 20',
    [world.company],
  );
  assert.deepEqual(
    feed.items.map((i: any) => i.title),
    expected.map((r) => r.title),
  );
});

task('which technologies did the company with the most stack changes adopt or drop?', async () => {
  const c = await one<{ domain: string; n: number }>(
    `SELECT c.domain, count(*)::int AS n FROM events e JOIN companies c ON c.id = e.company_id
     WHERE e.type IN ('technology.adopted', 'technology.dropped') GROUP BY c.domain ORDER BY count(*) DESC, c.domain LIMIT 1`,
  );
  const changes = await agent.call('company_changes', { companyDomain: c.domain, types: ['technology.adopted', 'technology.dropped'], size: 100 });
  assert.equal(changes.total, c.n);
});

task('which products are most related to X’s top product among its peers?', async () => {
  const p = await one<{ id: string }>(
    `SELECT i.product_id AS id FROM installs i JOIN companies c ON c.id = i.company_id WHERE c.domain = $1 ORDER BY i.intensity DESC, i.product_id LIMIT 1`,
    [world.company],
  );
  const related = await agent.call('products_related_in_cohort', { companyDomain: world.company, productId: p.id, cohort: 'Default' });
  assert.ok(related.items.length > 0);
  assert.ok(related.items.every((i: any) => i.id !== p.id && i.lift > 0));
});

task('how has adoption of X evolved over the last year?', async () => {
  const p = await popular();
  const adoption = await agent.call('product_adoption', { productId: p.id });
  assert.equal(adoption.subject.id, p.id);
  assert.equal(adoption.points.length, 12);
  const last = adoption.points.at(-1);
  assert.ok(last.companies > 0);
});

task('five lookalikes of these three customers', async () => {
  const seeds = [world.company, ...world.peers.slice(0, 2)];
  const answer = await agent.call('find_lookalikes', { seedDomains: seeds, size: 5 });
  assert.equal(answer.content.length, 5);
  assert.ok(
    answer.content.every((c: any) => !seeds.includes(c.domain)),
    'no seed among the lookalikes',
  );
  const scores = answer.content.map((c: any) => c.score);
  assert.deepEqual(
    scores,
    [...scores].sort((a: number, b: number) => b - a),
  );
});

task('upload these 3 accounts as a list and say how many matched', async () => {
  const rows = [{ domain: world.company }, { domain: `www.${world.peers[0]}` }, { name: 'Nobody Anywhere Ltd', country: 'US' }];
  const list = await agent.call('lists_upload', { name: 'Agent targets', rows });
  assert.equal(list.rows, 3);
  assert.equal(list.matched, 2);
  assert.equal(list.unmatched, 1);
});

task('enrich two accounts with their stack and city', async () => {
  const answer = await agent.call('enrich_companies', { domains: [world.company, world.peers[0]!], columns: ['city'], onBehalfOfUser: USER });
  const expected = await many<{ domain: string; city: string | null }>(`SELECT c.domain, c.city FROM companies c WHERE c.domain = ANY($1::text[])`, [
    [world.company, world.peers[0]!],
  ]);
  assert.equal(answer.found, 2);
  for (const row of answer.rows) {
    const e = expected.find((x) => x.domain === row.domain)!;
    assert.equal(row.city, e.city);
  }
});

task('find lookalikes of an uploaded list of customers', async () => {
  const list = await agent.call('lists_upload', { name: 'Customers', rows: [world.company, ...world.peers].map((domain) => ({ domain })) });
  const answer = await agent.call('find_lookalikes', { seedListId: list.id, size: 3 });
  assert.equal(answer.seeds.count, 1 + world.peers.length);
  assert.equal(answer.content.length, 3);
});

task('report a technology wrongly shown for X', async () => {
  const p = await one<{ id: string }>(
    `SELECT i.product_id AS id FROM installs i JOIN companies c ON c.id = i.company_id WHERE c.domain = $1 ORDER BY i.product_id LIMIT 1`,
    [world.company],
  );
  const report = await agent.call('submit_feedback', { kind: 'wrong_technology', companyDomain: world.company, productId: p.id, message: 'Removed last year' });
  const stored = await one<{ status: string; product_id: string }>('SELECT status, product_id FROM feedback_reports WHERE id = $1', [report.id]);
  assert.deepEqual(stored, { status: 'open', product_id: p.id });
});

task('who are the customers of technology X (AI helper), and are they real users?', async () => {
  const p = await popular();
  const answer = await agent.call('find_customers_of_products', { prompt: `companies using ${p.name}`, onBehalfOfUser: USER });
  const observed = answer.items.filter((i: any) => i.evidence === 'observed');
  assert.ok(observed.length > 0);
  const users = new Set(
    (await many<{ domain: string }>('SELECT c.domain FROM installs i JOIN companies c ON c.id = i.company_id WHERE i.product_id = $1', [p.id])).map(
      (r) => r.domain,
    ),
  );
  assert.ok(observed.every((i: any) => users.has(i.companyDomain)));
});

task('what is the tech stack of X (AI helper), observed part only?', async () => {
  const answer = await agent.call('find_techstacks_for_company', { companyDomain: world.company, onBehalfOfUser: USER });
  const installed = new Set(
    (
      await many<{ product_id: string }>('SELECT i.product_id FROM installs i JOIN companies c ON c.id = i.company_id WHERE c.domain = $1', [world.company])
    ).map((r) => r.product_id),
  );
  const observed = answer.items.filter((i: any) => i.evidence === 'observed');
  assert.ok(observed.length > 0);
  assert.ok(observed.every((i: any) => installed.has(i.productId)));
});
