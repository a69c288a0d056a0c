// The operation record: one per operation, read by both doors. The REST route and the MCP
// tool of an operation are declared from its record, and one generic piece of code per
// door enforces what the record says (permission, on-behalf attribution, rate class), so
// a new operation cannot forget a permission on one door.
import { z } from 'zod';
import type { Permission, RateClass } from './plans.ts';
import type { BulkheadName } from '../bulkhead.ts';
import type { Role } from './roles.ts';

/** The plan permission an operation needs (the plans' own list). */
export type OperationPermission = Permission;
export type OperationRateClass = RateClass;

/**
 * Holds always, or only when the boolean argument named by `when` is true (e.g. a
 * permission needed only with export=true). On REST the argument is a query parameter;
 * on MCP a top-level tool argument.
 */
export type Rule<T> = T | { readonly when: string; readonly then: T };

/** The tags of the API reference, with their descriptions: every operation has one of these. */
export const OPERATION_TAGS = [
  { name: 'Account', description: 'The calling client: plan, permissions, rate limits' },
  { name: 'Companies', description: 'Company search by firmographics and technology stack' },
  { name: 'Company products', description: "A company's installed products: paged JSON, CSV, JSON Lines" },
  { name: 'Firmographics', description: 'Company profiles' },
  { name: 'Feed', description: 'Company news feed' },
  { name: 'Lists', description: 'Account lists: uploads, versions and diffs, matching to companies, the review queue' },
  { name: 'CRM', description: 'Write-back to HubSpot and Salesforce: connections, syncs with a dry run, the sync log (export permission)' },
  { name: 'Events', description: 'Change events (adoptions, drops, firmographic changes, news), a live stream, company history, monitors and webhooks' },
  { name: 'Intelligence', description: 'Cohorts, competitors, usage benchmarks, related products, products in use' },
  { name: 'Vendors', description: 'Vendors and their product catalogs' },
  { name: 'Taxonomy', description: 'Product categories and industries' },
  { name: 'People', description: 'People profiles, contact-detail purchases and credits' },
  { name: 'AI helpers', description: 'Grounded suggestions from plain-language prompts (ai permission, attributed, audited)' },
  { name: 'Feedback', description: 'Reports of wrong or missing data, for the operators to review' },
  { name: 'Detection', description: 'The technologies of one site, detected from its URL or uploaded artifacts, with the evidence behind each' },
  { name: 'Authentication', description: 'OAuth 2.0 client credentials and token signing keys (no authentication)' },
  { name: 'Admin', description: 'Clients, API keys, plans, credits, console users, usage, the audit log and jobs (admin role; never MCP tools)' },
] as const;
export type OperationTag = (typeof OPERATION_TAGS)[number]['name'];

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** Where and how the operation is reached over REST (under /api). */
export interface HttpBinding {
  readonly method: HttpMethod;
  /** Fastify syntax: `:name` path parameters. */
  readonly path: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly headers?: z.ZodObject;
  /** Other addresses serving the same operation with the same schemas (own operationId and summary). */
  readonly aliases?: readonly HttpAlias[];
  /**
   * The JSON answer depends only on the input and the reference data (industries, categories,
   * vendors, products): it carries an ETag, is kept in memory until that data changes
   * (http/reference-cache.ts), and If-None-Match with the current ETag answers 304.
   */
  readonly referenceData?: boolean;
  /** Error responses beyond the common ones (e.g. 402, 413, 422). */
  readonly errors?: Readonly<Record<number, z.ZodType>>;
}

interface HttpAlias {
  readonly id: string;
  readonly summary: string;
  readonly method?: HttpMethod;
  readonly path?: string;
  /** When the alias spells its path parameters differently. */
  readonly params?: z.ZodType;
  /** When the alias takes other query parameters. */
  readonly query?: z.ZodType;
  /** null: the alias takes no body. */
  readonly body?: z.ZodType | null;
}

/** The MCP tool of an operation, described for a model. */
export interface McpBinding {
  readonly name: string;
  readonly title: string;
  /** What it answers, when to use it, what to call next, the limits. */
  readonly description: string;
  /** Other names the tool answers to in tools/call (not listed). */
  readonly aliases?: readonly string[];
}

/** A file-like answer streamed instead of (or, with `when`, as a variant of) the JSON output. */
export interface StreamedAnswer {
  readonly media: 'text/csv' | 'application/jsonl' | 'text/event-stream';
  /** The boolean argument that asks for it (export=true); absent: the operation always streams. */
  readonly when?: string;
  readonly description: string;
  /** Other media the same stream may be asked for in (e.g. a `format` argument): documented alike. */
  readonly alsoMedia?: readonly ('text/csv' | 'application/jsonl')[];
}

