// Property-based fuzzing of every MCP tool (fast-check), through the SDK client: arguments
// are drawn from each tool's published inputSchema, mixing valid values of the world
// (domains, ids), random values of the schema's types, and the dictionary of hostile values
// (control characters, U+0000, lone surrogates, 10 KB strings, prototype keys, SQL and LIKE
// metacharacters), plus unknown arguments. Every answer must be a tools/call result (no
// protocol error: 0 crashes), either isError with a 4xx text, or structuredContent valid
// against the tool's outputSchema; arguments the inputSchema rejects are never accepted.
// Reproducible: a fixed seed unless FUZZ_SEED is set; FUZZ_RUNS sets the runs per tool.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Ajv, type ValidateFunction } from 'ajv';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { connectMcp } from '../helpers/mcp.ts';
import { seedMcpWorld, USER } from '../helpers/mcp-world.ts';
import { HOSTILE_STRINGS } from '../helpers/hostile.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

const hostile = fc.oneof(
  ...Object.values(HOSTILE_STRINGS).map((list) => fc.constantFrom<unknown>(...list)),
  fc.constantFrom<unknown>(null, -1, 0, 1.5, 2 ** 53, true, [], {}, ['__proto__'], { constructor: 'x' }),
);

let t: TestApp;
let world: Awaited<ReturnType<typeof seedMcpWorld>>;
before(async () => {
  t = await createTestApp();
  world = await seedMcpWorld(t.db, 120);
});
after(() => t.close());

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};

/** Values the world holds, by argument name, so that calls also reach the data. */
function knownValues(name: string): unknown[] {
  const byName: Record<string, unknown[]> = {};
  for (const [, args] of world.calls) for (const [k, v] of Object.entries(args)) (byName[k] ??= []).push(v);
  for (const [k, v] of Object.entries(byName)) byName[k] = v.flatMap((x) => (Array.isArray(x) ? [x, ...x] : [x]));
  return byName[name] ?? [];
}

/** An arbitrary value for a schema: valid-looking most of the time, hostile some of the time. */
function valueOf(schema: Schema, name: string, depth = 0): fc.Arbitrary<unknown> {
  const known = knownValues(name);
  const typed = typedValue(schema, name, depth);
  return fc.oneof(
    { weight: 4, arbitrary: typed },
    { weight: known.length ? 3 : 0, arbitrary: known.length ? fc.constantFrom(...known) : typed },
    { weight: 1, arbitrary: hostile },
  );
}

const COMMON_BOUNDS: Record<string, [number, number]> = { page: [0, 1000], size: [1, 200] };

function typedValue(schema: Schema, name: string, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'string'];
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'object':
          return depth > 2 ? fc.constant({}) : objectOf(schema, depth + 1);
        case 'array':
          return fc.array(valueOf(schema.items ?? {}, name, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
        // page and size: the server's instructions give their bounds (0-based; 1-200), not each schema.
        case 'integer':
          return fc.integer({
            min: schema.minimum ?? COMMON_BOUNDS[name]?.[0] ?? -10,
            max: Math.min(schema.maximum ?? COMMON_BOUNDS[name]?.[1] ?? 1000, 1000),
          });
        case 'number':
          return fc.double({ noNaN: true, min: -1e6, max: 1e6 });
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        default:
          return fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('acme.com', 'example', 'CTO', 'prd_x', 'Default'));
      }
    }),
  );
}

function objectOf(schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const record = fc.record(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valueOf(s, k, depth)])), {
    requiredKeys: (schema.required ?? []).filter((k) => k in props),
  });
  // Now and then an argument the tool does not take, prototype keys among them. Not
  // "__proto__": the SDK's own parsing of the request drops it before any tool sees it.
  return fc.tuple(record, fc.option(fc.tuple(fc.constantFrom('bogus', 'constructor', 'toString', 'body'), hostile), { freq: 8 })).map(([r, extra]) => {
    const out: Record<string, unknown> = { ...r };
    if (extra) Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true, configurable: true, writable: true });
    return out;
  });
}

test('every tool, called with random and hostile arguments from its inputSchema: a valid result or an isError result, never a crash', async () => {
  const { client } = await connectMcp(t, 'full', 1_000, undefined, undefined, 'all');
  const { tools } = await client.listTools();
  const ajv = new Ajv({ strict: false, allErrors: false });
  let calls = 0;
  let accepted = 0;
  for (const tool of tools) {
    const input: ValidateFunction = ajv.compile(tool.inputSchema);
    const output: ValidateFunction = ajv.compile(tool.outputSchema!);
    const attributed = 'onBehalfOfUser' in (tool.inputSchema.properties ?? {});
    const args = (objectOf(tool.inputSchema as Schema, 0) as fc.Arbitrary<Record<string, unknown>>).map((a) =>
      attributed && a.onBehalfOfUser === undefined ? { ...a, onBehalfOfUser: USER } : a,
    );
    await fc.assert(
      fc.asyncProperty(args, async (a) => {
        calls++;
        // A protocol error (a crash of the call) rejects here and fails the property.
        const res = await client.request({ method: 'tools/call', params: { name: tool.name, arguments: a } }, CallToolResultSchema);
        const text = res.content.find((c) => c.type === 'text')?.text ?? '';
        if (res.isError) {
          assert.match(text, /^Error 4\d\d: /, `${tool.name} ${JSON.stringify(a).slice(0, 300)}: ${text}`);
          return;
        }
        accepted++;
        assert.ok(
          input(JSON.parse(JSON.stringify(a))),
          `${tool.name} accepted arguments its inputSchema refuses: ${JSON.stringify(a).slice(0, 300)} (${ajv.errorsText(input.errors)})`,
        );
        assert.ok(output(res.structuredContent), `${tool.name}: ${ajv.errorsText(output.errors)}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }
  assert.ok(calls >= tools.length * RUNS);
  // Tools that need records of their own (a list id, seeds on record, an on-behalf user) rarely accept random arguments.
  assert.ok(accepted > tools.length / 2, `some calls succeed (${accepted} of ${calls})`);
});
