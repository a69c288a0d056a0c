// Property-based fuzzing of every operation of the served OpenAPI document (fast-check):
// requests are generated from each operation's documented parameters and body, mixing
// documented values (examples, enums, bounds), random text and a dictionary of hostile
// values (control characters, U+0000, lone surrogates, 10 KB strings, emoji, prototype keys,
// SQL and LIKE metacharacters), plus undocumented query parameters and body fields. Every
// answer must be: no 5xx; a status the document lists for that operation; a JSON body valid
// against the documented schema of that status; and, when the request breaks the document
// (checked with Ajv against the same document), a 4xx — no invalid input accepted.
// Reproducible: a fixed seed unless FUZZ_SEED is set; FUZZ_RUNS sets the runs per operation.
// The seed differs by engine: CI's two passes (PGlite, PostgreSQL) try 2 × 60 different
// requests per operation rather than the same 120 twice, in half the time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestClient, type TestClient } from '../helpers/auth.ts';
import { defineUnlimitedPlan } from '../helpers/plans.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { HOSTILE_STRINGS } from '../helpers/hostile.ts';
import { operationsOf, sendCall, validCall, type Call, type DocOperation, type Param } from '../helpers/openapi-calls.ts';
import { EXAMPLE_WORLD } from '../helpers/example-world.ts';

const SEED = Number(process.env.FUZZ_SEED ?? (process.env.DATABASE_URL ? 20261126 : 20261125));
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

const hostile = fc.oneof(
  ...Object.values(HOSTILE_STRINGS).map((list) => fc.constantFrom(...list)),
  fc.constantFrom<unknown>(null, -1, 0, 1.5, 2 ** 53, true, [], {}, ['__proto__'], { constructor: 'x' }),
);

let t: TestApp;
let client: TestClient;
let doc: any;
let ajv: Ajv2020;

before(async () => {
  t = await createTestApp();
  // The ids and domains of the document's examples exist, so documented calls reach the data.
  await insertWorld(t.db, {
    ...EXAMPLE_WORLD,
    cohorts: [{ company_id: 'cmp_example', kind: 'default', member_id: 'cmp_acme', score: 0.9, rank: 1 }],
    feed: [{ id: 'fd_1', company_id: 'cmp_example', published_at: '2026-09-01T00:00:00Z', title: 'News', description: 'Something happened', category: 'NEWS' }],
    people: [
      { id: 'per_001', full_name: 'Ada Example', title: 'Head of Marketing', company_id: 'cmp_example', country: 'DE' },
      { id: 'per_002', full_name: 'Bob Example', title: 'CTO', company_id: 'cmp_acme', country: 'DE' },
    ],
    contacts: [{ person_id: 'per_001', kind: 'email', value: 'ada@example.com' }],
  });
  // The admin role too: the Admin API's operations are fuzzed like every other.
  client = await createTestClient(t.db, await defineUnlimitedPlan(t.db), undefined, 'admin');
  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  // The document's own schemas, addressed as doc#/components/...; formats are the server's business.
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false, coerceTypes: 'array' });
  ajv.addSchema({ $id: 'doc', components: doc.components });
});
after(() => t.close());

/** The schema with its component references made absolute (doc#/components/...). */
const absolute = (schema: unknown): any => JSON.parse(JSON.stringify(schema ?? {}).replaceAll('"#/components/', '"doc#/components/'));

function resolve(schema: any): any {
  let s = schema;
  for (let i = 0; i < 10 && s && typeof s.$ref === 'string'; i++)
    s = s.$ref
      .replace('#/components/schemas/', '')
      .split('/')
      .reduce((o: any, k: string) => o?.[k], doc.components.schemas);
  return s ?? {};
}

