// The MCP door at /mcp: JSON-RPC 2.0 over Streamable HTTP. In order, every request gets:
// its Host and Origin checked against an allow-list (DNS-rebinding protection, 403), the
// POST media rules (415/406) and body cap (413); then authentication (X-API-Key, or a
// Bearer token whose audience is the MCP resource; 401s name the protected-resource
// metadata), the batch and protocol-version rules, and its session, shared by every
// instance (sessions.ts); and then a plain tools/call is served directly (callDirectly,
// the hot path), anything else by a fresh server + stateless SDK transport: memory stays
// flat, where a stateful session answering plain JSON grew the heap by about 7 KB per call
// in a soak. Replies are SSE or plain JSON according to
// Accept; with both at the same q-value, MCP_RESPONSE_MODE decides. An SSE reply opens
// with a priming event carrying `retry` (protocol 2025-11-25 and later).
//
// Refusals before the body is read as JSON-RPC (Host, Origin, media types, body size) use
// the service's error shape; the rest are JSON-RPC error objects with no id.
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport, type EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { authenticate, credentialsFromHeaders, type Credentials } from '../auth/authenticate.ts';
import type { Principal } from '../auth/principal.ts';
import { AppError, ForbiddenError, PayloadTooLargeError, UnauthorizedError } from '../errors.ts';
import { countFailedAuthentication } from '../auth/failed-auth.ts';
import { protectedResourceMetadataUrl } from '../auth/resource-metadata.ts';
import { createMcpServer, ProtocolError, toolCaller, type BeforeCall, type ToolCallParams } from './server.ts';
import { openSessionStore, sessionIdHash, type McpSession } from './sessions.ts';
import { sweepExportLinks } from './exports.ts';
import { mcpSessionsEnded, mcpSessionsOpened } from '../telemetry/metrics.ts';
import { negotiatedVersion, originRules, postMediaRefusal, protocolVersionRefusal } from './transport-rules.ts';
import type { ToolContext, ToolDef } from './registry.ts';
import type { Bulkheads } from '../bulkhead.ts';
import type { UsageRecorder } from '../services/usage.ts';

const PARSE_ERROR = Symbol('parse error');

export interface McpHttpOptions {
  tools: ToolDef[];
  /** Rate limiting and other checks per tool call. */
  beforeCall?: (principal: Principal) => BeforeCall;
  /** The app's bulkheads: each tool call runs in its operation's, as the REST route does. */
  bulkheads?: Bulkheads;
  /** The app's usage records: each tool call and resource read counts as a REST request of its operation does. */
  usage?: UsageRecorder;
}

/**
 * Numbers a reply's SSE events, so the transport writes a priming event (id, `retry`, empty
 * data) first, as the spec recommends. Nothing is kept: a reply lives on one request, and
 * GET /mcp (where a client would resume with Last-Event-ID) is not offered.
 */
class EventNumbering implements EventStore {
  private next = 0;
  async storeEvent(streamId: string): Promise<string> {
    return `${streamId}.${this.next++}`;
  }
  async replayEventsAfter(): Promise<string> {
    throw new Error('this server keeps no events to replay');
  }
}

/** A quoted-string value of a challenge parameter (RFC 7235): no quotes or backslashes. */
const quoted = (s: string) => `"${s.replace(/["\\\r\n]/g, "'")}"`;

