// POST /api/detect: uploaded artifacts and a URL fetched from a local web server, with the
// evidence in the `stacklens detect --json` shape; the plan gate (ai permission), the body
// cap (413), bad input (400 naming the field), refused addresses and unreachable sites.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { detectTechnologies } from '../../src/services/detect.ts';
import { fetchSite } from '../../src/detect/collect/index.ts';
import { startDnsStub } from '../helpers/collect.ts';

const HTML = '<html><head><meta name="generator" content="WordPress 6.5.2"><script src="https://js.stripe.com/v3/"></script></head><body>Shop</body></html>';

let t: TestApp;
let full: TestClient;
let basic: TestClient;
let server: http.Server;
let port: number;
before(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-powered-by': 'PHP/8.2.1', 'set-cookie': '_ga=GA1.2.3.4; Path=/' }).end(HTML);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  // The local fixture server is a private address: this deployment allows private networks.
  t = await createTestApp({ env: { DETECT_BODY_LIMIT_BYTES: '4096', DETECT_ALLOW_PRIVATE_NETWORKS: 'true', DETECT_TIMEOUT_MS: '5000' } });
  // As `serve` does: the threads compile the catalog before the first call, not on its 5 s clock.
  await t.app.detector.start();
  full = await createTestClient(t.db, 'full');
  basic = await createTestClient(t.db, 'basic');
});
after(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

const post = (payload: unknown, client: TestClient = full) =>
  t.app.inject({ method: 'POST', url: '/api/detect', headers: { ...client.headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
const names = (body: { technologies: { name: string }[] }) => body.technologies.map((x) => x.name);

test('artifacts: the technologies of the uploaded site, each with its evidence', async () => {
  const res = await post({
    artifacts: {
      domain: 'shop.example',
      url: 'https://shop.example/',
      headers: { 'X-Powered-By': 'PHP/8.2.1' },
      html: HTML,
      dns: { MX: ['1 aspmx.l.google.com.'] },
    },
  });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.domain, 'shop.example');
  for (const n of ['WordPress', 'Stripe', 'PHP', 'Google Workspace']) assert.ok(names(body).includes(n), `${n} in ${names(body)}`);
  const wp = body.technologies.find((x: { name: string }) => x.name === 'WordPress');
  assert.equal(wp.version, '6.5.2');
  assert.deepEqual(Object.keys(wp), ['name', 'vendorDomain', 'category', 'version', 'confidence', 'evidence']);
  assert.equal(wp.evidence[0].source, 'meta');
  assert.equal(wp.evidence[0].url, 'https://shop.example/');
  assert.ok(wp.evidence[0].excerpt.length <= 200 && wp.evidence[0].ruleId.startsWith('WordPress/'));
  // One null convention with the stored evidence (an Observation is this item and its seenAt): a DNS
  // record has no page and this one no version, both null rather than absent.
  const mx = body.technologies.find((x: { name: string }) => x.name === 'Google Workspace').evidence[0];
  assert.deepEqual(Object.keys(mx), ['source', 'url', 'ruleId', 'excerpt', 'version', 'weight']);
  assert.deepEqual([mx.source, mx.url, mx.version], ['dns', null, null]);
  const strict = (await post({ artifacts: { domain: 'shop.example', html: HTML }, minConfidence: 0.99 })).json();
  assert.ok(strict.technologies.every((x: { confidence: number }) => x.confidence >= 0.99));
});

test('url: the service fetches the site (here a local server this deployment allows) and detects from what it got', async () => {
  const res = await post({ url: `http://127.0.0.1:${port}/` });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.domain, '127.0.0.1');
  for (const n of ['WordPress', 'Stripe', 'PHP', 'Google Analytics']) assert.ok(names(body).includes(n), `${n} in ${names(body)}`);
  const ga = body.technologies.find((x: { name: string }) => x.name === 'Google Analytics');
  assert.equal(ga.evidence[0].source, 'cookie');
});

test('a site that cannot be fetched is a 422 naming the reason', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const res = await post({ url: `http://127.0.0.1:${closedPort}/` });
  assert.equal(res.statusCode, 422, res.body);
  assert.match(res.json().message, /^url: .* could not be fetched \(\w+\)/);
});

test('SSRF: by default a loopback or private target is refused with a 400 naming url', async () => {
  for (const url of [`http://127.0.0.1:${port}/`, 'http://2130706433/', 'http://[::1]/', 'http://10.1.2.3/', 'http://[::127.0.0.1]/']) {
    await assert.rejects(detectTechnologies({ url }, { timeoutMs: 3000 }), (err: Error & { status?: number }) => {
      assert.equal(err.status, 400, `${url}: ${err.message}`);
      assert.match(err.message, /^url: refused \(blocked_\w+\)/);
      return true;
    });
  }
});

test('SSRF: a name that resolves to a private address is refused without saying which address', async () => {
  const dns = await startDnsStub({ 'intranet.example': { A: ['10.20.30.40'] }, 'compat.example': { AAAA: ['::127.0.0.1'] } });
  try {
    // The service's own fetch, pointed at a local DNS server.
    const fetch = (url: string, signal: AbortSignal) => fetchSite(url, { dns: { servers: [dns.server] }, signal, robots: false, retries: 0 });
    for (const name of ['intranet.example', 'compat.example']) {
      await assert.rejects(detectTechnologies({ url: name }, { timeoutMs: 3000, fetch }), (err: Error & { status?: number }) => {
        assert.equal(err.status, 400, err.message);
        assert.equal(err.message, `url: refused (blocked_non_public_address): ${name} does not resolve to a public address; only public addresses are fetched`);
        return true;
      });
    }
  } finally {
    await dns.close();
  }
});

test('bad input: 400 naming the field', async () => {
  const cases: Array<[unknown, RegExp]> = [
    [{}, /^url: give url/],
    [{ url: 'shop.example', artifacts: { domain: 'shop.example' } }, /^artifacts: give url or artifacts, not both/],
    [{ artifacts: { domain: 'shop.example', status: 'ok' } }, /body\.artifacts\.status/],
    [{ artifacts: { domain: 'shop.example', colour: 'red' } }, /body\.artifacts/],
    [{ url: 'not a domain at all' }, /^url: 'not a domain at all' is neither a domain nor an http\(s\) URL/],
    [{ url: 'shop.example', minConfidence: 2 }, /body\.minConfidence/],
    [{ url: 'shop.example', extra: 1 }, /extra/],
  ];
  for (const [payload, message] of cases) {
    const res = await post(payload);
    assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
    assert.match(res.json().message, message, JSON.stringify(payload));
  }
});

test('a body over DETECT_BODY_LIMIT_BYTES is a 413', async () => {
  const res = await post({ artifacts: { domain: 'big.example', html: `<html>${'x'.repeat(5000)}</html>` } });
  assert.equal(res.statusCode, 413, res.body);
  assert.equal(res.json().status, 413);
});

test('plan-gated: a plan without the ai permission gets 403; no credentials 401', async () => {
  const refused = await post({ artifacts: { domain: 'shop.example', html: HTML } }, basic);
  assert.equal(refused.statusCode, 403);
  assert.match(refused.json().message, /Permission 'ai' is required/);
  const anonymous = await t.app.inject({
    method: 'POST',
    url: '/api/detect',
    headers: { 'content-type': 'application/json' },
    payload: '{"url":"shop.example"}',
  });
  assert.equal(anonymous.statusCode, 401);
});