/** Documented values of a schema (examples, enum, default), and arbitrary ones of its type and bounds. */
function documented(schemaIn: any, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(schemaIn);
  const pool = [
    ...(schema.examples ?? []),
    ...(schema.example !== undefined ? [schema.example] : []),
    ...(schema.enum ?? []),
    ...(schema.default !== undefined ? [schema.default] : []),
  ];
  const branches = (schema.anyOf ?? schema.oneOf) as any[] | undefined;
  if (branches?.length && depth < 6) return fc.oneof(...branches.map((b) => documented(b, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : (schema.type ?? (schema.properties ? 'object' : undefined));
  let typed: fc.Arbitrary<unknown>;
  switch (type) {
    case 'string':
      typed = fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40), unit: 'grapheme' });
      break;
    case 'integer': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1_000_000;
      typed = fc.oneof(fc.integer({ min, max }), fc.constantFrom(min - 1, max + 1));
      break;
    }
    case 'number':
      typed = fc.double({ noNaN: true });
      break;
    case 'boolean':
      typed = fc.boolean();
      break;
    case 'array':
      typed =
        depth > 5
          ? fc.constant([])
          : fc.oneof(
              { arbitrary: fc.array(value(schema.items ?? {}, depth + 1), { maxLength: Math.min(schema.maxItems ?? 4, 4) }), weight: 4 },
              // One more item than documented.
              ...(typeof schema.maxItems === 'number' && schema.maxItems <= 200
                ? [
                    {
                      arbitrary: fc.constant(Array.from({ length: schema.maxItems + 1 }, (_, i) => resolve(schema.items)?.examples?.[0] ?? `v${i}`)),
                      weight: 1,
                    },
                  ]
                : []),
            );
      break;
    case 'object':
      typed = depth > 5 ? fc.constant({}) : objectOf(schema, depth + 1);
      break;
    default:
      typed = fc.constant(undefined);
  }
  return pool.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 3 }, { arbitrary: typed, weight: 2 }) : typed;
}

/** A value for a field: mostly documented, sometimes hostile. */
function value(schema: any, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: documented(schema, depth), weight: 2 }, { arbitrary: hostile, weight: 1 });
}

/** An object of the schema's properties (each present or not), sometimes with an undocumented one. */
function objectOf(schema: any, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries<any>(schema.properties ?? {});
  const required = new Set<string>(schema.required ?? []);
  const known = fc.record(Object.fromEntries(props.map(([k, s]) => [k, value(s, depth)])), {
    requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)),
  });
  const withoutOne =
    required.size === 0
      ? known
      : fc.tuple(known, fc.constantFrom(...required)).map(([o, k]) => Object.fromEntries(Object.entries(o).filter(([key]) => key !== k)));
  return fc.oneof(
    { arbitrary: known, weight: 8 },
    { arbitrary: withoutOne, weight: 1 },
    { arbitrary: known.map((o) => ({ ...o, fuzzUnknownField: 1 })), weight: 1 },
  );
}

/** What reaches the server for a URL parameter: text (lone surrogates made well-formed, as a URL can only carry UTF-8). */
const urlText = (v: unknown): string => String(v).replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

interface Generated {
  call: Call;
  /** Parameters as the server receives them (strings), for checking against the document. */
  sent: Record<string, unknown>;
}

function requestArb(path: string, method: string, op: any): fc.Arbitrary<Generated> {
  const params = ((op.parameters ?? []) as Param[]).filter((p) => p.in !== 'header');
  const headers = ((op.parameters ?? []) as Param[]).filter((p) => p.in === 'header');
  const paramArbs = params.map((p) =>
    p.in === 'path' || p.required ? value(p.schema).map((v) => ({ p, v })) : fc.option(value(p.schema), { nil: undefined, freq: 2 }).map((v) => ({ p, v })),
  );
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const bodyArb: fc.Arbitrary<unknown> = bodySchema
    ? fc.oneof({ arbitrary: value(bodySchema), weight: 9 }, { arbitrary: fc.constant(undefined), weight: 1 })
    : fc.constant(undefined);
  const headerArb = fc.record({
    'x-on-behalf-of-user': fc.constantFrom(
      'analyst@example.com',
      'analyst@example.com',
      'analyst@example.com',
      'not-an-email',
      `${'a'.repeat(250)}@example.com`,
      "o'brien%_@example.com",
    ),
    'idempotency-key': fc.option(fc.constantFrom('key-1', 'key 2', 'k'.repeat(300), '%_\\'), { nil: undefined }),
  });
  const unknownParam = fc.option(fc.constantFrom('fuzzUnknown=1', '__proto__=x', 'constructor=1'), { nil: undefined, freq: 6 });
  return fc.tuple(fc.tuple(...paramArbs), bodyArb, headerArb, unknownParam).map(([values, body, hv, extraQuery]) => {
    const call: Call = { method, path, params: new Map(), body, extraQuery };
    const sent: Record<string, unknown> = {};
    for (const { p, v } of values) {
      // An empty list puts nothing in the URL: the parameter is absent.
      if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
      const text = Array.isArray(v) ? v.map(urlText) : urlText(v);
      call.params.set(`${p.in}:${p.name}`, { param: p, value: text });
      sent[p.name] = text;
    }
    for (const h of headers) {
      const v = hv[h.name as keyof typeof hv];
      if (v !== undefined) call.params.set(`header:${h.name}`, { param: h, value: v });
    }
    return { call, sent };
  });
}

