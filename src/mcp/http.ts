// The MCP door at /mcp: JSON-RPC 2.0 over streamable HTTP. Every request is authenticated
// (X-API-Key or Bearer, as on REST), its Origin checked, its session looked up, and then
// served by a fresh server + stateless SDK transport: memory stays flat, where a stateful
// session answering plain JSON grew the heap by about 7 KB per call in a soak.
// Replies are SSE or plain JSON according to Accept; with both, MCP_RESPONSE_MODE decides.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { authenticate, credentialsFromHeaders } from '../auth/authenticate.ts';
import type { Principal } from '../auth/principal.ts';
import { AppError } from '../errors.ts';
import { createMcpServer, type BeforeCall } from './server.ts';
import { SessionStore } from './sessions.ts';
import type { ToolDef } from './registry.ts';
import type { Bulkheads } from '../bulkhead.ts';

const PARSE_ERROR = Symbol('parse error');

export interface McpHttpOptions {
  tools: ToolDef[];
  /** Rate limiting and other checks per tool call. */
  beforeCall?: (principal: Principal) => BeforeCall;
  /** The app's bulkheads: each tool call runs in its operation's, as the REST route does. */
  bulkheads?: Bulkheads;
}

export async function mcpHttpRoutes(app: FastifyInstance, options: McpHttpOptions): Promise<void> {
  const { config } = app;
  const sessions = new SessionStore(config.mcp.sessionTtlSeconds * 1000, config.mcp.maxSessionsPerClient);
  app.addHook('onClose', async () => sessions.close());
  const allowedOrigins = new Set([new URL(config.publicUrl).origin, ...config.mcp.allowedOrigins]);

  // Malformed JSON is a JSON-RPC parse error (-32700), not the REST error body.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, body === '' ? undefined : JSON.parse(body as string));
    } catch {
      done(null, PARSE_ERROR);
    }
  });

  const rpcError = (reply: FastifyReply, status: number, code: number, message: string, headers: Record<string, string> = {}) => {
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
  };

  /** Origin check and authentication, common to POST and DELETE. */
  const admit = async (request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> => {
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      rpcError(reply, 403, -32000, `Forbidden: Origin '${origin}' is not allowed (set MCP_ALLOWED_ORIGINS)`);
      return undefined;
    }
    try {
      const principal = await authenticate(app.db, config, credentialsFromHeaders(request.headers, request.raw.rawHeaders));
      request.principal = principal;
      request.clientId = principal.clientId;
      return principal;
    } catch (err) {
      if (err instanceof AppError) rpcError(reply, err.status, -32001, `${err.message}`, err.headers);
      else throw err;
      return undefined;
    }
  };

  const sessionFor = (request: FastifyRequest, reply: FastifyReply, principal: Principal) => {
    const id = request.headers['mcp-session-id'];
    if (typeof id !== 'string' || id === '') {
      rpcError(reply, 400, -32000, 'Bad Request: the mcp-session-id header is required (call initialize first)');
      return undefined;
    }
    const session = sessions.get(id);
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

  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const principal = await admit(request, reply);
    if (!principal) return reply;
    const body = request.body;
    if (body === PARSE_ERROR) return rpcError(reply, 400, -32700, 'Parse error: the body is not valid JSON');
    if (body === undefined || body === null || typeof body !== 'object') {
      return rpcError(reply, 400, -32600, 'Invalid Request: the body must be a JSON-RPC 2.0 message or batch');
    }
    const messages = Array.isArray(body) ? body : [body];
    if (messages.some(isInitializeRequest)) {
      if (messages.length > 1) return rpcError(reply, 400, -32600, 'Invalid Request: initialize must be sent alone');
      const session = sessions.create(principal.clientId);
      reply.raw.setHeader('mcp-session-id', session.id);
    } else if (!sessionFor(request, reply, principal)) {
      return reply;
    }
    await serve(request, reply, principal, body);
    return reply;
  });

  app.delete('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const principal = await admit(request, reply);
    if (!principal) return reply;
    const session = sessionFor(request, reply, principal);
    if (!session) return reply;
    sessions.delete(session.id);
    return reply.code(204).send();
  });

  app.get('/mcp', { schema: { hide: true } }, async (_request, reply) =>
    rpcError(reply, 405, -32000, 'Method Not Allowed: this server sends no server-initiated messages; use POST', { allow: 'POST, DELETE' }),
  );

  async function serve(request: FastifyRequest, reply: FastifyReply, principal: Principal, body: unknown): Promise<void> {
    const json = wantsJson(request.headers.accept, config.mcp.responseMode);
    // The SDK insists on both media types; the choice between them is ours (wantsJson).
    request.raw.headers.accept = 'application/json, text/event-stream';
    const onBehalf = request.headers['x-on-behalf-of-user'];
    // A server per request, not per session: an SDK server connects to one transport at a
    // time and a stateless transport serves one request, while a session may have several
    // requests in flight, each with its own principal check, on-behalf header and rate
    // limit. createMcpServer shares everything caller-independent, so this stays light.
    const server = createMcpServer(
      options.tools,
      { db: app.db, config, principal, onBehalfOfHeader: Array.isArray(onBehalf) ? onBehalf[0] : onBehalf, bulkheads: options.bulkheads },
      options.beforeCall?.(principal),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
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

/** Plain JSON when the client accepts only JSON or prefers it by q-value; SSE when it accepts only SSE. */
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
