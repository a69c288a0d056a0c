import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app.ts';

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
  assert.equal(doc.servers[0].url, 'http://stacklens.test');
  assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKey', 'bearerAuth']);
  assert.equal(doc.components.securitySchemes.apiKey.name, 'X-API-Key');
  assert.deepEqual(doc.security, [{ bearerAuth: [] }, { apiKey: [] }]);
  assert.ok(doc.tags.some((tag: { name: string }) => tag.name === 'Company products'));
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
  assert.deepEqual(Object.keys(params).sort(), ['companyDomain', 'export', 'mainCategory', 'mainCategoryId', 'page', 'size', 'x-on-behalf-of-user']);
  assert.deepEqual(params.size.schema, { type: 'integer', minimum: 1, maximum: 200 });
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

test('the document passes `redocly lint` without errors or warnings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stacklens-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const run = spawnSync(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--format=json'], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const report = JSON.parse(run.stdout);
    assert.equal(report.totals.errors, 0, run.stdout);
    // The two /.well-known documents (RFC 7517, RFC 8414) cannot fail with a 4xx: the one
    // rule that asks for one is waived there, and only there.
    const problems = (report.problems ?? []).filter(
      (p: { ruleId: string; location?: { pointer?: string }[] }) =>
        !(p.ruleId === 'operation-4xx-response' && p.location?.some((l) => l.pointer?.includes('~1.well-known~1'))),
    );
    assert.deepEqual(problems.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`), []);
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