/** Whether the generated request keeps every rule of the document (headers aside: see openapi-strictness). */
function documentedValid(op: any, g: Generated): { valid: boolean; why: string } {
  const params = ((op.parameters ?? []) as Param[]).filter((p) => p.in !== 'header');
  const schema = absolute({
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  });
  const sent = structuredClone(g.sent);
  if (g.call.extraQuery) return { valid: false, why: `undocumented query parameter ${g.call.extraQuery}` };
  if (!ajv.validate(schema, sent)) return { valid: false, why: `parameters: ${ajv.errorsText()}` };
  const media = op.requestBody?.content?.['application/json'];
  if (media) {
    if (g.call.body === undefined) return op.requestBody.required ? { valid: false, why: 'body required' } : { valid: true, why: '' };
    // Bodies are JSON: no type coercion there.
    const strict = new Ajv2020({ strict: false, validateFormats: false, schemas: [{ $id: 'doc', components: doc.components }] });
    if (!strict.validate(absolute(media.schema), g.call.body)) return { valid: false, why: `body: ${strict.errorsText()}` };
  }
  return { valid: true, why: '' };
}

const bodyValidators = new Map<string, ReturnType<Ajv2020['compile']>>();
function responseValidator(key: string, schema: unknown) {
  let v = bodyValidators.get(key);
  if (!v) bodyValidators.set(key, (v = ajv.compile(absolute(schema))));
  return v;
}

