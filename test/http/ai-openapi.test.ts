// The AI routes declare full schemas: they render into an OpenAPI 3.1 document with the
// query parameters, the item shapes and every error response that applies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { aiRoutes } from '../../src/http/routes/ai.ts';
import { operationRoutes } from '../../src/http/route-config.ts';

test('AI routes render into the OpenAPI document', async () => {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'ai', version: '1' } }, transform: jsonSchemaTransform });
  // The module's operations with their route options (the documented part); no handler runs.
  await app.register(
    async (api: FastifyInstance) => {
      for (const { operation } of aiRoutes(api)) for (const route of operationRoutes(operation)) api.route({ ...route, handler: async () => null });
    },
    { prefix: '/api' },
  );
  await app.ready();
  const doc = app.swagger() as any;
  const expected: [string, string[], string[]][] = [
    [
      '/api/ai/find-customers-of-products',
      ['prompt', 'size'],
      ['companyName', 'country', 'industry', 'howProductIsUsed', 'scope', 'source', 'probability', 'dateFirstVerified', 'dateLastVerified'],
    ],
    [
      '/api/ai/find-techstacks-for-company',
      ['prompt', 'companyDomain', 'size'],
      ['software', 'reason', 'source', 'probability', 'dateFirstVerified', 'dateLastVerified'],
    ],
    ['/api/ai/find-people-profiles', ['prompt', 'size'], ['id', 'fullName', 'title', 'companyName', 'companyDomain', 'country', 'city', 'confidence']],
  ];
  for (const [path, params, fields] of expected) {
    const op = doc.paths[path].post;
    assert.deepEqual(op.tags, ['AI helpers']);
    assert.deepEqual(Object.keys(op.responses).sort(), ['200', '400', '401', '403', '404', '429']);
    const names = op.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name);
    assert.deepEqual(names.sort(), [...params].sort());
    const item = op.responses['200'].content['application/json'].schema.items;
    for (const f of fields) assert.ok(f in item.properties, `${path} ${f}`);
    assert.ok(!('email' in item.properties) && !('phone' in item.properties));
    assert.match(op.description, /X-Stacklens-Understood/);
  }
});
