// Both doors are derived from the one operation list: the REST routes are registered by
// walking it, the MCP tools are its operations with a binding. A handler missing for a listed
// operation, one for an operation not in the list, or two for one operation stop the start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { z } from 'zod';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { route, serveOperations } from '../../src/http/route-config.ts';
import { defineRawTool, toolsOf } from '../../src/mcp/registry.ts';
import { defineOperation, type Operation } from '../../src/schemas/operation.ts';

const op = (id: string, path: string) =>
  defineOperation({
    id,
    summary: id,
    description: id,
    tag: 'Account',
    input: z.object({}),
    output: z.object({ id: z.string() }),
    readOnly: true,
    attributed: false,
    http: { method: 'GET', path },
    mcp: { name: id, title: id, description: id },
  });
const first = op('first', '/first');
const second = op('second', '/second');
const unlisted = op('unlisted', '/unlisted');

function app() {
  const server = Fastify();
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  return server;
}

test('REST: the listed operations are served in the order of the list, each with its handler', async () => {
  const server = app();
  // Bulkheads are the app's; a bare one-slot stand-in lets the routes run.
  server.decorate('bulkheads', { get: () => ({ acquire: async () => () => {} }) } as never);
  serveOperations(server, [first, second], [route(second, () => ({ id: 'two' })), route(first, () => ({ id: 'one' }))]);
  await server.ready();
  assert.deepEqual((await server.inject({ url: '/first' })).json(), { id: 'one' });
  assert.deepEqual((await server.inject({ url: '/second' })).json(), { id: 'two' });
  assert.equal((await server.inject({ url: '/unlisted' })).statusCode, 404);
  await server.close();
});

test('REST: a listed operation without a handler, a handler for an unlisted one, or two handlers stop the start, naming the operation', () => {
  const list: Operation[] = [first, second];
  assert.throws(() => serveOperations(app(), list, [route(first, () => ({ id: '' }))]), /Operation second has no REST handler/);
  assert.throws(
    () => serveOperations(app(), list, [route(first, () => ({ id: '' })), route(second, () => ({ id: '' })), route(unlisted, () => ({ id: '' }))]),
    /REST handlers for operations not in the list: unlisted/,
  );
  assert.throws(
    () => serveOperations(app(), list, [route(first, () => ({ id: '' })), route(first, () => ({ id: '' }))]),
    /Operation first has two route handlers/,
  );
});

test('MCP: the tools are the listed operations with a binding, in the order of the list; the same three mistakes stop the start', () => {
  const tool = (o: typeof first) => defineRawTool(o, () => ({ id: o.id }));
  const noBinding = { ...op('plain', '/plain'), mcp: undefined };
  assert.deepEqual(
    toolsOf([first, noBinding, second], [tool(second), tool(first)]).map((t) => t.name),
    ['first', 'second'],
  );
  assert.throws(() => toolsOf([first, second], [tool(first)]), /Operation second has an MCP binding but no tool/);
  assert.throws(() => toolsOf([first], [tool(first), tool(unlisted)]), /MCP tools for operations not in the list: unlisted/);
  assert.throws(() => toolsOf([first], [tool(first), tool(first)]), /Operation first has two MCP tool handlers/);
});