/** Sends one generated request and checks the answer against the document. */
async function check({ path, method, op }: DocOperation, g: Generated): Promise<void> {
  const credentials = path.startsWith('/api/') ? client.headers : {};
  const res = await sendCall(t.app, g.call, credentials);
  const what = `${method.toUpperCase()} ${path} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  assert.ok(res.statusCode < 500, `server error: ${what}`);
  const documentedResponse = op.responses[String(res.statusCode)];
  assert.ok(documentedResponse, `status ${res.statusCode} is not documented for this operation: ${what}`);
  const type = String(res.headers['content-type'] ?? '');
  const jsonSchema = documentedResponse.content?.['application/json']?.schema;
  if (type.startsWith('application/json') && jsonSchema) {
    const validate = responseValidator(`${method} ${path} ${res.statusCode}`, jsonSchema);
    assert.ok(validate(res.json()), `body outside the documented schema (${ajv.errorsText(validate.errors)}): ${what}`);
  } else if (res.statusCode !== 304 && res.statusCode !== 204) {
    assert.ok(
      documentedResponse.content && Object.keys(documentedResponse.content).some((m) => type.startsWith(m)),
      `content type ${type} not documented: ${what}`,
    );
  }
  const { valid, why } = documentedValid(op, g);
  if (!valid) assert.ok(res.statusCode >= 400, `invalid input accepted (${why}): ${what}`);
}

/** One value of each hostile kind, for the sweep. */
const SWEEP = ['a\u0000b', '\u0001', 'x\ud800y', 'x'.repeat(10_240), '👩‍💻 Ünïcødé', 'constructor', '__proto__', "%_\\'", "' OR '1'='1", ''];

/**
 * The dictionary sweep: the documented-valid call with one field at a time replaced by each
 * hostile value (as the value, and as the only item of a list), so every field meets every
 * kind of hostile string whatever the random draws.
 */
async function sweep(operation: DocOperation): Promise<number> {
  const { path, method, op } = operation;
  const base = validCall(path, method, op);
  const baseSent = Object.fromEntries(
    [...base.params.values()]
      .filter(({ param }) => param.in !== 'header')
      .map(({ param, value }) => [param.name, Array.isArray(value) ? value.map(urlText) : urlText(value)]),
  );
  let sent = 0;
  const send = async (call: Call, sentParams: Record<string, unknown>) => {
    sent++;
    await check(operation, { call, sent: sentParams });
  };
  for (const param of ((op.parameters ?? []) as Param[]).filter((p) => p.in !== 'header')) {
    const isList = param.schema.type === 'array';
    for (const hostileValue of SWEEP) {
      if (param.in === 'path' && !isSegmentValue(hostileValue)) continue;
      const value = isList ? [urlText(hostileValue)] : urlText(hostileValue);
      const call: Call = { ...base, params: new Map(base.params) };
      call.params.set(`${param.in}:${param.name}`, { param, value });
      await send(call, { ...baseSent, [param.name]: value });
    }
  }
  const bodySchema = resolve(op.requestBody?.content?.['application/json']?.schema);
  const body = base.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const fields = Object.entries<any>(bodySchema.properties ?? resolve(bodySchema.anyOf?.find((b: any) => resolve(b).properties))?.properties ?? {});
    for (const [name, schema] of fields) {
      const isList = resolve(schema).type === 'array';
      for (const hostileValue of SWEEP) {
        await send({ ...base, body: { ...body, [name]: isList ? [hostileValue] : hostileValue } }, baseSent);
      }
    }
  } else if (Array.isArray(body)) {
    for (const hostileValue of SWEEP) await send({ ...base, body: [hostileValue] }, baseSent);
  }
  return sent;
}

/**
 * A value a path parameter can carry. An empty segment, `.` and `..` are another URL, not a
 * parameter: every client resolves the dot segments before sending (`/lists/x/review/..` is
 * `/lists/x/`), as the URL standard says, even when percent-encoded.
 */
function isSegmentValue(value: unknown): boolean {
  const text = String(value);
  return text !== '' && !/^(?:\.|%2e){1,2}$/iu.test(text);
}

async function fuzzOperation(operation: DocOperation): Promise<number> {
  let sent = 0;
  const property = fc.asyncProperty(requestArb(operation.path, operation.method, operation.op), async (g) => {
    fc.pre([...g.call.params.values()].every(({ param, value }) => param.in !== 'path' || isSegmentValue(value)));
    sent++;
    await check(operation, g);
  });
  try {
    await fc.assert(property, { seed: SEED, numRuns: RUNS });
  } catch (err) {
    const cause = (err as Error).cause as Error | undefined;
    throw new Error(
      `Fuzzing failed (seed ${SEED}); reproduce with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npm test -- test/http/fuzz\n${cause?.message ?? ''}\n${(err as Error).message}`,
    );
  }
  return sent;
}

test('the document lists every operation the fuzzing pass walks', () => {
  assert.ok(operationsOf(doc).length >= 30, `${operationsOf(doc).length} operations`);
});

test('the hostile dictionary, one field at a time, on every operation', async (ctx) => {
  let total = 0;
  for (const operation of operationsOf(doc)) {
    await ctx.test(`${operation.method.toUpperCase()} ${operation.path}`, async () => {
      total += await sweep(operation);
    });
  }
  ctx.diagnostic(`${total} requests sent`);
});

test(`fuzzing every operation (seed ${SEED}, ${RUNS} runs per operation): no 5xx, documented statuses and bodies, no invalid input accepted`, async (ctx) => {
  let total = 0;
  for (const operation of operationsOf(doc)) {
    await ctx.test(`${operation.method.toUpperCase()} ${operation.path}`, async () => {
      total += await fuzzOperation(operation);
    });
  }
  ctx.diagnostic(`${total} requests sent`);
});