export interface Operation {
  /** Stable id: the OpenAPI operationId. */
  readonly id: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: OperationTag;
  /** The whole input as one object: the MCP arguments, and what `when` rules read. */
  readonly input: z.ZodObject;
  /** The JSON answer (for a streaming-only operation: one record of the stream). */
  readonly output: z.ZodType;
  readonly stream?: StreamedAnswer;
  readonly permission?: Rule<OperationPermission>;
  /**
   * The role the caller needs (admin: the Admin API), checked before input validation on REST.
   * An operation with a role has no MCP tool (mcp/registry.ts refuses one), and every
   * operation under /admin must name the admin role (route-config.ts refuses to serve it else).
   */
  readonly role?: Role;
  readonly rateClass?: Rule<OperationRateClass>;
  /**
   * The bulkhead of an expensive operation (its own concurrency limit and queue: bulkhead.ts).
   * Exports and AI calls need none here: their rate class puts them in the `export` and `ai`
   * bulkheads. Absent: the `standard` one.
   */
  readonly bulkhead?: Rule<Exclude<BulkheadName, 'standard' | 'export' | 'ai'>>;
  /** Changes nothing a caller can see (audit records aside). */
  readonly readOnly: boolean;
  /** When the permission applies, the call also names the user it is made for (on-behalf). */
  readonly attributed: boolean;
  /** Repeating the call has no further effect (with the Idempotency-Key where there is one). */
  readonly idempotent?: boolean;
  readonly http: HttpBinding;
  readonly mcp?: McpBinding;
}

/** Keeps the literal types of the record, so each door's handler is typed from its schemas. */
export function defineOperation<const O extends Operation>(op: O): O {
  return op;
}

/** Where admin operations live (under /api); each must name the admin role. */
const ADMIN_PATH_PREFIX = '/admin/';

/** The rule that no admin operation is served without its role check: thrown at start-up. */
export function checkAdminRole(op: Operation): void {
  const paths = [op.http.path, ...(op.http.aliases ?? []).map((a) => a.path ?? op.http.path)];
  if (paths.some((p) => p.startsWith(ADMIN_PATH_PREFIX) || p === '/admin') && op.role !== 'admin') {
    throw new Error(`Operation ${op.id} is served under /admin but does not name role 'admin'`);
  }
  if (op.tag === 'Admin' && op.role !== 'admin') throw new Error(`Operation ${op.id} is tagged Admin but does not name role 'admin'`);
}

/** A boolean argument as either door delivers it: parsed (true) or raw query text ("true", "1"). */
export function flagSet(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value)) return flagSet(value[0]);
  return typeof value === 'string' && ['true', '1'].includes(value.trim().toLowerCase());
}

function ruleValue<T>(rule: Rule<T> | undefined, args: Readonly<Record<string, unknown>> | undefined): T | undefined {
  if (rule === undefined) return undefined;
  if (typeof rule === 'object' && rule !== null && 'when' in rule) return flagSet(args?.[rule.when]) ? rule.then : undefined;
  return rule as T;
}

/** The permission this call needs, given its arguments; undefined when none. */
export function permissionFor(op: Operation, args: Readonly<Record<string, unknown>> | undefined): OperationPermission | undefined {
  return ruleValue(op.permission, args);
}

/** The rate-limit class this call spends besides the general quota. */
export function rateClassFor(op: Operation, args: Readonly<Record<string, unknown>> | undefined): OperationRateClass {
  return ruleValue(op.rateClass, args) ?? 'default';
}

/**
 * The bulkhead a call with these arguments runs in: an export or AI call (by its rate
 * class) in `export` or `ai`, else the record's own bulkhead, else `standard`.
 */
export function bulkheadFor(op: Operation, args: Readonly<Record<string, unknown>> | undefined): BulkheadName {
  const rateClass = rateClassFor(op, args);
  if (rateClass === 'export' || rateClass === 'ai') return rateClass;
  return ruleValue(op.bulkhead, args) ?? 'standard';
}

/** The boolean argument a rule depends on (e.g. 'export'), or undefined when it holds always. */
export function conditionOf<T>(rule: Rule<T> | undefined): string | undefined {
  return typeof rule === 'object' && rule !== null && 'when' in rule ? rule.when : undefined;
}

/** A rule that applies whatever the arguments (checked before input validation on REST). */
export function isUnconditional<T>(rule: Rule<T> | undefined): rule is T {
  return rule !== undefined && !(typeof rule === 'object' && rule !== null && 'when' in rule);
}

/** Entries by the id of their operation; two for one id is an error naming it. */
export function handlersById<E extends { readonly operation: { readonly id: string } }>(entries: readonly E[], what: string): Map<string, E> {
  const byId = new Map<string, E>();
  for (const entry of entries) {
    if (byId.has(entry.operation.id)) throw new Error(`Operation ${entry.operation.id} has two ${what} handlers`);
    byId.set(entry.operation.id, entry);
  }
  return byId;
}
