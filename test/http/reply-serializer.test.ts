// Reply writing: JSON.stringify in production; with checkReplies (on in every test) a reply
// that breaks its schema, or is not exactly the schema's shape, fails instead of being sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { replySerializerCompiler, ReplyContractError } from '../../src/http/reply-serializer.ts';
import { createTestApp } from '../helpers/app.ts';
import { createTestClient } from '../helpers/auth.ts';

const sample = z.object({
  name: z.string(),
  score: z.number().nullable(),
  tags: z.array(z.string()),
  since: z.string().optional(),
});

const compile = (checkReplies: boolean) =>
  replySerializerCompiler({ checkReplies })({ schema: sample, method: 'GET', url: '/x', httpStatus: '200' } as never) as (data: unknown) => string;

test('a reply of exactly the contract shape is written as JSON.stringify writes it, checked or not', () => {
  for (const value of [
    { name: 'x "q"\n', score: 0.5, tags: ['t'] },
    { name: 'y', score: null, tags: [], since: '2026-01-01' },
  ]) {
    assert.equal(compile(true)(value), JSON.stringify(value));
    assert.equal(compile(false)(value), JSON.stringify(value));
  }
});

test('with checkReplies, a wrong type or an extra field is an error, not a reply', () => {
  assert.throws(() => compile(true)({ name: 'x', score: 'high', tags: [] }), ReplyContractError);
  assert.throws(() => compile(true)({ name: 'x', score: 1, tags: [], internalId: 7 }), /not exactly its schema's shape/);
  // Without the check nothing is stripped: the services are held to the shape by the tests.
  assert.match(compile(false)({ name: 'x', score: 1, tags: [], internalId: 7 }), /internalId/);
});

test('the suite runs with the check on, through the real routes', async (t) => {
  const h = await createTestApp();
  t.after(() => h.close());
  assert.equal(h.config.checkReplies, true);
  const client = await createTestClient(h.db);
  const res = await h.app.inject({ method: 'GET', url: '/api/categories', headers: client.headers });
  assert.equal(res.statusCode, 200);
  assert.ok(Array.isArray(res.json()));
});
