// MCP tools built from the operation records: the name, title, description for a model,
// input schema and annotations all come from the record; a tool adds only its handler,
// which calls one service. Permission, attribution and rate class are enforced for every
// tool by the server (server.ts) from the same record.
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../store/db.ts';
import type { Principal } from '../auth/principal.ts';
import type { Bulkheads } from '../bulkhead.ts';
import { ForbiddenError } from '../errors.ts';
import { rateClassFor, type McpBinding, type Operation, type OperationRateClass } from '../schemas/operation.ts';

export interface ToolContext {
  db: Db;
  config: Config;
  principal: Principal;
  /** The X-On-Behalf-Of-User header of the HTTP request, when there is one. */
  onBehalfOfHeader?: string;
  /** Where tool calls run (the app's, shared with REST); absent: unlimited (stdio, one client). */
  bulkheads?: Bulkheads;
}

/** What a tool handler gets: the context plus the checked on-behalf user of an attributed call. */
export type CallContext = ToolContext & { onBehalfOf?: string };

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

export interface ToolDef {
  readonly operation: Operation;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: z.ZodObject;
  /** Other names the tool answers to in tools/call (not listed). */
  readonly aliases: readonly string[];
  readonly annotations: ToolAnnotations;
  /** The rate-limit class of a call with these arguments (from the record). */
  rateClass(args: Record<string, unknown>): OperationRateClass;
  run(args: Record<string, unknown>, ctx: CallContext): Promise<unknown>;
}

/** MCP hints from the record: a write is additive here (never destructive); the world is closed (our data only). */
export function annotationsOf(op: Operation, mcp: McpBinding): ToolAnnotations {
  if (op.readOnly) return { title: mcp.title, readOnlyHint: true, openWorldHint: false };
  return { title: mcp.title, readOnlyHint: false, destructiveHint: false, idempotentHint: op.idempotent ?? false, openWorldHint: false };
}

export function defineTool<O extends Operation & { readonly mcp: McpBinding }>(
  operation: O,
  run: (args: z.output<O['input']>, ctx: CallContext) => Promise<unknown> | unknown,
): ToolDef {
  // Administration is not a model's job: an operation that needs a role has no tool.
  if (operation.role) throw new Error(`Operation ${operation.id} needs role '${operation.role}': it cannot be an MCP tool`);
  const { mcp } = operation;
  return {
    operation,
    name: mcp.name,
    title: mcp.title,
    description: mcp.description,
    input: operation.input,
    aliases: mcp.aliases ?? [],
    annotations: annotationsOf(operation, mcp),
    rateClass: (args) => rateClassFor(operation, args),
    run: async (args, ctx) => run(args as z.output<O['input']>, ctx),
  };
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
