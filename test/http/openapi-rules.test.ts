// Every rule the validator enforces is stated in the OpenAPI document: for each rule, values
// the server refuses (400) are invalid against the document, and values the document allows
// pass the rule on the server. Domains (shape, blank where optional, in bodies too), the
// search window (page × size, an extension: JSON Schema cannot bound a product), credits ≠ 0,
// audit instants (RFC 3339 as the server reads it) and usage days (real dates from 0001).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { normalizeDomain } from '../../src/domain.ts';
import { MAX_RESULT_WINDOW, RESULT_WINDOW_EXTENSION } from '../../src/schemas/common.ts';
import { AT_LEAST_ONE_OF_EXTENSION } from '../../src/schemas/ai.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let t: TestApp;
let admin: TestClient;
let doc: any;
let ajv: Ajv2020;
before(async () => {
  t = await createTestApp();
  admin = await createTestClient(t.db, 'full', undefined, 'admin');
  doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
  ajv = new Ajv2020({ strict: false, coerceTypes: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components });
});
after(() => t.close());

const absolute = (schema: unknown): any => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));

function param(path: string, method: string, name: string): any {
  const found = doc.paths[path][method].parameters.find((p: { name: string }) => p.name === name);
  assert.ok(found, `${method} ${path} documents ${name}`);
  return found.schema;
}

/** Whether the document allows the value under the schema. */
function documentAllows(schema: unknown, value: unknown): boolean {
  return ajv.validate(absolute(schema), value) as boolean;
}

const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { ...admin.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  });

/** The server refuses each value with a 400, and the document calls each invalid. */
async function refusedByBoth(schema: unknown, values: unknown[], send: (v: any) => Promise<{ statusCode: number; body: string }>) {
  for (const value of values) {
    const res = await send(value);
    assert.equal(res.statusCode, 400, `server on ${JSON.stringify(value)}: ${res.body}`);
    assert.equal(documentAllows(schema, value), false, `the document allows ${JSON.stringify(value)}, the server refuses it`);
  }
}

/** The document allows each value, and the server does not refuse it as invalid. */
async function allowedByBoth(schema: unknown, values: unknown[], send: (v: any) => Promise<{ statusCode: number; body: string }>) {
  for (const value of values) {
    assert.equal(documentAllows(schema, value), true, `the document refuses ${JSON.stringify(value)}`);
    const res = await send(value);
    assert.notEqual(res.statusCode, 400, `server on ${JSON.stringify(value)}: ${res.body}`);
  }
}

const BAD_DOMAINS = ['localhost', 'a..com', 'exa mple.com', '[::1]', '.com', 'com.', 'a@b@c.com', 'http://localhost/a.b'];
const GOOD_DOMAINS = ['example.com', 'Example.COM', 'http://user@www.example.com:8080/a b?x', 'example.com.', 'bücher.example', 'example\u3002com'];

test('domain parameters: a name the normalizer refuses is invalid in the document, in the path, the query and a body', async () => {
  const pathSchema = param('/api/companies/{companyDomain}/firmographics', 'get', 'companyDomain');
  const firmographics = (d: string) => call('GET', `/api/companies/${encodeURIComponent(d)}/firmographics`);
  await refusedByBoth(pathSchema, BAD_DOMAINS, firmographics);
  await allowedByBoth(pathSchema, GOOD_DOMAINS, firmographics);
  // An optional domain filter: blank means not given, in the document too.
  const vendorSchema = param('/api/companies/{companyDomain}/metrics/details', 'post', 'vendorDomain');
  const details = (d: string) =>
    call('POST', `/api/companies/example.com/metrics/details?cohortCompanyDomain=example.org&vendorDomain=${encodeURIComponent(d)}`);
  await refusedByBoth(vendorSchema, ['localhost', 'a..b'], details);
  await allowedByBoth(vendorSchema, ['', '  ', 'vendor.example'], details);
  // Domains in a body.
  const bodySchema = doc.paths['/api/companies/search'].post.requestBody.content['application/json'].schema;
  const search = (d: string) => call('POST', '/api/companies/search', { domains: [d] });
  await refusedByBoth(
    bodySchema,
    BAD_DOMAINS.map((d) => ({ domains: [d] })),
    (b) => search(b.domains[0]),
  );
});