export async function mcpHttpRoutes(app: FastifyInstance, options: McpHttpOptions): Promise<void> {
  const { config } = app;
  const sessions = await openSessionStore(
    app.db,
    config.redisUrl,
    { ttlMs: config.mcp.sessionTtlSeconds * 1000, maxPerClient: config.mcp.maxSessionsPerClient },
    (message, err) => app.log.warn({ err }, message),
  );
  // Expired export links are deleted every 10 minutes (they live an hour).
  const exportSweeper = setInterval(() => void sweepExportLinks(app.db).catch((err) => app.log.warn({ err }, 'MCP export link sweep failed')), 600_000).unref();
  app.addHook('onClose', async () => {
    clearInterval(exportSweeper);
    await sessions.close();
    await options.usage?.flush();
  });
  const inFlight = new SessionsInFlight();
  const origins = originRules(config);
  const resourceMetadata = protectedResourceMetadataUrl(config);

  // Malformed JSON is a JSON-RPC parse error (-32700), not the REST error body.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, body === '' ? undefined : JSON.parse(body as string));
    } catch {
      done(null, PARSE_ERROR);
    }
  });

  // Errors thrown here reach the app's one error handler (the service's error shape).
  app.setErrorHandler((error: FastifyError) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw new PayloadTooLargeError(`body: larger than the MCP request limit of ${config.mcp.bodyLimitBytes} bytes (MCP_BODY_LIMIT_BYTES)`);
    }
    throw error;
  });

  // Transport rules on every request, before authentication or any parsing: a refused
  // request costs nothing and learns nothing.
  app.addHook('onRequest', async (request) => {
    const refusal = origins.check(request.headers.host, request.headers.origin, request.raw.socket?.localPort ?? config.port);
    if (refusal) throw new ForbiddenError(`Forbidden: ${refusal}`);
    if (request.method === 'POST') {
      const media = postMediaRefusal(request.headers.accept, request.headers['content-type']);
      if (media) throw new AppError(media[0], media[0] === 415 ? 'unsupported_media_type' : 'not_acceptable', media[1]);
    }
  });

  const rpcError = (reply: FastifyReply, status: number, code: number, message: string, headers: Record<string, string> = {}) => {
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
  };

  /**
   * The 401 challenge (RFC 6750 §3, RFC 9728 §5.1): always where the resource's metadata
   * is; an error code only when a bearer token was sent and failed (none when no
   * credentials were sent at all).
   */
  const challenge = (credentials: Credentials | undefined, err: AppError): string => {
    const metadata = `resource_metadata=${quoted(resourceMetadata)}`;
    // Credentials unread: the Authorization header was malformed (a request error, not a token's).
    const code = credentials === undefined ? 'invalid_request' : credentials.bearerToken !== undefined ? 'invalid_token' : undefined;
    if (!code) return `Bearer ${metadata}`;
    return `Bearer error="${code}", error_description=${quoted(err.message)}, ${metadata}`;
  };

  /** Authentication, common to POST and DELETE: a bearer token must be for the MCP resource. */
  const admit = async (request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> => {
    let credentials: Credentials | undefined;
    let principal: Principal;
    try {
      credentials = credentialsFromHeaders(request.headers, request.raw.rawHeaders);
      principal = await authenticate(app.db, config, credentials, config.mcp.resource);
      request.principal = principal;
      request.clientId = principal.clientId;
    } catch (caught) {
      let err = caught;
      // A credential sent and refused counts against the address (auth/failed-auth.ts); past its limit the answer is a 429.
      const presented = request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;
      if (err instanceof UnauthorizedError && presented) err = await countFailedAuthentication(app.counters, config, request.ip, err);
      if (!(err instanceof AppError)) throw err;
      request.errorCode = err.code;
      const headers = err.status === 401 ? { ...err.headers, 'www-authenticate': challenge(credentials, err) } : err.headers;
      rpcError(reply, err.status, -32001, err.message, headers);
      return undefined;
    }
    // The caller's share of requests in flight, counted as on REST once it is known (a
    // refusal is a 429 in the service's error shape, thrown to the app's error handler).
    await app.admitCaller(request, reply, principal);
    return principal;
  };

  const sessionFor = async (request: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<McpSession | undefined> => {
    const id = request.headers['mcp-session-id'];
    if (typeof id !== 'string' || id === '') {
      rpcError(reply, 400, -32000, 'Bad Request: the mcp-session-id header is required (call initialize first)');
      return undefined;
    }
    const session = await sessions.get(id);
    if (!session) {
      rpcError(reply, 404, -32001, 'Session not found: it expired or was closed; call initialize again');
      return undefined;
    }
    if (session.clientId !== principal.clientId) {
      rpcError(reply, 403, -32000, 'Forbidden: this session belongs to another client');
      return undefined;
    }
    return session;
  };

  /** After initialize: the version header (absent: 2025-03-26, per the spec), then the session. */
  const sessionOfRequest = async (request: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<McpSession | undefined> => {
    const versionRefusal = protocolVersionRefusal(request.headers['mcp-protocol-version']);
    if (versionRefusal) {
      rpcError(reply, 400, -32000, `Bad Request: ${versionRefusal}`);
      return undefined;
    }
    return sessionFor(request, reply, principal);
  };

  app.post('/mcp', { schema: { hide: true }, config: { admitsCallerItself: true }, bodyLimit: config.mcp.bodyLimitBytes }, async (request, reply) => {
    const principal = await admit(request, reply);
    if (!principal) return reply;
    const body = request.body;
    if (body === PARSE_ERROR) return rpcError(reply, 400, -32700, 'Parse error: the body is not valid JSON');
    if (Array.isArray(body)) {
      return rpcError(reply, 400, -32600, 'Invalid Request: JSON-RPC batches are not supported (removed in protocol 2025-06-18); send one message per request');
    }
    if (body === undefined || body === null || typeof body !== 'object') {
      return rpcError(reply, 400, -32600, 'Invalid Request: the body must be one JSON-RPC 2.0 message');
    }
    if (isInitializeRequest(body)) {
      try {
        const session = await sessions.create(principal.clientId, negotiatedVersion(body.params.protocolVersion), inFlight.busy());
        mcpSessionsOpened.inc();
        if (session.evicted) mcpSessionsEnded.inc();
        reply.raw.setHeader('mcp-session-id', session.id);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        request.errorCode = err.code;
        return rpcError(reply, err.status, -32000, err.message, err.headers);
      }
    } else {
      const session = await sessionOfRequest(request, reply, principal);
      if (!session) return reply;
      inFlight.hold(session.id, reply);
      const call = plainToolCall(body);
      if (call) return callDirectly(request, reply, principal, call, session.protocolVersion);
      // The transport decides version-dependent behaviour (the SSE priming event) by this
      // header; the session knows the version actually negotiated.
      overrideHeader(request, 'mcp-protocol-version', session.protocolVersion);
    }
    await serve(request, reply, principal, body);
    return reply;
  });

  app.delete('/mcp', { schema: { hide: true }, config: { admitsCallerItself: true } }, async (request, reply) => {
    const principal = await admit(request, reply);
    if (!principal) return reply;
    const session = await sessionOfRequest(request, reply, principal);
    if (!session) return reply;
    if (await sessions.delete(session.id)) mcpSessionsEnded.inc();
    return reply.code(204).send();
  });

  app.get('/mcp', { schema: { hide: true } }, async (_request, reply) =>
    rpcError(reply, 405, -32000, 'Method Not Allowed: this server sends no server-initiated messages; use POST', { allow: 'POST, DELETE' }),
  );

  /** What every tool call and SDK server of this request works with: the caller and its door's services. */
  const contextOf = (request: FastifyRequest, principal: Principal): ToolContext => {
    const onBehalf = request.headers['x-on-behalf-of-user'];
    return { db: app.db, config, principal, onBehalfOfHeader: Array.isArray(onBehalf) ? onBehalf[0] : onBehalf, bulkheads: options.bulkheads, usage: options.usage, detector: app.detector };
  };

  /**
   * A plain tools/call, the message nearly every request of a session carries, served
   * without the SDK's transport and server: they turn the Node request into a web Request
   * and the reply into a web stream, and parse the message and the result again with zod,
   * which made a call cost twice the CPU of the same REST request (bench: 0.89 against
   * 0.40 ms of node). The same toolCaller serves it (server.ts), and the reply is what the
   * transport writes: one JSON-RPC response, as JSON or as SSE (the priming event with
   * `retry` from 2025-11-25 on, then the message event), each with its event id.
   */
  async function callDirectly(request: FastifyRequest, reply: FastifyReply, principal: Principal, call: PlainToolCall, revision: string): Promise<FastifyReply> {
    const callTool = toolCaller(options.tools, contextOf(request, principal), options.beforeCall?.(principal));
    let message: Record<string, unknown>;
    try {
      message = { jsonrpc: '2.0', id: call.id, result: await callTool(call.params, revision) };
    } catch (err) {
      // A ProtocolError (an unknown tool) as the SDK's protocol layer answers it; anything
      // else is our fault: logged, and the client told no more than that.
      if (!(err instanceof ProtocolError)) request.log.error({ err }, 'MCP tool call failed');
      message = err instanceof ProtocolError
        ? { jsonrpc: '2.0', id: call.id, error: { code: err.code, message: err.message } }
        : { jsonrpc: '2.0', id: call.id, error: { code: ErrorCode.InternalError, message: 'Internal error' } };
    }
    const text = JSON.stringify(message);
    // Written as the SDK path writes (hijacked): the same headers, in one write.
    reply.hijack();
    if (wantsJson(request.headers.accept, config.mcp.responseMode)) {
      reply.raw.writeHead(200, { 'content-type': 'application/json', 'x-request-id': request.id }).end(text);
      return reply;
    }
    const stream = randomUUID();
    const priming = revision >= '2025-11-25' ? `id: ${stream}.0\nretry: ${config.mcp.sseRetryMs}\ndata: \n\n` : '';
    reply.raw
      .writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no', 'x-request-id': request.id })
      .end(`${priming}event: message\nid: ${stream}.${priming ? 1 : 0}\ndata: ${text}\n\n`);
    return reply;
  }

  async function serve(request: FastifyRequest, reply: FastifyReply, principal: Principal, body: unknown): Promise<void> {
    const json = wantsJson(request.headers.accept, config.mcp.responseMode);
    // The SDK insists on both media types by name; the Accept rule (wildcards count) was
    // checked above, and the choice between them is ours (wantsJson).
    overrideHeader(request, 'accept', 'application/json, text/event-stream');
    // A server per request, not per session: an SDK server connects to one transport at a
    // time and a stateless transport serves one request, while a session may have several
    // requests in flight, each with its own principal check, on-behalf header and rate
    // limit. createMcpServer shares everything caller-independent, so this stays light.
    const server = createMcpServer(options.tools, contextOf(request, principal), options.beforeCall?.(principal));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: json,
      eventStore: json ? undefined : new EventNumbering(),
      retryInterval: config.mcp.sseRetryMs,
    });
    reply.hijack();
    reply.raw.setHeader('x-request-id', request.id);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, body);
  }
}

