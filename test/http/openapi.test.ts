import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { VERSION } from '../../src/version.ts';

let t: TestApp;
let doc: any;
before(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  assert.equal(res.statusCode, 200, 'the reference is public');
  doc = res.json();
});
after(() => t.close());

const OPERATIONS: [string, string][] = [
  ['post', '/api/companies/search'],
  ['post', '/api/companies/{companyDomain}/products/paged'],
  ['get', '/api/companies/{companyDomain}/products/paged'],
  ['get', '/api/companies/{companyDomain}/products'],
  ['get', '/api/companies/{companyDomain}/products/json'],
  ['get', '/api/vendors'],
  ['get', '/api/vendors/{vendorDomain}/products'],
  ['get', '/api/categories'],
  ['get', '/api/categories/{categoryId}'],
  ['get', '/api/dictionary/product-categories'],
  ['get', '/api/industries'],
  ['get', '/api/industries/{industryId}'],
  ['get', '/api/companies/{companyDomain}/firmographics'],
  ['get', '/api/companies/{companyDomain}/feed'],
];

test('OpenAPI 3.1 with servers, both security schemes and tags', () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, VERSION, 'the version of package.json');
  // Relative: "Try it" calls whatever host the document was fetched from, not PUBLIC_URL.
  assert.deepEqual(
    doc.servers.map((s: { url: string }) => s.url),
    ['/'],
  );
  assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKey', 'bearerAuth']);
  assert.equal(doc.components.securitySchemes.apiKey.name, 'X-API-Key');
  assert.deepEqual(doc.security, [{ bearerAuth: [] }, { apiKey: [] }]);
  assert.ok(doc.tags.some((tag: { name: string }) => tag.name === 'Company products'));
  const declared = new Set(doc.tags.map((tag: { name: string }) => tag.name));
  const used = new Set(Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item).flatMap((op) => op.tags ?? [])));
  assert.deepEqual(
    [...used].filter((name) => !declared.has(name)),
    [],
    'every tag used is declared',
  );
  assert.deepEqual(
    [...declared].filter((name) => !used.has(name)),
    [],
    'every tag declared is used',
  );
  assert.ok(!('/api/openapi.json' in doc.paths), 'the document itself is not an operation');
});

test('every operation is documented with its parameters, responses and errors', () => {
  for (const [method, path] of OPERATIONS) {
    const op = doc.paths[path]?.[method];
    assert.ok(op, `${method.toUpperCase()} ${path} is missing`);
    assert.ok(op.operationId && op.summary && op.tags?.length, `${path}: operationId, summary, tags`);
    for (const status of ['200', '400', '401', '404', '429']) assert.ok(op.responses[status], `${path} lacks ${status}`);
  }
  // Every /api operation, the other engineers' included, documents its errors.
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (path.startsWith('/api/')) assert.ok(op.responses['401'], `${method} ${path} lacks 401`);
      assert.ok(op.operationId, `${method} ${path} has an operationId (declared or derived)`);
    }
  }
  const paged = doc.paths['/api/companies/{companyDomain}/products/paged'].get;
  const params = Object.fromEntries(paged.parameters.map((p: { name: string }) => [p.name, p]));
  assert.deepEqual(Object.keys(params).sort(), [
    'asOf',
    'companyDomain',
    'export',
    'include',
    'mainCategory',
    'mainCategoryId',
    'page',
    'size',
    'x-on-behalf-of-user',
  ]);
  assert.deepEqual(params.size.schema, { type: 'integer', minimum: 1, maximum: 200, default: 20 });
  assert.equal(params.mainCategory.schema.type, 'array');
  assert.ok(paged.responses['200'].content['text/csv']);
  assert.match(paged.description, /LOW 0-33, MEDIUM 34-66, HIGH 67-100/);
  const search = doc.paths['/api/companies/search'].post;
  assert.equal(search.requestBody.required, false, 'the search works without a body');
  assert.equal(search.requestBody.content['application/json'].schema.$ref, '#/components/schemas/CompanySearchRequestInput');
  assert.match(JSON.stringify(doc.components.schemas.CompanySearchRequestInput), /RECENT within 90 days/);
  assert.equal(doc.components.schemas.CompanyProduct.properties.level0CategoryId.type, 'string');
  assert.ok(doc.paths['/api/companies/{companyDomain}/products/json'].get.responses['200'].content['application/jsonl']);
});

