// One MCP server over the tool registry. Unknown tools and invalid arguments are
// JSON-RPC errors (-32602) naming the problem; failures of the operation itself are
// isError results (see results.ts), so a model can tell a bad call from a bad outcome.
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { requireAttribution } from '../auth/attribution.ts';
import { bulkheadFor, permissionFor } from '../schemas/operation.ts';
import { onBehalfOfArgument, type ToolContext, type ToolDef } from './registry.ts';
import { toolError, toolResult } from './results.ts';
import { VERSION } from '../version.ts';

export const SERVER_INFO = { name: 'stacklens', version: VERSION };

export const SERVER_INSTRUCTIONS =
  'Stacklens answers which companies use which software (with evidence), how a company compares with its peers, ' +
  'who its competitors are, its firmographics and news, and who works there. Start with companies_search or ' +
  'vendors_search to find domains and ids; every company tool takes a companyDomain. Exports, AI helpers and ' +
  'purchases need an onBehalfOfUser email. Paged tools return totals and the arguments of the next page.';

/** Checks a tool call before it runs: rate limit etc. Throws an AppError to refuse. */
export type BeforeCall = (tool: ToolDef, args: Record<string, unknown>) => Promise<void>;

/** What every server over one tool registry shares: computed once, not per request. */
interface Catalog {
  byName: Map<string, ToolDef>;
  listed: { tools: Array<Record<string, unknown>> };
}

const catalogs = new WeakMap<readonly ToolDef[], Catalog>();

function catalogOf(tools: readonly ToolDef[]): Catalog {
  let catalog = catalogs.get(tools);
  if (!catalog) {
    const byName = new Map<string, ToolDef>();
    // Operations that need a role (the Admin API) are never tools, even in a hand-made registry.
    const served = tools.filter((tool) => !tool.operation.role);
    for (const tool of served) {
      byName.set(tool.name, tool);
      for (const alias of tool.aliases ?? []) byName.set(alias, tool);
    }
    const listed = {
      tools: served.map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: inputJsonSchema(tool),
        annotations: tool.annotations,
      })),
    };
    catalog = { byName, listed };
    catalogs.set(tools, catalog);
  }
  return catalog;
}

// The HTTP door serves each request with its own server (an SDK server connects to one
// transport at a time, and a stateless transport serves one request), so everything that
// does not depend on the caller — the name map, the tools/list reply, each tool's strict
// argument schema — is computed once per registry and shared by every request.
// The SDK's default JSON-schema validator builds a whole Ajv instance per server (most of
// a server's construction cost); one instance serves every server, as its compiled
// validators depend only on the schema.
let validator: AjvJsonSchemaValidator | undefined;

export function createMcpServer(tools: readonly ToolDef[], ctx: ToolContext, beforeCall?: BeforeCall): Server {
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: SERVER_INSTRUCTIONS,
    jsonSchemaValidator: validator,
  });
  const { byName, listed } = catalogOf(tools);

  server.setRequestHandler(ListToolsRequestSchema, async () => listed);

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${request.params.name}'. Call tools/list for the available tools.`);
    }
    const schema = withOnBehalfOf(tool);
    const parsed = schema.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${issues}`);
    }
    const { onBehalfOfUser, ...args } = parsed.data as Record<string, unknown> & { onBehalfOfUser?: string };
    try {
      await beforeCall?.(tool, args);
      // The record's permission and attribution, checked here for every tool (as the REST hooks do).
      const permission = permissionFor(tool.operation, args);
      const onBehalfOf = permission
        ? requireAttribution(ctx.principal, permission, tool.operation.attributed, onBehalfOfUser ?? ctx.onBehalfOfHeader, 'onBehalfOfUser argument (or X-On-Behalf-Of-User header)')
        : undefined;
      // In the operation's bulkhead, as on REST: a full one is an isError result with Retry-After.
      const run = () => tool.run(args, { ...ctx, onBehalfOf });
      return toolResult(await (ctx.bulkheads ? ctx.bulkheads.get(bulkheadFor(tool.operation, args)).run(run) : run()));
    } catch (err) {
      return toolError(err);
    }
  });
  return server;
}

const strictCache = new WeakMap<ToolDef, z.ZodObject>();

/** The tool's arguments plus onBehalfOfUser, strict; built once per tool (zod compiles a schema on first use). */
function withOnBehalfOf(tool: ToolDef): z.ZodObject {
  let schema = strictCache.get(tool);
  if (!schema) {
    schema = tool.input.extend({ onBehalfOfUser: onBehalfOfArgument }).strict();
    strictCache.set(tool, schema);
  }
  return schema;
}

const schemaCache = new WeakMap<ToolDef, Record<string, unknown>>();

function inputJsonSchema(tool: ToolDef): { type: 'object'; [k: string]: unknown } {
  let schema = schemaCache.get(tool);
  if (!schema) {
    schema = z.toJSONSchema(withOnBehalfOf(tool), {
      io: 'input',
      unrepresentable: 'any',
      // Query-string parameters accept "5" as well as 5; a model should just see the type.
      override: ({ jsonSchema }) => {
        if (jsonSchema.type && jsonSchema.anyOf) delete jsonSchema.anyOf;
      },
    }) as Record<string, unknown>;
    delete schema.$schema;
    schemaCache.set(tool, schema);
  }
  return schema as { type: 'object' };
}
