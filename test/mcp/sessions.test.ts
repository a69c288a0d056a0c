import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore } from '../../src/mcp/sessions.ts';

test('sessions expire after the idle TTL, and use keeps them alive', () => {
  let now = 0;
  const store = new SessionStore(1000, 5, () => now);
  const a = store.create('cli_a');
  now = 900;
  assert.ok(store.get(a.id), 'used within the TTL');
  now = 1800;
  assert.ok(store.get(a.id), 'the last use restarted the idle clock');
  now = 2801;
  assert.equal(store.get(a.id), undefined, 'idle past the TTL');
  store.close();
});

test('the cap is per client and the sweep frees expired sessions', () => {
  let now = 0;
  const store = new SessionStore(1000, 2, () => now);
  const a1 = store.create('a');
  now = 1;
  const a2 = store.create('a');
  now = 2;
  const b1 = store.create('b');
  now = 3;
  store.get(a1.id); // a1 is now the most recently used of client a
  now = 4;
  store.create('a'); // evicts a2, not a1, and never b1
  assert.ok(store.get(a1.id));
  assert.equal(store.get(a2.id), undefined);
  assert.ok(store.get(b1.id));
  now = 10_000;
  store.sweep();
  assert.equal(store.size, 0);
  store.close();
});
