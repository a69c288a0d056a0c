// The people routes declare full schemas: they render into an OpenAPI 3.1 document with
// tags, summaries, request schemas and every error response that applies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { profileRoutes } from '../../src/http/routes/profiles.ts';
import { operationRoutes } from '../../src/http/route-config.ts';

test('people routes render into the OpenAPI document', async () => {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'people', version: '1' } }, transform: jsonSchemaTransform });
  // The module's operations with their route options (the documented part); no handler runs.
  await app.register(
    async (api: FastifyInstance) => {
      for (const { operation } of profileRoutes(api)) for (const route of operationRoutes(operation)) api.route({ ...route, handler: async () => null });
    },
    { prefix: '/api' },
  );
  await app.ready();
  const doc = app.swagger() as any;
  const op = (path: string, method: string) => doc.paths[path][method];
  const expected: [string, string, string[]][] = [
    ['/api/profiles/search', 'post', ['200', '400', '401', '403', '404', '429']],
    ['/api/profiles/{profileId}', 'get', ['200', '400', '401', '404', '429']],
    ['/api/profiles/purchase', 'post', ['200', '400', '401', '402', '403', '404', '413', '422', '429']],
    ['/api/credits', 'get', ['200', '400', '401', '404', '429']],
  ];
  for (const [path, method, codes] of expected) {
    const o = op(path, method);
    assert.deepEqual(o.tags, ['People'], path);
    assert.ok(o.summary, path);
    assert.deepEqual(Object.keys(o.responses).sort(), codes, path);
  }
  const search = op('/api/profiles/search', 'post');
  assert.deepEqual(Object.keys(search.responses['200'].content).sort(), ['application/json', 'text/csv']);
  assert.deepEqual(Object.keys(search.requestBody.content['application/json'].schema.properties).sort(), [
    'companyDomains',
    'countries',
    'functions',
    'industries',
    'page',
    'query',
    'seniority',
    'size',
    'titles',
  ]);
  assert.deepEqual(search.parameters.map((p: any) => p.name).sort(), ['export', 'page', 'size', 'x-on-behalf-of-user']);
  const purchase = op('/api/profiles/purchase', 'post');
  assert.ok(purchase.parameters.some((p: any) => p.name === 'idempotency-key' && p.in === 'header'));
  const result = purchase.responses['200'].content['application/json'].schema.properties.results.items;
  assert.deepEqual(result.properties.status.enum, ['purchased', 'already_purchased', 'not_found']);
  await app.close();
});
