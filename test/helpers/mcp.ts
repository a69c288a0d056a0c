// An MCP SDK Client connected in memory to the real tool server, as a given plan's client.
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, type ResourceUpdates } from '../../src/mcp/server.ts';
import { allTools } from '../../src/mcp/tools/index.ts';
import { defineRawTool, type CallContext, type ToolDef } from '../../src/mcp/registry.ts';
import { defineOperation, type OperationPermission, type OperationRateClass } from '../../src/schemas/operation.ts';
import { findClient } from '../../src/store/access.ts';
import type { Principal } from '../../src/auth/principal.ts';
import type { TestApp } from './app.ts';
import type { ToolList } from '../../src/mcp/toolsets.ts';
import { createTestClient } from './auth.ts';

export interface ToolAnswer {
  isError: boolean;
  /** The first text item: the summary (or the error). */
  text: string;
  /** The structured content (a test double's JSON text when it has none). */
  json(): any;
  /** resource_link items. */
  links: Array<{ uri: string; name: string; mimeType?: string }>;
}

type RawResult = {
  content: Array<{ type: string; text?: string; uri?: string; name?: string; mimeType?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
};

/** A tools/call result as tests read it. */
export function answerOf(res: RawResult): ToolAnswer {
  const text = res.content.find((c) => c.type === 'text')?.text ?? '';
  return {
    isError: res.isError === true,
    text,
    json: () => res.structuredContent ?? JSON.parse(text),
    links: res.content.filter((c) => c.type === 'resource_link') as ToolAnswer['links'],
  };
}

/** `updates`: the server has a live channel (as over stdio) and offers resources/subscribe. */
export async function connectMcp(
  t: TestApp,
  plan: 'full' | 'basic',
  credits?: number,
  onBehalfOfHeader?: string,
  updates?: ResourceUpdates,
  toolList?: ToolList,
) {
  const tc = await createTestClient(t.db, plan, credits);
  const c = (await findClient(t.db, tc.clientId))!;
  const principal: Principal = { clientId: c.id, clientName: c.name, plan: c.plan, via: 'api_key' };
  const server = createMcpServer(allTools, { db: t.db, config: t.config, principal, onBehalfOfHeader, ...(toolList ? { toolList } : {}) }, undefined, updates);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolAnswer> => {
    return answerOf((await client.callTool({ name, arguments: args })) as RawResult);
  };
  return { client, call, clientId: tc.clientId, headers: tc.headers };
}

/** tools/list of a server that lists every tool (MCP_TOOL_LIST=all), as a client of `plan`. */
export async function listAllTools(t: TestApp, plan: 'full' | 'basic' = 'full') {
  const { client } = await connectMcp(t, plan, undefined, undefined, undefined, 'all');
  return client.listTools();
}

/** A test double of a tool (for the transport's contract): a minimal operation record plus its handler. */
export function testTool<S extends z.ZodObject>(spec: {
  name: string;
  title: string;
  description: string;
  input: S;
  aliases?: string[];
  permission?: OperationPermission;
  rateClass?: OperationRateClass;
  run: (args: z.output<S>, ctx: CallContext) => Promise<unknown>;
}): ToolDef {
  const op = defineOperation({
    id: spec.name,
    summary: spec.title,
    description: spec.description,
    tag: 'Account',
    input: spec.input,
    output: z.unknown(),
    permission: spec.permission,
    rateClass: spec.rateClass,
    readOnly: true,
    attributed: spec.permission !== undefined,
    http: { method: 'GET', path: `/test/${spec.name}` },
    mcp: { name: spec.name, title: spec.title, description: spec.description, aliases: spec.aliases },
  });
  return defineRawTool(op, (args, ctx) => spec.run(args as z.output<S>, ctx));
}
