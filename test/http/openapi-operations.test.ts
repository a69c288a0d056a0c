// The API reference per operation, from the records: operationId = record id, summary,
// description and a declared tag; X-On-Behalf-Of-User required where every call needs it;
// exports described per media type (JSON page and the CSV/JSON Lines file side by side).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { OPERATIONS } from '../../src/schemas/operations.ts';
import { isUnconditional, OPERATION_TAGS } from '../../src/schemas/operation.ts';

let t: TestApp;
let doc: any;
before(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
});
after(() => t.close());

const documented = (method: string, path: string) => doc.paths[`/api${path.replace(/:(\w+)/g, '{$1}')}`]?.[method.toLowerCase()];

test('every operation: operationId, summary, description and its tag', () => {
  for (const op of OPERATIONS) {
    for (const a of [{ id: op.id, path: op.http.path, method: op.http.method }, ...(op.http.aliases ?? [])]) {
      const d = documented(a.method ?? op.http.method, a.path ?? op.http.path);
      assert.ok(d, `${a.id} is documented`);
      assert.equal(d.operationId, a.id);
      assert.ok(d.summary && d.description, `${a.id}: summary and description`);
      assert.deepEqual(d.tags, [op.tag]);
    }
  }
});

test('the tags used are the tags declared, each with a description', () => {
  const used = new Set<string>();
  for (const item of Object.values<any>(doc.paths)) for (const op of Object.values<any>(item)) for (const tag of op.tags ?? []) used.add(tag);
  const declared = doc.tags as { name: string; description: string }[];
  assert.deepEqual(declared.map((x) => x.name).sort(), [...used].sort());
  assert.ok(declared.every((x) => x.description));
  assert.ok([...used].every((name) => OPERATION_TAGS.some((x) => x.name === name)));
});

test('X-On-Behalf-Of-User is required where every call is attributed, optional where only exports are', () => {
  for (const op of OPERATIONS.filter((o) => o.attributed)) {
    const header = documented(op.http.method, op.http.path).parameters.find((p: any) => p.in === 'header' && p.name === 'x-on-behalf-of-user');
    assert.ok(header, op.id);
    assert.equal(header.required, isUnconditional(op.permission), op.id);
    assert.equal(header.schema.format, 'email');
  }
  const purchase = documented('POST', '/profiles/purchase');
  assert.equal(purchase.parameters.find((p: any) => p.name === 'idempotency-key').required, false, 'the Idempotency-Key is optional');
});

test('exports: each media type has its own schema (JSON page, or the file as a string)', () => {
  for (const op of OPERATIONS.filter((o) => o.stream)) {
    const ok = documented(op.http.method, op.http.path).responses['200'];
    const media = Object.keys(ok.content).sort();
    if (op.stream!.when) {
      assert.deepEqual(media, ['application/json', op.stream!.media].sort(), op.id);
      assert.ok(ok.content['application/json'].schema.$ref || ok.content['application/json'].schema.type, op.id);
      assert.ok(
        documented(op.http.method, op.http.path).parameters.some((p: any) => p.in === 'query' && p.name === op.stream!.when),
        `${op.id}: the ${op.stream!.when} parameter`,
      );
    } else {
      // alsoMedia: one stream in another format too (enrichment: JSON Lines or CSV).
      assert.deepEqual(media, [op.stream!.media, ...(op.stream!.alsoMedia ?? [])].sort(), op.id);
    }
    for (const m of [op.stream!.media, ...(op.stream!.alsoMedia ?? [])]) assert.equal(ok.content[m].schema.type, 'string', `${op.id} ${m}`);
  }
});
