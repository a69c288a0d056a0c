// The console's static door (no browser): / redirects a browser to /console, the page carries
// a CSP whose script hash matches its import map, only the listed vendor files leave
// node_modules, nothing outside src/console/public is served, and js/choices.js is the
// server's own lists of bands, cohorts and roles.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { EMPLOYEE_BAND_LABELS, REVENUE_BAND_LABELS } from '../../src/bands.ts';
import { COHORT_TYPES } from '../../src/schemas/intelligence.ts';
import { ROLES } from '../../src/schemas/roles.ts';
import { CHOICES_URL } from '../../src/http/routes/console.ts';

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
  // And every module it preloads.
  for (const [, url] of res.body.matchAll(/<link rel="modulepreload" href="([^"]+)">/gu)) {
    const file = await t.app.inject({ url: url! });
    assert.equal(file.statusCode, 200, url);
    assert.match(String(file.headers['content-type']), /javascript/u, url);
  }
});

test('js/choices.js: the bands, cohorts and roles the API validates with, as the console imports them', async () => {
  const res = await t.app.inject({ url: CHOICES_URL });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/javascript/u);
  const choices = await import(`data:text/javascript,${encodeURIComponent(res.body)}`);
  assert.deepEqual(
    { ...choices },
    {
      EMPLOYEE_BANDS: [...EMPLOYEE_BAND_LABELS],
      REVENUE_BANDS: [...REVENUE_BAND_LABELS],
      COHORTS: [...COHORT_TYPES],
      ROLES: [...ROLES],
    },
  );
  // The names its types declare for the console's type-check are the names it exports.
  const declared = [
    ...readFileSync(join(import.meta.dirname, '../../src/console/public/js/choices.d.ts'), 'utf8').matchAll(/^export declare const (\w+)/gmu),
  ].map((m) => m[1]);
  assert.deepEqual(Object.keys(choices).sort(), declared.sort());
  // Revalidated like the files beside it.
  const again = await t.app.inject({ url: CHOICES_URL, headers: { 'if-none-match': String(res.headers.etag) } });
  assert.equal(again.statusCode, 304);
});

test('assets: our files are served; the page itself, other vendor files and traversal are not', async () => {
  const app = await t.app.inject({ url: '/console/assets/js/app.js' });
  assert.equal(app.statusCode, 200);
  assert.match(String(app.headers['content-type']), /javascript/u);
  for (const url of [
    '/console/vendor/package.json',
    '/console/vendor/..%2f..%2fpackage.json',
    '/console/assets/../../../package.json',
    '/console/assets/%2e%2e/%2e%2e/index.html',
  ]) {
    const res = await t.app.inject({ url });
    assert.ok([400, 403, 404, 405].includes(res.statusCode), `${url} → ${res.statusCode}`);
    assert.doesNotMatch(res.body, /"dependencies"/u, url);
  }
});
