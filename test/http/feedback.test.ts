// Data-quality feedback: a client or its agent files a report about what is on record; the
// operators' queue lists it, oldest first, and an admin decides it once (audited).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { insertCatalogWorld } from '../helpers/catalog-world.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { MAX_OPEN_FEEDBACK_PER_CLIENT } from '../../src/schemas/feedback.ts';

let t: TestApp;
let basic: TestClient;
let admin: TestClient;
before(async () => {
  t = await createTestApp();
  basic = await createTestClient(t.db, 'basic');
  admin = await createTestClient(t.db, 'full', undefined, 'admin');
  await insertCatalogWorld(t.db);
});
after(() => t.close());

const submit = (payload: unknown, headers = basic.headers) => t.app.inject({ method: 'POST', url: '/api/feedback', headers, payload: payload as object });
const queue = (query = '') => t.app.inject({ method: 'GET', url: `/api/admin/feedback${query}`, headers: admin.headers });

test('a report about a company and a technology on record is filed open; what is not on record is a 404 naming it', async () => {
  const res = await submit({
    kind: 'wrong_technology',
    companyDomain: 'https://www.Acme.com/',
    productId: 'prd_hs_crm',
    message: 'They moved to Pipedrive in 2025',
  });
  assert.equal(res.statusCode, 200, res.body);
  const report = res.json();
  assert.match(report.id, /^fbk_[0-9a-f]{16}$/);
  assert.deepEqual(
    { ...report, id: undefined, createdAt: undefined },
    {
      id: undefined,
      createdAt: undefined,
      kind: 'wrong_technology',
      companyDomain: 'acme.com',
      productId: 'prd_hs_crm',
      field: null,
      suggestedValue: null,
      message: 'They moved to Pipedrive in 2025',
      status: 'open',
      reviewedAt: null,
      reviewNote: null,
    },
  );
  const unknownCompany = await submit({ kind: 'wrong_technology', companyDomain: 'nobody.example', productId: 'prd_hs_crm' });
  assert.equal(unknownCompany.statusCode, 404);
  assert.match(unknownCompany.json().message, /^companyDomain: company 'nobody\.example' not found/);
  const unknownProduct = await submit({ kind: 'missing_technology', companyDomain: 'acme.com', productId: 'prd_nope' });
  assert.equal(unknownProduct.statusCode, 404);
  assert.match(unknownProduct.json().message, /^productId: product 'prd_nope' not found/);
});

test('each kind requires what it is about: a 400 names the field and the rule; nothing is filed', async () => {
  const cases: [unknown, RegExp][] = [
    [{ kind: 'wrong_technology', companyDomain: 'acme.com' }, /productId: is required when kind is wrong_technology/],
    [{ kind: 'wrong_firmographics', companyDomain: 'acme.com' }, /field: is required when kind is wrong_firmographics/],
    [{ kind: 'wrong_firmographics', companyDomain: 'acme.com', field: 'shoeSize' }, /field/],
    [{ kind: 'other', companyDomain: 'acme.com' }, /message: is required when kind is other/],
    [{ kind: 'praise', companyDomain: 'acme.com' }, /kind/],
    [{ kind: 'other', companyDomain: 'acme.com', message: 'x', extra: 1 }, /extra/],
  ];
  const before = (await queue('?size=200')).json().totalElements;
  for (const [body, rule] of cases) {
    const res = await submit(body);
    assert.equal(res.statusCode, 400, JSON.stringify(body));
    assert.match(res.json().message, rule);
  }
  assert.equal((await queue('?size=200')).json().totalElements, before);
});

test('MCP submit_feedback files the same report; a wrong firmographic field with its suggested value', async () => {
  const mcp = await connectMcp(t, 'basic');
  const answer = await mcp.call('submit_feedback', {
    kind: 'wrong_firmographics',
    companyDomain: 'beta.io',
    field: 'employeeRange',
    suggestedValue: '50 - 199',
  });
  assert.equal(answer.isError, false, answer.text);
  assert.equal(answer.json().status, 'open');
  assert.match(answer.text, /^Report fbk_[0-9a-f]+ \(wrong_firmographics, employeeRange of beta\.io\) is in the operators' review queue\.$/);
  const bad = await mcp.call('submit_feedback', { kind: 'missing_technology', companyDomain: 'beta.io' });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /productId/);
});

test('the queue: oldest first with the reporting client; an admin decides a report once, audited; others are refused', async () => {
  const page = (await queue()).json();
  assert.ok(page.totalElements >= 2);
  const [first] = page.content;
  assert.equal(first.companyDomain, 'acme.com');
  assert.equal(first.clientId, basic.clientId);
  const created = page.content.map((r: { createdAt: string }) => r.createdAt);
  assert.deepEqual(created, [...created].sort());
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/admin/feedback', headers: basic.headers })).statusCode, 403);

  const review = (id: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/admin/feedback/${id}`, headers: admin.headers, payload });
  const accepted = await review(first.id, { status: 'accepted', note: 'Confirmed on their site' });
  assert.equal(accepted.statusCode, 200, accepted.body);
  assert.equal(accepted.json().status, 'accepted');
  assert.equal(accepted.json().reviewNote, 'Confirmed on their site');
  assert.ok(accepted.json().reviewedAt);
  assert.equal((await review(first.id, { status: 'rejected' })).statusCode, 409);
  assert.equal((await review('fbk_0000000000000000', { status: 'rejected' })).statusCode, 404);
  assert.equal((await review(first.id, { status: 'open' })).statusCode, 400);
  assert.ok(!(await queue()).json().content.some((r: { id: string }) => r.id === first.id), 'a decided report leaves the open queue');
  assert.ok((await queue('?status=accepted')).json().content.some((r: { id: string }) => r.id === first.id));
  const [entry] = await t.db.query<{ outcome: string; params: Record<string, unknown> }>(
    "SELECT outcome, params FROM audit_log WHERE action = 'admin.feedback.review' AND outcome = 'success'",
  );
  assert.equal(entry!.params.feedbackId, first.id);
  assert.equal(entry!.params.status, 'accepted');
});

test(`a client has at most ${MAX_OPEN_FEEDBACK_PER_CLIENT} open reports: the next is a 409 until one is decided`, async () => {
  const c = await createTestClient(t.db, 'basic');
  await t.db.query(
    `INSERT INTO feedback_reports (id, client_id, kind, company_domain, message)
     SELECT 'fbk_fill' || g, $1, 'other', 'acme.com', 'filler' FROM generate_series(1, $2::int) g`,
    [c.clientId, MAX_OPEN_FEEDBACK_PER_CLIENT - 1],
  );
  const body = { kind: 'other', companyDomain: 'acme.com', message: 'last one' };
  assert.equal((await submit(body, c.headers)).statusCode, 200);
  const over = await submit(body, c.headers);
  assert.equal(over.statusCode, 409);
  assert.match(over.json().message, new RegExp(`${MAX_OPEN_FEEDBACK_PER_CLIENT} open feedback reports`));
  assert.equal((await submit(body)).statusCode, 200, 'another client is not held by it');
});
