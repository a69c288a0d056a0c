// The detect_technologies tool over a real SDK client: a site fetched from a local server (this
// deployment allows private networks), the answer's structure and summary, the plan gate, and
// a refused target as an isError result naming the argument.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { connectMcp } from '../helpers/mcp.ts';

let t: TestApp;
let server: http.Server;
let port: number;
before(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<html><head><meta name="generator" content="WordPress 6.5.2"><script src="https://js.stripe.com/v3/"></script></head></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  t = await createTestApp({ env: { DETECT_ALLOW_PRIVATE_NETWORKS: 'true', DETECT_TIMEOUT_MS: '5000' } });
  // As `serve` does: the threads compile the catalog before the first call, not on its 5 s clock.
  await t.app.detector.start();
});
after(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

test('detect_technologies: the technologies of the fetched site, at most two evidence items each, and a one-line summary', async () => {
  const { call, client } = await connectMcp(t, 'full', undefined, undefined, undefined, 'all');
  const listed = (await client.listTools()).tools.find((x) => x.name === 'detect_technologies');
  assert.deepEqual(listed?.inputSchema.required, ['url']);
  const answer = await call('detect_technologies', { url: `http://127.0.0.1:${port}/` });
  assert.equal(answer.isError, false, answer.text);
  const s = answer.json() as { domain: string; technologies: { name: string; version?: string; evidence: unknown[] }[] };
  assert.equal(s.domain, '127.0.0.1');
  const wp = s.technologies.find((x) => x.name === 'WordPress');
  assert.equal(wp?.version, '6.5.2');
  assert.ok(s.technologies.some((x) => x.name === 'Stripe'));
  assert.ok(s.technologies.every((x) => x.evidence.length >= 1 && x.evidence.length <= 2));
  assert.match(answer.text, /^127\.0\.0\.1: .*WordPress 6\.5\.2 \(\d\.\d\d\)/);
  await client.close();
});

test('detect_technologies: needs the ai permission; a bad or unreachable target is an isError result naming url', async () => {
  const basic = await connectMcp(t, 'basic');
  const refused = await basic.call('detect_technologies', { url: 'example.com' });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /^Error 403: Permission 'ai' is required/);
  await basic.client.close();
  const full = await connectMcp(t, 'full');
  const bad = await full.call('detect_technologies', { url: 'not a domain' });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /url: 'not a domain' is neither a domain nor an http\(s\) URL/);
  // A site that does not answer: 422 naming url and the cause, with a hint about that, not about idempotency keys.
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const unreachable = await full.call('detect_technologies', { url: `http://127.0.0.1:${closedPort}/` });
  assert.equal(unreachable.isError, true);
  assert.match(unreachable.text, /^Error 422: url: http:\/\/127\.0\.0\.1:\d+\/ could not be fetched \(\w+\)/);
  assert.doesNotMatch(unreachable.text, /idempotency/i);
  assert.match(unreachable.text, /the message says why/);
  const missing = await full.call('detect_technologies', {});
  assert.equal(missing.isError, true);
  assert.match(missing.text, /url/);
  await full.client.close();
});
