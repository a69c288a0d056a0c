// The REST side of an operation record: the Fastify route options (method, url, schema for
// validation and the OpenAPI document, and `config.operation`) built from the record. The
// hooks of http/plugins/auth.ts and rate-limit.ts read `config.operation` to enforce the
// record's permission, attribution and rate class on every route the same way, and
// `serve()` runs each call in the record's bulkhead; a route module only adds the handler.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { z } from 'zod';
import { commonErrors, errorBodySchema } from '../schemas/common.ts';
import { onBehalfOfUserSchema } from '../schemas/params.ts';
import { bulkheadFor, checkAdminRole, handlersById, conditionOf, flagSet, isUnconditional, type HttpMethod, type Operation } from '../schemas/operation.ts';
import type { Release } from '../bulkhead.ts';
import { BadRequestError, ServiceUnavailableError } from '../errors.ts';
import { callerKey } from '../auth/caller-key.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation record this route serves. */
    operation?: Operation;
  }
}

type Get<T, K extends string> = T extends { readonly [P in K]: infer V } ? V : undefined;
type Binding<O extends Operation> = O['http'];

/** The typed part of a route's schema: what the handler's request is typed from. */
interface OperationRoute<O extends Operation> {
  method: HttpMethod;
  url: string;
  config: { operation: O };
  schema: {
    operationId: string;
    summary: string;
    description: string;
    tags: string[];
    params: Get<Binding<O>, 'params'>;
    querystring: Get<Binding<O>, 'query'>;
    body: Get<Binding<O>, 'body'>;
    headers: z.ZodObject | undefined;
    response: Record<number, unknown>;
  };
}

const ON_BEHALF_ALWAYS = 'Email of the user the call is made for; the call is audited under it. Missing → 403, not an email → 400';
const ON_BEHALF_WHEN = (flag: string) =>
  `Email of the user the call is made for; required when ${flag}=true (missing → 403, not an email → 400), and the call is then audited under it`;

/** The header schema: the record's own headers plus X-On-Behalf-Of-User where the operation is attributed. */
function headersOf(op: Operation): z.ZodObject | undefined {
  if (!op.attributed) return op.http.headers;
  const base = op.http.headers ?? z.looseObject({});
  const always = isUnconditional(op.permission);
  const flag = conditionOf(op.permission) ?? 'export';
  // Loose: Fastify replaces request.headers with the validated value, and later hooks still
  // need the headers this schema does not name. A required header is checked (403) before
  // validation by the permission hook, so its absence never reaches the validator.
  return base.extend({
    'x-on-behalf-of-user': always ? onBehalfOfUserSchema.describe(ON_BEHALF_ALWAYS) : onBehalfOfUserSchema.optional().describe(ON_BEHALF_WHEN(flag)),
  });
}

// No body: a `null` schema is documented without media types.
const notModified = z.null().describe('Not Modified: If-None-Match holds the current ETag of this answer; no body');

/** The documented responses: the JSON output (and the streamed variant), then the errors. */
function responsesOf(op: Operation): Record<number, unknown> {
  const { http, stream } = op;
  // 403 only where a permission or a role applies: nothing else refuses an authenticated client.
  const { 403: forbidden, ...always } = commonErrors;
  const roleForbidden = op.role ? { 403: errorBodySchema.describe(`The caller lacks the '${op.role}' role; the message names it`) } : {};
  const errors = {
    ...always,
    ...(op.permission ? { 403: forbidden } : {}),
    ...roleForbidden,
    ...(http.referenceData ? { 304: notModified } : {}),
    ...http.errors,
  };
  if (!stream) return { 200: op.output, ...errors };
  const streamed = Object.fromEntries([stream.media, ...(stream.alsoMedia ?? [])].map((media) => [media, { schema: z.string().describe(stream.description) }]));
  const ok = stream.when
    ? {
        description: `The answer as application/json; with ${stream.when}=true, the ${stream.media} file instead`,
        content: { 'application/json': { schema: op.output }, ...streamed },
      }
    : { description: stream.description, content: streamed };
  return { 200: ok, ...errors };
}

