// Failed authentications per client address: bad API keys, bad bearer tokens and ended
// console sessions count against the address (IPv6: its /64) on /api and /mcp; past
// AUTH_MAX_FAILURES_PER_ADDRESS in the window they are answered 429 with Retry-After in the
// service's error shape. A valid credential from the same address still passes, requests
// without credentials are not counted, and the window ends.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { setClock } from '../../src/clock.ts';

let t: TestApp;
let client: TestClient;
before(async () => {
  t = await createTestApp({ env: { AUTH_MAX_FAILURES_PER_ADDRESS: '5', AUTH_FAILURE_WINDOW_SECONDS: '60' } });
  client = await createTestClient(t.db, 'full');
});
after(() => t.close());
afterEach(() => setClock());

const BAD_KEY = `sl_AAAAAAAAAAAA_${'A'.repeat(43)}`;
const me = (remoteAddress: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/me', headers, remoteAddress });
const mcp = (remoteAddress: string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/mcp',
    remoteAddress,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    payload: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
  });

test('past the limit, failed authentications from an address get 429 with Retry-After (error shape); a valid key from it still passes; other addresses are unaffected', async () => {
  let at = Date.now();
  setClock(() => at);
  const ip = '10.30.0.1';
  for (let i = 0; i < 5; i++) assert.equal((await me(ip, { 'x-api-key': BAD_KEY })).statusCode, 401, `failure ${i + 1}`);
  const refused = await me(ip, { 'x-api-key': BAD_KEY });
  assert.equal(refused.statusCode, 429);
  assert.equal(refused.json().status, 429);
  assert.equal(refused.json().error, 'Too Many Requests');
  assert.match(refused.json().message, /^Too many failed authentications from this address \(5 in 60 s\); check the credential, then retry after \d+ s$/);
  assert.equal(Number(refused.headers['retry-after']), 60);
  // Every kind of bad credential is refused alike now: a bad token, a malformed Authorization header, /mcp.
  assert.equal((await me(ip, { authorization: 'Bearer not.a.jwt' })).statusCode, 429);
  assert.equal((await me(ip, { authorization: 'Digest xyz' })).statusCode, 429);
  const rpc = await mcp(ip, { 'x-api-key': BAD_KEY });
  assert.equal(rpc.statusCode, 429);
  assert.ok(Number(rpc.headers['retry-after']) >= 1);
  // Someone else's failures do not refuse a valid credential from the same address.
  assert.equal((await me(ip, client.headers)).statusCode, 200);
  assert.equal((await mcp(ip, client.headers)).statusCode, 200);
  // No credentials at all is a 401 telling how to authenticate, not a failure counted.
  assert.equal((await me(ip, {})).statusCode, 401);
  // Another address is counted apart.
  assert.equal((await me('10.30.0.2', { 'x-api-key': BAD_KEY })).statusCode, 401);
  // The window ends.
  at += 60_001;
  assert.equal((await me(ip, { 'x-api-key': BAD_KEY })).statusCode, 401);
});

test('an IPv6 client counts by its /64: new addresses in it do not start afresh', async () => {
  for (let i = 1; i <= 5; i++) assert.equal((await me(`2001:db8:30:1::${i}`, { authorization: 'Bearer not.a.jwt' })).statusCode, 401);
  assert.equal((await me('2001:db8:30:1:abcd::9', { authorization: 'Bearer not.a.jwt' })).statusCode, 429);
  assert.equal((await me('2001:db8:30:2::1', { authorization: 'Bearer not.a.jwt' })).statusCode, 401);
});

test('ended console sessions count as failures too; requests without any credential never do', async () => {
  const ip = '10.31.0.1';
  for (let i = 0; i < 10; i++) assert.equal((await me(ip, {})).statusCode, 401);
  const ended = { cookie: `stacklens_session=${'x'.repeat(43)}` };
  for (let i = 0; i < 5; i++) assert.equal((await me(ip, ended)).statusCode, 401);
  assert.equal((await me(ip, ended)).statusCode, 429);
});