test("one Error schema for every 4xx/5xx (the token endpoint's RFC 6749 400/401 aside); 503 (starting, shutting down, database unavailable) on every operation", () => {
  assert.deepEqual(doc.components.schemas.Error.required, ['status', 'error', 'message']);
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      assert.ok(op.responses['503'], `${method} ${path} documents the 503`);
      assert.match(op.responses['503'].description, /database is down/, `${method} ${path}: the 503 names database faults`);
      for (const [status, response] of Object.entries<any>(op.responses)) {
        if (Number(status) < 400) continue;
        // The token endpoint answers its 400 and 401 in the RFC 6749 shape, documented as such.
        if (path === '/oauth/token' && (status === '400' || status === '401')) {
          assert.deepEqual(response.content['application/json'].schema.required, ['error', 'error_description'], `${method} ${path} ${status}`);
          assert.equal(response.content['application/json'].example.error, status === '401' ? 'invalid_client' : 'invalid_request');
          continue;
        }
        assert.deepEqual(
          response.content,
          { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: response.content['application/json'].example } },
          `${method} ${path} ${status}`,
        );
        assert.equal(response.content['application/json'].example.status, Number(status));
      }
    }
  }
});

test('response headers are documented where the server sends them', () => {
  assert.deepEqual(Object.keys(doc.components.headers).sort(), [
    'Cache-Control',
    'Content-Disposition',
    'ETag',
    'Idempotent-Replayed',
    'RateLimit',
    'RateLimit-Policy',
    'Retry-After',
    'X-Request-Id',
  ]);
  const names = (response: any) => Object.keys(response.headers ?? {}).sort();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const where = `${method} ${path} ${status}`;
        assert.ok(names(response).includes('X-Request-Id'), where);
        const limited = path.startsWith('/api/') && status !== '401' && status !== '503';
        assert.equal(names(response).includes('RateLimit') && names(response).includes('RateLimit-Policy'), limited, where);
        assert.equal(names(response).includes('Retry-After'), status === '429' || status === '503', where);
        assert.equal(names(response).includes('Content-Disposition'), Boolean(response.content?.['text/csv']), where);
        const revalidated = Boolean(op.responses['304']) && (status === '200' || status === '304');
        assert.equal(names(response).includes('ETag') && names(response).includes('Cache-Control'), revalidated, where);
      }
    }
  }
  assert.ok(names(doc.paths['/api/profiles/purchase'].post.responses['200']).includes('Idempotent-Replayed'));
  assert.ok(names(doc.paths['/api/categories'].get.responses['200']).includes('Content-Disposition'));
});

test('every operation has a request or response example', () => {
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const examples = [
        ...(op.parameters ?? []).filter((p: any) => p.example !== undefined),
        ...Object.values<any>(op.requestBody?.content ?? {}).filter((m) => m.example !== undefined),
        ...Object.values<any>(op.responses['200']?.content ?? {}).filter((m) => m.example !== undefined),
      ];
      assert.ok(examples.length > 0, `${method} ${path} has an example`);
      if (op.responses['200']?.content?.['application/json'])
        assert.ok(op.responses['200'].content['application/json'].example !== undefined, `${method} ${path}: 200 example`);
    }
  }
});

test('the document passes `redocly lint` without errors or warnings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stacklens-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    // The repository's redocly.yaml: the recommended rules, each one that is off with its reason.
    const run = spawnSync(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--config', 'redocly.yaml', '--format=json'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(
      (report.problems ?? []).map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`),
      [],
    );
    assert.equal(report.totals.errors, 0, run.stdout);
    assert.equal(report.totals.warnings, 0, run.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('/docs renders the reference (Swagger UI)', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/docs/' });
  assert.equal(res.statusCode, 200);
  assert.match(res.headers['content-type'] as string, /text\/html/);
  assert.match(res.body, /swagger-ui/i);
  const json = await t.app.inject({ method: 'GET', url: '/docs/json' });
  assert.equal(json.json().openapi, '3.1.0');
});