test("the document's domain pattern never refuses a domain the server accepts (property, 2,000 domain-like strings)", () => {
  const pattern = new RegExp(param('/api/companies/{companyDomain}/firmographics', 'get', 'companyDomain').pattern, 'u');
  const piece = fc.constantFrom(
    'a',
    'b',
    'xn--bcher-kva',
    'ü',
    '-',
    '.',
    '..',
    '\u3002',
    '\uff0e',
    ' ',
    '/',
    ':',
    ':80',
    '@',
    'www.',
    'http://',
    'HTTPS://',
    '?',
    '#',
    'com',
    'EXAMPLE',
    '1',
    '[',
    ']',
    '\t',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
      const s = parts.join('');
      if (normalizeDomain(s) !== null) assert.ok(pattern.test(s), `the server accepts ${JSON.stringify(s)}, the document refuses it`);
    }),
    { numRuns: 2000, seed: 20261127 },
  );
});

test('the search window: page × size at or past the bound is refused by the server and stated in the document', async () => {
  for (const path of ['/api/companies/search', '/api/profiles/search']) {
    assert.equal(param(path, 'post', 'page')[RESULT_WINDOW_EXTENSION], MAX_RESULT_WINDOW, `${path}: the page parameter states the bound`);
  }
  const body = doc.components.schemas.CompanySearchRequestInput;
  assert.equal(body.properties.page[RESULT_WINDOW_EXTENSION], MAX_RESULT_WINDOW, 'the body page states it too');
  const within = (page: number, size: number) => page * size < param('/api/companies/search', 'post', 'page')[RESULT_WINDOW_EXTENSION];
  for (const [page, size] of [
    [50, 200],
    [500, 20],
    [9999, 2],
  ] as const) {
    assert.equal(within(page, size), false);
    assert.equal((await call('POST', `/api/companies/search?page=${page}&size=${size}`)).statusCode, 400);
  }
  for (const [page, size] of [
    [49, 200],
    [499, 20],
    [9999, 1],
  ] as const) {
    assert.equal(within(page, size), true);
    assert.equal((await call('POST', `/api/companies/search?page=${page}&size=${size}`)).statusCode, 200);
  }
});

test('a credit grant of 0 is refused by the server and invalid in the document', async () => {
  const path = '/api/admin/clients/{clientId}/credits';
  const schema = doc.paths[path].post.requestBody.content['application/json'].schema;
  const grant = (b: unknown) => call('POST', `/api/admin/clients/${admin.clientId}/credits`, b);
  await refusedByBoth(schema, [{ amount: 0, reason: 'x' }], grant);
  await allowedByBoth(
    schema,
    [
      { amount: 5, reason: 'x' },
      { amount: -1, reason: 'x' },
    ],
    grant,
  );
});

test('audit instants: what the server refuses is invalid in the document (format and pattern), any RFC 3339 offset is valid in both', async () => {
  const schema = param('/api/admin/audit', 'get', 'from');
  const audit = (v: string) => call('GET', `/api/admin/audit?from=${encodeURIComponent(v)}`);
  await refusedByBoth(
    schema,
    ['yesterday', '2024-01-01', '2024-01-01t00:00:00z', '2024-02-30T00:00:00Z', '2024-01-01T00:00:00+24:00', '2024-01-01T00:00:60Z', '2024-01-01 00:00:00Z'],
    audit,
  );
  await allowedByBoth(schema, ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.123456-23:35', '2024-02-29T23:59:59+15:59', '0000-01-01T00:00:00Z'], audit);
});

test('usage days: what the server refuses is invalid in the document (a real date from 0001-01-01)', async () => {
  const path = '/api/admin/clients/{clientId}/usage';
  const schema = param(path, 'get', 'from');
  const usage = (v: string) => call('GET', `/api/admin/clients/${admin.clientId}/usage?from=${encodeURIComponent(v)}&to=2024-03-01`);
  await refusedByBoth(schema, ['0000-01-01', '2024-02-30', '2023-02-29', '2024-1-1', '2024-13-01', '20240101'], usage);
  await allowedByBoth(schema, ['2024-02-29', '2024-03-01', '2023-12-01'], usage);
});

test('the tech-stack helper needs a prompt or a company domain: refused by the server, stated on both parameters', async () => {
  const path = '/api/ai/find-techstacks-for-company';
  for (const name of ['prompt', 'companyDomain']) {
    assert.deepEqual(param(path, 'post', name)[AT_LEAST_ONE_OF_EXTENSION], ['prompt', 'companyDomain'], `${name} states the group`);
  }
  const onBehalf = { 'x-on-behalf-of-user': 'analyst@example.com' };
  for (const query of ['', '?prompt=', '?companyDomain=%20', '?size=5']) {
    const res = await t.app.inject({ method: 'POST', url: `${path}${query}`, headers: { ...admin.headers, ...onBehalf } });
    assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
    assert.match(res.json().message, /prompt or companyDomain/);
  }
});
