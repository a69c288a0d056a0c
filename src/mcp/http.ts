// The MCP door at /mcp: JSON-RPC 2.0 over Streamable HTTP. This file wires the routes; each
// step a request meets is a part of its own, in this order:
//   transport rules (transport-rules.ts): Host and Origin against an allow-list
//     (DNS-rebinding protection, 403), the POST media rules (415/406) and body cap (413),
//     before authentication; after it, one JSON-RPC message per body (no batches);
//   admission (admission.ts): authentication (X-API-Key, or a Bearer token whose audience is
//     the MCP resource; 401s name the protected-resource metadata), then the caller's share
//     of requests in flight;
//   the session (http-sessions.ts): made at initialize, else the protocol-version rule and
//     the session named by mcp-session-id, shared by every instance (sessions.ts);
//   the call: a plain tools/call is served directly (direct-call.ts, the hot path), anything
//     else by a fresh server + stateless SDK transport (sdk-call.ts).
// Replies are SSE or plain JSON according to Accept; with both at the same q-value,
// MCP_RESPONSE_MODE decides.
//
// Refusals before the body is read as JSON-RPC (Host, Origin, media types, body size) use
// the service's error shape; the rest are JSON-RPC error objects with no id (rpc-error.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../auth/principal.ts';
import { protectedResourceMetadataUrl } from '../auth/resource-metadata.ts';
import { createMcpServer, toolCaller, type BeforeCall } from './server.ts';
import { openSessionStore } from './sessions.ts';
import { sweepExportLinks } from './exports.ts';
import { enforceTransportRules, messageRefusal } from './transport-rules.ts';
import { admit } from './admission.ts';
import { endSession, openSession, sessionOfRequest, SessionsInFlight } from './http-sessions.ts';
import { callDirectly, plainToolCall } from './direct-call.ts';
import { serveWithSdk } from './sdk-call.ts';
import { rpcError } from './rpc-error.ts';
import type { ToolContext, ToolDef } from './registry.ts';
import type { Bulkheads } from '../bulkhead.ts';
import type { UsageRecorder } from '../services/usage.ts';

interface McpHttpOptions {
  tools: ToolDef[];
  /** Rate limiting and other checks per tool call. */
  beforeCall?: (principal: Principal) => BeforeCall;
  /** The app's bulkheads: each tool call runs in its operation's, as the REST route does. */
  bulkheads?: Bulkheads;
  /** The app's usage records: each tool call and resource read counts as a REST request of its operation does. */
  usage?: UsageRecorder;
}

/** Registers POST and DELETE /mcp (GET is a 405), with the session store and the export-link sweeper they use. */
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
  const resourceMetadata = protectedResourceMetadataUrl(config);
  enforceTransportRules(app);

  app.post('/mcp', { schema: { hide: true }, config: { admitsCallerItself: true }, bodyLimit: config.mcp.bodyLimitBytes }, async (request, reply) => {
    const principal = await admit(app, resourceMetadata, request, reply);
    if (!principal) return reply;
    const body = request.body;
    const refusal = messageRefusal(body);
    if (refusal) return rpcError(reply, 400, refusal[0], refusal[1]);
    let sessionVersion: string | undefined;
    if (isInitializeRequest(body)) {
      if (!(await openSession(sessions, inFlight, request, reply, principal, body.params.protocolVersion))) return reply;
    } else {
      const session = await sessionOfRequest(sessions, request, reply, principal);
      if (!session) return reply;
      inFlight.hold(session.id, reply);
      const call = plainToolCall(body);
      if (call) {
        const callTool = toolCaller(options.tools, toolContext(app, options, request, principal), options.beforeCall?.(principal));
        return callDirectly(request, reply, config.mcp, callTool, call, session.protocolVersion);
      }
      sessionVersion = session.protocolVersion;
    }
    const server = createMcpServer(options.tools, toolContext(app, options, request, principal), options.beforeCall?.(principal));
    await serveWithSdk(request, reply, config.mcp, server, body, sessionVersion);
    return reply;
  });

  app.delete('/mcp', { schema: { hide: true }, config: { admitsCallerItself: true } }, async (request, reply) => {
    const principal = await admit(app, resourceMetadata, request, reply);
    if (!principal) return reply;
    const session = await sessionOfRequest(sessions, request, reply, principal);
    if (!session) return reply;
    await endSession(sessions, session);
    return reply.code(204).send();
  });

  app.get('/mcp', { schema: { hide: true } }, async (_request, reply) =>
    rpcError(reply, 405, -32000, 'Method Not Allowed: this server sends no server-initiated messages; use POST', { allow: 'POST, DELETE' }),
  );
}

/** What every tool call and SDK server of this request works with: the caller and its door's services. */
function toolContext(app: FastifyInstance, options: McpHttpOptions, request: FastifyRequest, principal: Principal): ToolContext {
  const onBehalf = request.headers['x-on-behalf-of-user'];
  // `?tools=all` on the server URL a client is configured with: the whole list for this client.
  const tools = (request.query as Record<string, unknown> | undefined)?.tools;
  return {
    toolList: tools === 'all' || tools === 'core' ? tools : undefined,
    db: app.db,
    config: app.config,
    principal,
    onBehalfOfHeader: Array.isArray(onBehalf) ? onBehalf[0] : onBehalf,
    bulkheads: options.bulkheads,
    usage: options.usage,
    detector: app.detector,
  };
}
