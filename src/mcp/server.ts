// One MCP server over the tool registry, the resources and the prompts. An unknown tool is
// a JSON-RPC error (-32602); arguments that break the tool's schema (an unknown argument
// included), failed lookups and other business failures are isError results naming the
// argument or the problem (results.ts), which a model can read and correct.
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type InitializeRequest,
  type InitializeResult,
} from '@modelcontextprotocol/sdk/types.js';
import { requireAttribution, requireWriteAccess } from '../auth/attribution.ts';
import { callerKey } from '../auth/caller-key.ts';
import { bulkheadFor, permissionFor, rateClassFor, type Operation } from '../schemas/operation.ts';
import { AppError, BadRequestError } from '../errors.ts';
import { CORE_TOOLS, MORE_TOOLS, moreToolsListing } from './toolsets.ts';
import { DOMAIN_RULE } from '../schemas/params.ts';
import { onBehalfOfArgument, type CallContext, type ToolContext, type ToolDef } from './registry.ts';
import { invalidArguments, rawResult, renderAnswer, toolError } from './results.ts';
import { listedResources, listedResourceTemplates, prepareRead, readResource, resolveResource, subscribableMonitor } from './resources.ts';
import { MAX_SUBSCRIPTIONS_PER_SESSION, MonitorSubscriptions } from './subscriptions.ts';
import type { SessionSubscriptions } from './streams.ts';
import type { PublishedEvents } from '../services/monitor-updates.ts';
import { getMonitor } from '../services/monitors.ts';
import { listEventsOp } from '../schemas/events.ts';
import { listedPrompts, PromptArgumentError, renderPrompt } from './prompts.ts';
import { VERSION } from '../version.ts';

const SERVER_INFO = { name: 'stacklens', title: 'Stacklens', version: VERSION };

const SERVER_INSTRUCTIONS =
  'Stacklens answers which companies use which software (with evidence), how a company compares with its peers, ' +
  'who its competitors are, its firmographics and news, and who works there. Start with lookup (names → the ids filters ' +
  'take) or companies_search to find domains and ids; every company tool takes a companyDomain (any case; a scheme, www. or path is ' +
  'stripped). Arguments shared by many tools: page (0-based) and size (1-200, default 20) page a list, whose answer has ' +
  'total and nextPage, the arguments of the next page (null on the last); detail "compact" (default) gives the fields most ' +
  'questions need, "full" every field of the record; onBehalfOfUser, the email of the user the call is made for, is needed by ' +
  'exports (export=true), AI helpers and purchases unless the X-On-Behalf-Of-User header is sent. A search pages through its ' +
  'first 10000 matches. Larger tables come as resource links to read with resources/read. Text arguments must not contain ' +
  'control characters. Prompts: benchmark_stack, find_lookalikes, account_brief.';

/** Checks a call before it runs: rate limit etc. Throws an AppError to refuse. */
export type BeforeCall = (tool: Pick<ToolDef, 'rateClass'>, args: Record<string, unknown>) => Promise<void>;

/** A JSON-RPC error: its message goes out as given (an McpError would prefix "MCP error -32602:", which the client prefixes again). */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** What every server over one tool registry shares: computed once, not per request. */
interface Catalog {
  byName: Map<string, ToolDef>;
  /** Every tool (MCP_TOOL_LIST=all). */
  listed: { tools: Array<Record<string, unknown>> };
  /** The short list: the core tools and more_tools, which reaches the rest (toolsets.ts). */
  core: { tools: Array<Record<string, unknown>> };
  /** Each tool's listing by name, for more_tools' describe. */
  listingOf: Map<string, Record<string, unknown>>;
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
        ...(tool.output ? { outputSchema: outputJsonSchema(tool.output) } : {}),
        annotations: tool.annotations,
      })),
    };
    const listingOf = new Map(listed.tools.map((t) => [t.name, t as Record<string, unknown>]));
    const core = { tools: [...listed.tools.filter((t) => CORE_TOOLS.has(t.name)), moreToolsListing as unknown as Record<string, unknown>] };
    catalog = { byName, listed, core, listingOf };
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

/** The SDK's own initialize (the version negotiation), which the server below wraps to learn the outcome. */
type Initializing = { _oninitialize(request: InitializeRequest): Promise<InitializeResult> };

/** What a tools/call carries: the tool's name and its arguments. */
export interface ToolCallParams {
  name: string;
  arguments?: Record<string, unknown>;
}

/**
 * The checks and records every call shares, for one caller: its rate limit, permission and
 * attribution, then the work in its operation's bulkhead (as on REST); usage counted per
 * client, day and operation, a refused or failed call as an error too.
 */
