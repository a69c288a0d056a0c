// The console's Ask AI view: how a failed call reads. A prompt too broad to answer in time
// is shown as advice on the prompt (the server's message, without the HTTP retry hint);
// other failures keep the API's message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
// @ts-expect-error: the console's modules are JavaScript, type-checked by tsconfig.console.json, not by this project.
import { aiProblemOf } from '../../src/console/public/js/ai.js';

test('a too-broad prompt reads as advice on the prompt, with how to narrow it', () => {
  const problem = aiProblemOf({
    status: 503,
    message:
      'The prompt is too broad to answer within the time limit (understood: categories=CRM). Narrow it: name a product or vendor rather than a whole category, or add a country, industry or company size; or retry after Retry-After seconds',
  });
  assert.equal(problem.title, 'This prompt is too broad to answer in time.');
  assert.equal(
    problem.text,
    'The prompt is too broad to answer within the time limit (understood: categories=CRM). Narrow it: name a product or vendor rather than a whole category, or add a country, industry or company size.',
  );
});

test('other failures keep the API message (the generic error box)', () => {
  assert.equal(aiProblemOf({ status: 503, message: 'The database did not answer within the time limit; retry after Retry-After seconds' }), null);
  assert.equal(aiProblemOf({ status: 404, message: 'No company matches (understood: categories=CRM)' }), null);
  assert.equal(aiProblemOf(null), null);
});