/**
 * The sessions of this instance with a request in flight (an SSE stream is one until it
 * ends): a client at its session cap has its least recently used session outside these ended.
 */
class SessionsInFlight {
  private readonly counts = new Map<string, number>();

  hold(sessionId: string, reply: FastifyReply): void {
    const key = sessionIdHash(sessionId);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    reply.raw.once('close', () => {
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    });
  }

  /** Id hashes of the sessions with a request in flight. */
  busy(): ReadonlySet<string> {
    return new Set(this.counts.keys());
  }
}

interface PlainToolCall {
  id: string | number;
  params: ToolCallParams;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/**
 * The message as a plain tools/call request, or undefined: a JSON-RPC 2.0 request with an
 * id (a string or an integer), `tools/call`, and params of a tool name, optional arguments
 * (an object) and optional `_meta`, nothing else. Whatever is not plain (a task-augmented
 * call, odd params, unknown members) goes through the SDK, which answers it as the
 * specification says.
 */
export function plainToolCall(body: unknown): PlainToolCall | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (Object.keys(body).some((k) => k !== 'jsonrpc' && k !== 'id' && k !== 'method' && k !== 'params')) return undefined;
  if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
  if (Object.keys(params).some((k) => k !== 'name' && k !== 'arguments' && k !== '_meta')) return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  if (params._meta !== undefined && !isPlainObject(params._meta)) return undefined;
  return { id, params: { name: params.name, arguments: params.arguments as Record<string, unknown> | undefined } };
}

