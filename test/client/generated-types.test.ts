// The committed client types must be what the served OpenAPI document generates today:
// a route or schema change without `npm run generate:client` fails here (and so in CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generateClientTypes, SCHEMA_FILE, servedOpenApiDocument } from '../../scripts/generate-client.ts';

test('clients/typescript/src/schema.ts matches the served OpenAPI document', async () => {
  const doc = await servedOpenApiDocument();
  const generated = await generateClientTypes(doc);
  const committed = readFileSync(SCHEMA_FILE, 'utf8');
  if (generated !== committed) {
    const a = committed.split('\n');
    const b = generated.split('\n');
    const line = a.findIndex((l, i) => l !== b[i]);
    assert.fail(
      `The typed client's types are out of date with the OpenAPI document: run \`npm run generate:client\` and commit clients/typescript/src/schema.ts.\n` +
        `First difference at line ${line + 1}:\n  committed: ${a[line] ?? '(end of file)'}\n  generated: ${b[line] ?? '(end of file)'}`,
    );
  }
  // Generation is deterministic: the same document gives the same text again.
  assert.equal(await generateClientTypes(doc), generated);
});
