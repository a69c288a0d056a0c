import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cursorKey, signCursor, verifyCursor } from '../../src/services/cursors.ts';
import { BadRequestError } from '../../src/errors.ts';

const key = cursorKey('secret');
const pos = { publishedAt: '2026-01-02T03:04:05.123456Z', id: 'fi_1' };

test('a signed cursor round-trips and is base64url', () => {
  const c = signCursor(key, 'cmp_1', pos);
  assert.match(c, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(verifyCursor(key, 'cmp_1', c), pos);
});

test('wrong key, wrong company, non-canonical spelling and garbage are BadRequest', () => {
  const c = signCursor(key, 'cmp_1', pos);
  assert.throws(() => verifyCursor(cursorKey('other'), 'cmp_1', c), BadRequestError);
  assert.throws(() => verifyCursor(key, 'cmp_2', c), /another company/);
  assert.throws(() => verifyCursor(key, 'cmp_1', `${c}=`), BadRequestError);
  assert.throws(() => verifyCursor(key, 'cmp_1', Buffer.from('[1,"cmp_1","x","y"]').toString('base64url')), BadRequestError);
  assert.throws(() => verifyCursor(key, 'cmp_1', ''), BadRequestError);
});