/**
 * The query schema as validated: a parameter the operation does not document is a 400 naming
 * it (not silently ignored), on every operation, including those that take no parameters.
 */
export function strictQuery(query: z.ZodType | undefined): z.ZodType {
  if (query === undefined) return z.strictObject({});
  if (query instanceof z.ZodObject) return query.strict();
  return query;
}

/** Route options for every address of the operation: its main one, then its aliases. */
export function operationRoutes<O extends Operation>(op: O): OperationRoute<O>[] {
  checkAdminRole(op);
  const { http } = op;
  // Only the parts the operation has: Fastify warns about a schema key that is present but undefined.
  const parts = Object.fromEntries(
    Object.entries({ params: http.params, querystring: strictQuery(http.query), body: http.body, headers: headersOf(op) }).filter(([, v]) => v !== undefined),
  ) as Pick<OperationRoute<O>['schema'], 'params' | 'querystring' | 'body' | 'headers'>;
  const main: OperationRoute<O> = {
    method: http.method,
    url: http.path,
    config: { operation: op },
    schema: { operationId: op.id, summary: op.summary, description: op.description, tags: [op.tag], ...parts, response: responsesOf(op) },
  };
  const aliases = (http.aliases ?? []).map((alias) => {
    const { body, ...schema } = main.schema;
    return {
      ...main,
      method: alias.method ?? http.method,
      url: alias.path ?? http.path,
      schema: {
        ...schema,
        operationId: alias.id,
        summary: alias.summary,
        ...(alias.params ? { params: alias.params as Get<Binding<O>, 'params'> } : {}),
        ...(alias.query ? { querystring: strictQuery(alias.query) as Get<Binding<O>, 'query'> } : {}),
        // Only a body the alias has: Fastify warns about a schema key that is present but undefined.
        ...(alias.body === null || (alias.body ?? body) === undefined ? {} : { body: (alias.body ?? body) as Get<Binding<O>, 'body'> }),
      },
    } as OperationRoute<O>;
  });
  return [main, ...aliases];
}

type Out<T> = T extends z.ZodType ? z.output<T> : unknown;

/** The request of a route serving the operation, typed from the record's schemas. */
export type OperationRequest<O extends Operation> = FastifyRequest<{
  Params: Out<Get<Binding<O>, 'params'>>;
  Querystring: Out<Get<Binding<O>, 'query'>>;
  Body: Out<Get<Binding<O>, 'body'>>;
}>;

/** What a route does with a call: transport → one service call → answer. */
export type RestHandler<O extends Operation> = (request: OperationRequest<O>, reply: FastifyReply) => unknown;

/** Route options beyond the record's: a body limit of its own (POST /detect), a long-lived answer. */
interface RestRouteOptions {
  bodyLimit?: number;
  /**
   * The answer stays open for as long as the client listens (an event stream): it takes no
   * bulkhead slot and does not count as a request in flight of its caller; the handler bounds
   * how many such answers a caller holds.
   */
  longLived?: boolean;
}

/** The REST door's part of one operation: its handler (and options), for the record it names. */
interface RestRoute<O extends Operation = Operation> {
  readonly operation: O;
  readonly handler: RestHandler<O>;
  readonly options?: RestRouteOptions;
}

/** A route of any operation, as the list of a door holds it (each typed by its own record where it is made). */
interface AnyRestRoute {
  readonly operation: Operation;
  readonly handler: (request: never, reply: FastifyReply) => unknown;
  readonly options?: RestRouteOptions;
}

/** A route module's entry for one operation, typed from its record. */
export function route<O extends Operation>(operation: O, handler: RestHandler<O>, options?: RestRouteOptions): RestRoute<O> {
  return { operation, handler, ...(options ? { options } : {}) };
}

