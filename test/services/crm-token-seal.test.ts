// Sealed CRM tokens: the token comes back only with the same key and owner (client, CRM); a
// sealed token is never the token, and two seals of one token differ (a fresh IV each time).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openToken, sealToken, tokenHint } from '../../src/services/crm/token-seal.ts';

const key = Buffer.alloc(32, 1);
const owner = { clientId: 'cli_a', crm: 'hubspot' };
const token = 'pat-na1-0123456789abcdef-TAIL';

test('seal and open', () => {
  const a = sealToken(key, token, owner);
  const b = sealToken(key, token, owner);
  assert.notEqual(a, b);
  assert.ok(a.startsWith('v1.') && !a.includes(token) && !a.includes('TAIL'));
  assert.equal(openToken(key, a, owner), token);
  assert.equal(openToken(Buffer.alloc(32, 2), a, owner), undefined, 'another key');
  assert.equal(openToken(key, a, { clientId: 'cli_b', crm: 'hubspot' }), undefined, "another client's row");
  assert.equal(openToken(key, a, { clientId: 'cli_a', crm: 'salesforce' }), undefined, 'another CRM');
  const flipped = a.slice(0, -2) + (a.at(-2) === 'A' ? 'B' : 'A') + a.at(-1);
  assert.equal(openToken(key, flipped, owner), undefined, 'edited');
  assert.equal(openToken(key, token, owner), undefined, 'a clear token is not taken for a sealed one');
});

test('the hint shows 4 characters of a long token only', () => {
  assert.equal(tokenHint(token), '…TAIL');
  assert.equal(tokenHint('short-token'), '…');
});
