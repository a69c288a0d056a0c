// The console's static door (no browser): / redirects a browser to /console, the page carries
// a CSP whose script hash matches its import map, only the listed vendor files leave
// node_modules, and nothing outside src/console/public is served.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

test('/ redirects a browser to /console; an API client gets a JSON 404 naming the doors', async () => {
  const browser = await t.app.inject({ url: '/', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  assert.equal(browser.statusCode, 302);
  assert.equal(browser.headers.location, '/console');
  const client = await t.app.inject({ url: '/', headers: { accept: 'application/json' } });
  assert.equal(client.statusCode, 404);
  assert.deepEqual(Object.keys(client.json()).sort(), ['error', 'message', 'status']);
  assert.match(client.json().message, /\/api.*\/docs.*\/console/u);
});

test('the console page: HTML, strict CSP allowing exactly its import map by hash', async () => {
  const res = await t.app.inject({ url: '/console' });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/u);
  const csp = String(res.headers['content-security-policy']);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/u);
  const map = /<script type="importmap">([\s\S]*?)<\/script>/u.exec(res.body)![1]!;
  const hash = createHash('sha256').update(map).digest('base64');
  assert.ok(csp.includes(`script-src 'self' 'sha256-${hash}'`), csp);
  assert.ok(csp.includes("frame-ancestors 'none'"));
  // No other inline script in the page.
  assert.equal(res.body.match(/<script(?![^>]*\bsrc=)[^>]*>/gu)?.length, 1);
  // Every module the import map names is served.
  for (const url of Object.values(JSON.parse(map).imports as Record<string, string>)) {
    const file = await t.app.inject({ url });
    assert.equal(file.statusCode, 200, url);
    assert.match(String(file.headers['content-type']), /javascript/u, url);
  }
});

test('assets: our files are served; the page itself, other vendor files and traversal are not', async () => {
  const app = await t.app.inject({ url: '/console/assets/js/app.js' });
  assert.equal(app.statusCode, 200);
  assert.match(String(app.headers['content-type']), /javascript/u);
  for (const url of ['/console/vendor/package.json', '/console/vendor/..%2f..%2fpackage.json', '/console/assets/../../../package.json', '/console/assets/%2e%2e/%2e%2e/index.html']) {
    const res = await t.app.inject({ url });
    assert.ok([400, 403, 404, 405].includes(res.statusCode), `${url} → ${res.statusCode}`);
    assert.doesNotMatch(res.body, /"dependencies"/u, url);
  }
});