function callScope(ctx: ToolContext, beforeCall?: BeforeCall) {
  const admitted = async <T>(
    op: Operation,
    rated: Pick<ToolDef, 'rateClass'>,
    args: Record<string, unknown>,
    onBehalfOfUser: string | undefined,
    work: (c: CallContext) => Promise<T>,
  ): Promise<T> => {
    await beforeCall?.(rated, args);
    const permission = permissionFor(op, args);
    const onBehalfOf = permission
      ? requireAttribution(
          ctx.principal,
          permission,
          op.attributed,
          onBehalfOfUser ?? ctx.onBehalfOfHeader,
          'onBehalfOfUser argument (or X-On-Behalf-Of-User header)',
        )
      : undefined;
    requireWriteAccess(ctx.principal, op);
    const run = () => work({ ...ctx, onBehalfOf });
    return ctx.bulkheads ? ctx.bulkheads.get(bulkheadFor(op, args)).run(run, undefined, callerKey(ctx.principal)) : run();
  };
  const count = (op: Operation, status: number) => ctx.usage?.note(ctx.principal.clientId, op.id, status);
  const counted = <T>(op: Operation, result: T): T => {
    count(op, 200);
    return result;
  };
  return { admitted, count, counted };
}

/**
 * Serves tools/call for one caller: the tool by name (unknown → a ProtocolError, -32602),
 * its arguments checked strictly (an isError result naming them), the call admitted and run,
 * and its answer rendered for the client's protocol revision. The SDK server's handler and
 * the HTTP door's direct call path (direct-call.ts) both call this, so a call is served one way.
 */
export function toolCaller(tools: readonly ToolDef[], ctx: ToolContext, beforeCall?: BeforeCall) {
  return callerIn(tools, ctx, callScope(ctx, beforeCall));
}

