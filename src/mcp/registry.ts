// MCP tools built from the operation records: the name, title, description for a model,
// input schema and annotations all come from the record; a tool adds its answer's shape
// (the record's output, compacted for a model: shapes.ts) and its handler, which calls one
// service. Permission, attribution and rate class are enforced for every tool by the server
// (server.ts) from the same record.
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { Principal } from '../auth/principal.ts';
import type { Bulkheads } from '../bulkhead.ts';
import type { UsageRecorder } from '../services/usage.ts';
import type { DetectorPool } from '../services/detect-pool.ts';
import type { ToolList } from './toolsets.ts';
import { ForbiddenError } from '../errors.ts';
import { handlersById, rateClassFor, type McpBinding, type Operation, type OperationRateClass } from '../schemas/operation.ts';

export interface ToolContext {
  db: Db;
  config: Config;
  principal: Principal;
  /** The X-On-Behalf-Of-User header of the HTTP request, when there is one. */
  onBehalfOfHeader?: string;
  /** Where tool calls run (the app's, shared with REST); absent: unlimited (stdio, one client). */
  bulkheads?: Bulkheads;
  /** Where tool calls and resource reads are counted (the usage records REST requests go to, usage_daily). */
  usage?: Pick<UsageRecorder, 'note'>;
  /** Where detections run (the app's worker pool, shared with REST); absent: on this thread (stdio, one local client). */
  detector?: DetectorPool;
  /** What tools/list answers: the short list with more_tools (toolsets.ts) or every tool; absent: the MCP_TOOL_LIST setting. */
  toolList?: ToolList;
}

/** What a tool handler gets: the context plus the checked on-behalf user of an attributed call. */
export type CallContext = ToolContext & { onBehalfOf?: string };

/** The hints of the record (the title is the tool's own `title`, not repeated here). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

/** A readable resource an answer points at instead of carrying it inline (resources.ts serves it). */
export interface ResourceLink {
  uri: string;
  name: string;
  title?: string;
  description: string;
  mimeType: string;
}

/**
 * A tool's answer: the structured content (valid against the tool's output schema), a short
 * text for a person or a model that reads text only, and links to what did not fit.
 */
export interface ToolAnswer {
  structured: Record<string, unknown>;
  summary: string;
  links?: ResourceLink[];
}

export interface ToolDef<O extends Operation = Operation> {
  readonly operation: O;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The tool's arguments: the record's input, plus door arguments such as `detail`. */
  readonly input: z.ZodObject;
  /**
   * The structured content's schema, derived from the record's output; published as the
   * tool's outputSchema. Absent only for test doubles of the transport, whose value is
   * returned as JSON text.
   */
  readonly output?: z.ZodType;
  /** Other names the tool answers to in tools/call (not listed). */
  readonly aliases: readonly string[];
  readonly annotations: ToolAnnotations;
  /** The rate-limit class of a call with these arguments (from the record). */
  rateClass(args: Record<string, unknown>): OperationRateClass;
  run(args: Record<string, unknown>, ctx: CallContext): Promise<ToolAnswer | { raw: unknown }>;
}

/**
 * MCP hints from the record: a write is additive here (never destructive); the world is
 * closed (our data only), so openWorldHint is false for every tool.
 */
export function annotationsOf(op: Operation): ToolAnnotations {
  if (op.readOnly) return { readOnlyHint: true, openWorldHint: false };
  return { readOnlyHint: false, destructiveHint: false, idempotentHint: op.idempotent ?? false, openWorldHint: false };
}

type Mcp = { readonly mcp: McpBinding };

/**
 * What every tool takes from its record: name, title, description, aliases, annotations
 * and rate class. Administration is not a model's job: an operation that needs a role has
 * no tool.
 */
function toolOf<O extends Operation & Mcp>(operation: O, spec: { input: z.ZodObject; output?: z.ZodType; run: ToolDef['run'] }): ToolDef<O> {
  if (operation.role) throw new Error(`Operation ${operation.id} needs role '${operation.role}': it cannot be an MCP tool`);
  const { mcp } = operation;
  return {
    operation,
    name: mcp.name,
    title: mcp.title,
    description: mcp.description,
    aliases: mcp.aliases ?? [],
    annotations: annotationsOf(operation),
    rateClass: (args) => rateClassFor(operation, args),
    ...spec,
  };
}

/** A tool with a structured answer: `args` adds door arguments to the record's input. */
export function defineTool<O extends Operation & Mcp, A extends z.ZodRawShape = Record<never, never>>(
  operation: O,
  spec: {
    args?: A;
    output: z.ZodType;
    run: (args: z.output<O['input']> & z.output<z.ZodObject<A>>, ctx: CallContext) => Promise<ToolAnswer> | ToolAnswer;
  },
): ToolDef<O> {
  return toolOf(operation, {
    input: spec.args ? operation.input.extend(spec.args) : operation.input,
    output: spec.output,
    run: async (args, ctx) => spec.run(args as never, ctx),
  });
}

/** A tool whose value goes out as JSON text, without an output schema (test doubles of the transport). */
export function defineRawTool<O extends Operation & Mcp>(
  operation: O,
  run: (args: z.output<O['input']>, ctx: CallContext) => Promise<unknown> | unknown,
): ToolDef<O> {
  return toolOf(operation, { input: operation.input, run: async (args, ctx) => ({ raw: await run(args as z.output<O['input']>, ctx) }) });
}

/**
 * The tool list: the operations of the list that have an `mcp` binding, in its order, each
 * with the tool a tool module defined for it. A listed operation without a tool, a tool for an
 * operation not in the list, or two tools for one operation is an error at start-up (and, for
 * the listed operations, at compile time: tools/index.ts).
 */
export function toolsOf(operations: readonly Operation[], defined: readonly ToolDef[]): ToolDef[] {
  const byId = handlersById(defined, 'MCP tool');
  const tools = operations.flatMap((op) => {
    if (!op.mcp) return [];
    const tool = byId.get(op.id);
    if (!tool) throw new Error(`Operation ${op.id} has an MCP binding but no tool`);
    byId.delete(op.id);
    return [tool];
  });
  if (byId.size) throw new Error(`MCP tools for operations not in the list: ${[...byId.keys()].join(', ')}`);
  return tools;
}

/** The checked on-behalf user of an attributed call (the server sets it before run()). */
export function onBehalfOf(ctx: CallContext): string {
  if (!ctx.onBehalfOf) throw new ForbiddenError('The onBehalfOfUser argument (or X-On-Behalf-Of-User header) is required for this action');
  return ctx.onBehalfOf;
}

/** The argument every tool accepts, for attribution where the HTTP header cannot be set. */
export const onBehalfOfArgument = z
  .string()
  .optional()
  .describe('Email of the user this call is made for. Required for exports, AI helpers and purchases unless the X-On-Behalf-Of-User header is sent.');
