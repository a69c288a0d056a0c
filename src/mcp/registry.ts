// Tool definitions: a name, a description written for a model, a zod input schema and a
// handler that calls one service. Tools hold no logic of their own.
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../store/db.ts';
import type { Principal } from '../auth/principal.ts';
import type { Permission } from '../schemas/plans.ts';

export interface ToolContext {
  db: Db;
  config: Config;
  principal: Principal;
  /** The X-On-Behalf-Of-User header of the HTTP request, when there is one. */
  onBehalfOfHeader?: string;
}

export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** What it answers, when to use it, what to call next, the limits. */
  description: string;
  input: S;
  /** Other names the tool answers to in tools/call (not listed). */
  aliases?: string[];
  /**
   * The plan permission the call needs, given its arguments (e.g. export only when
   * export=true). Such calls also need an on-behalf user: the X-On-Behalf-Of-User header
   * or the `onBehalfOfUser` argument, which every tool accepts.
   */
  permission?: (args: z.output<S>) => Permission | undefined;
  /** Rate-limit class of the call: AI and export calls have their own, lower limits. */
  rateClass?: (args: z.output<S>) => 'default' | 'ai' | 'export';
  run(args: z.output<S>, ctx: ToolContext & { onBehalfOf?: string }): Promise<unknown>;
}

export function defineTool<S extends z.ZodObject>(def: ToolDef<S>): ToolDef {
  return def as unknown as ToolDef;
}

/** The argument every tool accepts, for attribution where the HTTP header cannot be set. */
export const onBehalfOfArgument = z
  .string()
  .optional()
  .describe('Email of the user this call is made for. Required for exports, AI helpers and purchases unless the X-On-Behalf-Of-User header is sent.');