function callerIn(tools: readonly ToolDef[], ctx: ToolContext, { admitted, count, counted }: ReturnType<typeof callScope>) {
  const catalog = catalogOf(tools);
  const { byName } = catalog;
  const callTool = async (params: ToolCallParams, revision: string): Promise<CallToolResult> => {
    if (params.name === MORE_TOOLS) return moreTools(catalog, params.arguments ?? {}, revision, callTool);
    const tool = byName.get(params.name);
    if (!tool) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool '${params.name}'. Call tools/list for the available tools.`);
    const schema = withOnBehalfOf(tool);
    const parsed = schema.safeParse(params.arguments ?? {});
    if (!parsed.success) {
      count(tool.operation, 400);
      return invalidArguments(tool, parsed.error, Object.keys(schema.shape));
    }
    const { onBehalfOfUser, ...args } = parsed.data as Record<string, unknown> & { onBehalfOfUser?: string };
    try {
      const answer = await admitted(tool.operation, tool, args, onBehalfOfUser, (c) => tool.run(args, c));
      if ('raw' in answer) return counted(tool.operation, rawResult(answer.raw));
      if (ctx.config.checkReplies) checkStructured(tool, answer.structured);
      return counted(tool.operation, renderAnswer(answer, revision));
    } catch (err) {
      count(tool.operation, statusOf(err));
      return toolError(err);
    }
  };
  return callTool;
}

/**
 * more_tools: without arguments the tools beyond the short list (name, title, description);
 * `describe` one tool's whole listing; `call` one with `arguments`, answered as that tool
 * answers (its checks, counting and errors are the tool's own).
 */
async function moreTools(
  catalog: Catalog,
  args: Record<string, unknown>,
  revision: string,
  callTool: (params: ToolCallParams, revision: string) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const { describe, call, arguments: callArgs, ...rest } = args;
  const refuse = (message: string) => toolError(new BadRequestError(message)) as CallToolResult;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) return refuse(`${unknown[0]}: unknown argument; more_tools takes describe, or call and arguments`);
  if (describe !== undefined && call !== undefined) return refuse('describe: give describe or call, not both');
  const known = (name: unknown): name is string => typeof name === 'string' && name !== MORE_TOOLS && catalog.byName.has(name);
  if (call !== undefined) {
    if (!known(call)) return refuse(`call: no tool '${String(call)}'; more_tools without arguments lists them`);
    if (callArgs !== undefined && (typeof callArgs !== 'object' || callArgs === null || Array.isArray(callArgs))) return refuse('arguments: must be an object');
    return callTool({ name: catalog.byName.get(call)!.name, arguments: callArgs as Record<string, unknown> | undefined }, revision);
  }
  if (callArgs !== undefined) return refuse('arguments: only with call');
  if (describe !== undefined) {
    const listing = known(describe) ? catalog.listingOf.get(catalog.byName.get(describe)!.name) : undefined;
    if (!listing) return refuse(`describe: no tool '${String(describe)}'; more_tools without arguments lists them`);
    const summary = `${String(listing.name)}: ${String(listing.description)}\nArguments (JSON Schema): ${JSON.stringify(listing.inputSchema)}\nCall it by its name, or with more_tools {"call": "${String(listing.name)}", "arguments": {…}}.`;
    return renderAnswer({ structured: { tool: listing }, summary }, revision) as CallToolResult;
  }
  const others = catalog.listed.tools
    .filter((t) => !CORE_TOOLS.has(t.name as string))
    .map((t) => ({ name: t.name as string, title: t.title as string, description: t.description as string }));
  const summary = `${others.length} more tools (describe one for its arguments; call it by name or through more_tools call):\n${others.map((t) => `${t.name}: ${t.description}`).join('\n')}`;
  return renderAnswer({ structured: { tools: others }, summary }, revision) as CallToolResult;
}

/**
 * Where a server with a live notification channel (stdio, a long-lived in-process transport)
 * learns of published events, for resources/subscribe. Over HTTP, where each request has a
 * server of its own, a session's subscriptions are rows instead and its GET /mcp stream
 * carries the notifications (streams.ts); with neither, subscriptions are not offered.
 */
export interface ResourceUpdates {
  events: PublishedEvents;
  onError: (err: unknown) => void;
}

export function createMcpServer(
  tools: readonly ToolDef[],
  ctx: ToolContext,
  beforeCall?: BeforeCall,
  updates?: ResourceUpdates,
  sessionSubscriptions?: SessionSubscriptions,
): Server {
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: updates || sessionSubscriptions ? { subscribe: true } : {}, prompts: {} },
    instructions: SERVER_INSTRUCTIONS,
    jsonSchemaValidator: validator,
  });
  const { listed } = catalogOf(tools);

  // The revision this server negotiated (stdio, in-memory). Over HTTP every request has a
  // server of its own that never sees initialize: the client names the revision in the
  // MCP-Protocol-Version header, and without one it is 2025-03-26 (the specification's rule).
  let negotiated: string | undefined;
  server.setRequestHandler(InitializeRequestSchema, async (request) => {
    const result = await (server as unknown as Initializing)._oninitialize(request);
    negotiated = result.protocolVersion;
    return result;
  });
  const revisionOf = (headers: Record<string, string | string[] | undefined> | undefined): string => {
    const header = headers?.['mcp-protocol-version'];
    return negotiated ?? (Array.isArray(header) ? header[0] : header) ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  };

  const scope = callScope(ctx, beforeCall);
  const { admitted, count, counted } = scope;
  const callTool = callerIn(tools, ctx, scope);

  const { core } = catalogOf(tools);
  const toolList = ctx.toolList ?? ctx.config.mcp.toolList;
  server.setRequestHandler(ListToolsRequestSchema, async () => (toolList === 'all' ? listed : core));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => callTool(request.params, revisionOf(extra.requestInfo?.headers)));

  server.setRequestHandler(ListResourcesRequestSchema, async () => listedResources(ctx));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => listedResourceTemplates);
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    let operation: Operation | undefined;
    try {
      const { kind, vars } = resolveResource(uri);
      operation = kind.operation;
      // An export link is looked up first (one key lookup, this client's rows only): its row
      // names the user the export is for, which the attribution check below needs.
      const { args, onBehalfOf, state } = await prepareRead(kind, vars, ctx);
      const rated = { rateClass: () => rateClassFor(kind.operation, args) };
      return counted(operation, { contents: [await admitted(kind.operation, rated, args, onBehalfOf, (c) => readResource(kind, vars, uri, c, state))] });
    } catch (err) {
      if (operation) count(operation, statusOf(err));
      throw resourceError(err);
    }
  });

  handleSubscriptions(server, ctx, admitted, updates, sessionSubscriptions);

  server.setRequestHandler(ListPromptsRequestSchema, async () => listedPrompts);
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    try {
      return renderPrompt(request.params.name, request.params.arguments);
    } catch (err) {
      if (err instanceof PromptArgumentError) throw new ProtocolError(ErrorCode.InvalidParams, err.message);
      throw err;
    }
  });
  return server;
}

/**
 * resources/subscribe and resources/unsubscribe of a monitor's events resource. Subscribing
 * checks the monitor as a read of its events would (the caller's own, else -32002; the read's
 * rate class); the subscriptions end with the server (its session).
 */
function handleSubscriptions(
  server: Server,
  ctx: ToolContext,
  admitted: ReturnType<typeof callScope>['admitted'],
  updates: ResourceUpdates | undefined,
  sessionSubscriptions: SessionSubscriptions | undefined,
): void {
  const live = updates
    ? new MonitorSubscriptions(ctx.db, ctx.principal.clientId, updates.events, (uri) => server.sendResourceUpdated({ uri }), updates.onError)
    : undefined;
  const subscriptions: SessionSubscriptions | undefined = live
    ? { add: (uri, monitorId) => live.add(uri, monitorId), remove: async (monitorId) => live.remove(monitorId) }
    : sessionSubscriptions;
  if (live) {
    // Chained: the stdio command sets its own onclose after this.
    const onclose = server.onclose;
    server.onclose = () => {
      live.close();
      onclose?.();
    };
  }
  const unavailable = () =>
    new ProtocolError(
      ErrorCode.MethodNotFound,
      'resources/subscribe needs a server-to-client stream, which this server has not (a session opens one with GET /mcp, or use stdio: stacklens mcp): read the resource again with its cursor',
    );
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    if (!subscriptions) throw unavailable();
    const { uri } = request.params;
    try {
      const monitorId = subscribableMonitor(uri);
      const rated = { rateClass: () => rateClassFor(listEventsOp, {}) };
      await admitted(listEventsOp, rated, {}, undefined, (c) => getMonitor(c.db, c.principal.clientId, monitorId));
      if (!(await subscriptions.add(uri, monitorId)))
        throw new ProtocolError(
          -32000,
          `This session holds ${MAX_SUBSCRIPTIONS_PER_SESSION} resource subscriptions, the most it may; resources/unsubscribe from one first`,
        );
      return {};
    } catch (err) {
      throw err instanceof ProtocolError ? err : resourceError(err);
    }
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    if (!subscriptions) throw unavailable();
    try {
      await subscriptions.remove(subscribableMonitor(request.params.uri));
      return {};
    } catch (err) {
      throw resourceError(err);
    }
  });
}

/** A failed resource read as a JSON-RPC error: -32002 for an unknown resource (the specification's code), -32602 for a bad URI part. */
function resourceError(err: unknown): ProtocolError {
  if (!(err instanceof AppError)) return new ProtocolError(ErrorCode.InternalError, 'The resource could not be read; retry later.');
  if (err.status === 404) return new ProtocolError(-32002, err.message);
  if (err.status === 400 || err.status === 413) return new ProtocolError(ErrorCode.InvalidParams, err.message);
  const retry = err.headers['retry-after'] ? ` Retry after ${err.headers['retry-after']} s.` : '';
  return new ProtocolError(-32000, `Error ${err.status}: ${err.message}.${retry}`);
}

/** The HTTP status a failure would have had on REST (what usage records count as an error). */
const statusOf = (err: unknown): number => (err instanceof AppError ? err.status : 500);

/** With CHECK_REPLIES (the tests), a structured answer must match the tool's output schema. */
function checkStructured(tool: ToolDef, structured: Record<string, unknown>): void {
  const checked = tool.output!.safeParse(structured);
  if (!checked.success) throw new Error(`${tool.name}: structured content breaks the output schema: ${checked.error.message}`);
}

const strictCache = new WeakMap<ToolDef, z.ZodObject>();

/** The tool's arguments (plus onBehalfOfUser where attributed), strict; built once per tool (zod compiles a schema on first use). */
function withOnBehalfOf(tool: ToolDef): z.ZodObject {
  let schema = strictCache.get(tool);
  if (!schema) {
    // Only an attributed operation takes the on-behalf user; elsewhere it is an unknown argument.
    schema = (tool.operation.attributed ? tool.input.extend({ onBehalfOfUser: onBehalfOfArgument }) : tool.input).strict();
    strictCache.set(tool, schema);
  }
  return schema;
}

const schemaCache = new WeakMap<object, Record<string, unknown>>();

/** Keys of the OpenAPI form that a model does not need to call a tool (the server checks them all the same). */
const NOT_FOR_INPUT = new Set(['pattern', 'examples', 'minLength', 'maxLength', 'x-request-default', 'x-request-examples', '$schema']);
/** What an output schema keeps: the structure and the types a client validates with. */
const OUTPUT_KEYS = new Set(['type', 'properties', 'items', 'anyOf', 'enum', 'const', 'definitions', '$ref']);
/** Arguments many tools share, described once in the instructions rather than in every tool. */
const COMMON_ARGUMENTS = new Set(['page', 'size', 'detail', 'onBehalfOfUser']);

/**
 * What a model reads of a schema. Inputs: types, enums, bounds of numbers and lists, and
 * the descriptions; left out are the character rule (a long regex on every text field) and
 * the domain rule, both stated once in the instructions, string lengths, examples, and the
 * bounds of "any safe integer" that zod writes on every integer. Outputs: the structure
 * and the types (the tool's description says what the fields mean). tools/list stays
 * within its budget, and the validator still applies every rule.
 */
function forModel(node: unknown, keep: (key: string) => boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => forModel(n, keep));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!keep(key)) continue;
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    out[key] =
      key === 'properties' || key === 'definitions' || key === '$defs'
        ? Object.fromEntries(Object.entries(value as object).map(([name, s]) => [name, forModel(s, keep)]))
        : forModel(value, keep);
  }
  // Query-string parameters accept "5" as well as 5; a model should just see the type.
  if (out.type && out.anyOf) delete out.anyOf;
  // A nullable type as one type list (["object", "null"]), as zod writes it for strings.
  const alternatives = out.anyOf as Array<Record<string, unknown>> | undefined;
  if (alternatives?.every((a) => Object.keys(a).length === 1 && typeof a.type === 'string')) {
    out.type = alternatives.map((a) => a.type);
    delete out.anyOf;
  }
  // Bounds no call comes near (100 or more items, page 1000) are the validator's business.
  if (typeof out.maxItems === 'number' && out.maxItems >= 100) delete out.maxItems;
  if (out.type === 'integer' && typeof out.maximum === 'number' && out.maximum >= 1000) delete out.maximum;
  if (typeof out.description === 'string') out.description = firstSentence(out.description.replace(`. ${DOMAIN_RULE}`, ''));
  if (out.properties && typeof out.properties === 'object') {
    for (const [name, s] of Object.entries(out.properties as Record<string, Record<string, unknown>>)) {
      // Shared arguments are described in the instructions; "companyDomain: Company domain" says nothing the name does not.
      if (COMMON_ARGUMENTS.has(name)) {
        delete s.description;
        delete s.default;
        // The instructions give page's and size's usual bounds (0-based; 1-200): only other bounds are listed.
        if (name === 'page' && s.minimum === 0) delete s.minimum;
        if (name === 'size' && s.minimum === 1 && s.maximum === 200) {
          delete s.minimum;
          delete s.maximum;
        }
      } else if (typeof s.description === 'string' && sameWords(s.description, name)) delete s.description;
      // "vendorDomainInAnd" next to "vendorDomainIn": the name says it (all listed, not any).
      else if (s.type === 'boolean' && name.endsWith('And') && name.slice(0, -3) in (out.properties as object)) delete s.description;
      // An enum lists its values: the description keeps what comes before it spells them out.
      else if (Array.isArray(s.enum) && typeof s.description === 'string') s.description = s.description.split(':')[0];
    }
  }
  // A list's items need no description of their own: the list has one.
  if (out.type === 'array' && out.items && typeof out.items === 'object') delete (out.items as Record<string, unknown>).description;
  return out;
}

/**
 * An argument's description up to its first full stop or semicolon: what the argument is. The rest of
 * the contract's text (error statuses, limits the validator names anyway) is for the REST
 * reference; an error result names the rule when a call breaks it.
 */
function firstSentence(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === '.' || c === ';') && text[i + 1] === ' ') return text.slice(0, i);
  }
  return text;
}

const sameWords = (description: string, name: string) => description.toLowerCase().replace(/^the |[^a-z]/g, '') === name.toLowerCase();

// The document's extensions (x-…: rules JSON Schema cannot state) are the validator's business too.
const forInput = (key: string) => !NOT_FOR_INPUT.has(key) && !key.startsWith('x-');
const forOutput = (key: string) => OUTPUT_KEYS.has(key);

function inputJsonSchema(tool: ToolDef): { type: 'object'; [k: string]: unknown } {
  let schema = schemaCache.get(tool);
  if (!schema) {
    schema = forModel(z.toJSONSchema(withOnBehalfOf(tool), { io: 'input', unrepresentable: 'any' }), forInput) as Record<string, unknown>;
    schemaCache.set(tool, schema);
  }
  return schema as { type: 'object' };
}

/** The output schema in draft-07 (what SDK clients validate with); its root is an object, as MCP requires. */
function outputJsonSchema(output: z.ZodType): Record<string, unknown> {
  let schema = schemaCache.get(output);
  if (!schema) {
    schema = forModel(z.toJSONSchema(output, { io: 'output', target: 'draft-7', unrepresentable: 'any' }), forOutput) as Record<string, unknown>;
    if (schema.type === undefined) schema = { type: 'object', ...schema };
    schemaCache.set(output, schema);
  }
  return schema;
}