/**
 * Replaces a request header as the SDK transport will read it: it turns the Node request
 * into a web Request from `rawHeaders` (and `headers`), so both change.
 */
function overrideHeader(request: FastifyRequest, name: string, value: string): void {
  const raw = request.raw;
  raw.headers[name] = value;
  const list = raw.rawHeaders.filter((_, i, all) => all[i - (i % 2)]!.toLowerCase() !== name);
  list.push(name, value);
  raw.rawHeaders.splice(0, raw.rawHeaders.length, ...list);
}

/** Plain JSON when the client prefers it by q-value; SSE when it prefers SSE; else the configured mode. */
export function wantsJson(accept: string | undefined, defaultMode: 'sse' | 'json'): boolean {
  const q = (type: string): number => {
    for (const part of (accept ?? '').split(',')) {
      const [media, ...params] = part.trim().split(';').map((s) => s.trim());
      if (media?.toLowerCase() === type) {
        const qp = params.find((p) => p.startsWith('q='));
        return qp ? Number(qp.slice(2)) || 0 : 1;
      }
    }
    return 0;
  };
  const jsonQ = q('application/json');
  const sseQ = q('text/event-stream');
  if (jsonQ > sseQ) return true;
  if (sseQ > jsonQ) return false;
  return defaultMode === 'json';
}