/**
 * Registers the operations of the list, in its order, each with the handler a route module
 * gave for it. The list decides what is served: an operation without a handler, a handler
 * for an operation not in the list, or two handlers for one operation is an error at start-up
 * (and, for the listed operations, at compile time: routes/api.ts).
 */
export function serveOperations(app: FastifyInstance, operations: readonly Operation[], routes: readonly AnyRestRoute[]): void {
  const byId = handlersById(routes, 'route');
  for (const op of operations) {
    const entry = byId.get(op.id);
    if (!entry) throw new Error(`Operation ${op.id} has no REST handler`);
    byId.delete(op.id);
    serve(app, op, entry.handler as RestHandler<Operation>, entry.options);
  }
  if (byId.size) throw new Error(`REST handlers for operations not in the list: ${[...byId.keys()].join(', ')}`);
}

/**
 * Registers every address of the operation with one handler: transport → one service call →
 * answer. Each call runs in the bulkhead of its record (bulkheadFor: search, peers, export,
 * ai or standard), holding the slot until its reply has been written, streamed exports
 * included; a full bulkhead answers 503 with Retry-After. An operation on reference data
 * (`http.referenceData`) answers its JSON through the app's reference cache (ETag/304); a
 * call asking for the streamed variant (export=true) is never kept.
 */
function serve<O extends Operation>(app: FastifyInstance, op: O, handler: RestHandler<O>, { longLived, ...routeOptions }: RestRouteOptions = {}): void {
  const streams = (request: OperationRequest<O>) =>
    op.stream !== undefined && (op.stream.when === undefined || flagSet((request.query as Record<string, unknown> | undefined)?.[op.stream.when]));
  const answer = op.http.referenceData
    ? (request: OperationRequest<O>, reply: FastifyReply) =>
        streams(request) ? handler(request, reply) : app.referenceCache.reply(request, reply, async () => handler(request, reply))
    : handler;
  const limited = async (request: OperationRequest<O>, reply: FastifyReply) => {
    const bulkhead = app.bulkheads.get(bulkheadFor(op, request.query as Record<string, unknown> | undefined));
    // The slot is given back when the response closes: written in full, or the client gone.
    // A client that goes away while queued leaves the queue.
    const gone = new AbortController();
    let release: Release | undefined;
    let closed = false;
    reply.raw.once('close', () => {
      closed = true;
      if (release) release();
      else gone.abort(new ServiceUnavailableError('The client closed the connection while the call was queued', 1));
    });
    const slot = await bulkhead.acquire(gone.signal, request.principal ? callerKey(request.principal) : undefined);
    if (closed) {
      slot();
      return reply;
    }
    release = slot;
    try {
      return await answer(request, reply);
    } catch (err) {
      release();
      throw err;
    }
  };
  for (const route of operationRoutes(op)) {
    const bodiless = route.method === 'POST' && !('body' in route.schema);
    app.route({
      ...route,
      ...(longLived ? { config: { ...route.config, admitsCallerItself: true } } : {}),
      ...routeOptions,
      ...(bodiless ? { preValidation: refuseBody } : {}),
      handler: (longLived ? answer : limited) as unknown as RouteHandlerMethod,
    });
  }
}

/**
 * A POST whose input is all in the query string (the AI helpers, the paged products, the
 * details form with cohortCompanyDomain in the query) takes no body: one sent is a 400, not
 * silently ignored or mistaken for the input. An empty body is no body (empty-body.ts), and
 * so is an empty JSON object, which many HTTP clients send for "no body" with a JSON content type.
 */
async function refuseBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  const emptyObject = typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0;
  if (emptyObject)
    request.body = undefined; // the handler then sees what it sees for no body
  else if (body !== undefined) {
    throw new BadRequestError(
      `body: ${request.method} ${request.routeOptions.url} takes no body; its input is in the query string (send no body, an empty one or {})`,
    );
  }
}
