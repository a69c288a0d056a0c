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
// MCP_RESPONSE_MODE decides. GET with a session opens its server-to-client stream
// (streams.ts: resource-updated notifications, resumable with Last-Event-ID).
//
// Refusals before the body is read as JSON-RPC (Host, Origin, media types, body size) use
// the service's error shape; the rest are JSON-RPC error objects with no id (rpc-error.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../auth/principal.ts';
import { protectedResourceMetadataUrl } from '../auth/resource-metadata.ts';
import { createMcpServer, toolCaller, type BeforeCall } from './server.ts';
import { sweepExportLinks } from './exports.ts';
import { enforceTransportRules, messageRefusal } from './transport-rules.ts';
import { admit } from './admission.ts';
import { endSession, openSession, sessionOfRequest, SessionsInFlight } from './http-sessions.ts';
import { callDirectly, plainToolCall } from './direct-call.ts';
import { serveWithSdk } from './sdk-call.ts';
import { rpcError } from './rpc-error.ts';
import { openSessionStore, sessionIdHash } from './sessions.ts';
import { SessionStreams, sessionSubscriptions } from './streams.ts';
import { PublishWatcher, publishedSeq } from '../services/monitor-updates.ts';
import { hasStreamEvent, latestStreamEventId, STREAM_EVENTS_KEPT, sweepStreamEvents } from '../store/mcp-streams.ts';
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

/** Registers POST, GET (the session's stream) and DELETE /mcp, with the session store, the streams and the sweepers they use. */
export async function mcpHttpRoutes(app: FastifyInstance, options: McpHttpOptions): Promise<void> {
  const { config } = app;
  const sessions = await openSessionStore(
    app.db,
    config.redisUrl,
    { ttlMs: config.mcp.sessionTtlSeconds * 1000, maxPerClient: config.mcp.maxSessionsPerClient },
    (message, err) => app.log.warn({ err }, message),
  );
  // Expired export links are deleted every 10 minutes (they live an hour).
  // Stream messages past the session TTL go with them, and the subscriptions of ended sessions.
  const exportSweeper = setInterval(() => {
    void sweepExportLinks(app.db).catch((err) => app.log.warn({ err }, 'MCP export link sweep failed'));
    void sweepStreamEvents(app.db, new Date(Date.now() - config.mcp.sessionTtlSeconds * 1000), (hashes) => sessions.liveHashes(hashes)).catch((err) =>
      app.log.warn({ err }, 'MCP stream sweep failed'),
    );
  }, 600_000).unref();
  app.addHook('onClose', async () => {
    clearInterval(exportSweeper);
    await sessions.close();
    await options.usage?.flush();
  });
  const inFlight = new SessionsInFlight();
  // What other instances publish reaches this one's streams through a watcher of the published seq.
  const watcher = new PublishWatcher(app.db, (err) => app.log.warn({ err }, 'MCP stream: reading the published seq failed'));
  watcher.start();
  const streams = new SessionStreams(
    app.db,
    [app.events, watcher],
    config.mcp.sessionTtlSeconds * 1000,
    (err) => app.log.warn({ err }, 'MCP stream check failed'),
    async (id) => (await sessions.get(id)) !== undefined,
  );
  app.addHook('preClose', async () => {
    streams.close();
    watcher.stop();
  });
  const resourceMetadata = protectedResourceMetadataUrl(config);
  enforceTransportRules(app);

  app.post('/mcp', { schema: { hide: true }, config: { admitsCallerItself: true }, bodyLimit: config.mcp.bodyLimitBytes }, async (request, reply) => {
    const principal = await admit(app, resourceMetadata, request, reply);
    if (!principal) return reply;
    const body = request.body;
    const refusal = messageRefusal(body);
    if (refusal) return rpcError(reply, 400, refusal[0], refusal[1]);
    let sessionVersion: string | undefined;
    let sessionId: string;
    if (isInitializeRequest(body)) {
      if (!(await openSession(sessions, inFlight, request, reply, principal, body.params.protocolVersion))) return reply;
      sessionId = String(reply.raw.getHeader('mcp-session-id'));
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
      sessionId = session.id;
    }
    const subscriptions = sessionSubscriptions(app.db, sessionId, principal.clientId, () => publishedSeq(app.db));
    const server = createMcpServer(options.tools, toolContext(app, options, request, principal), options.beforeCall?.(principal), undefined, subscriptions);
    await serveWithSdk(request, reply, config.mcp, server, body, sessionVersion);
    return reply;
  });

  app.delete('/mcp', { schema: { hide: true }, config: { admitsCallerItself: true } }, async (request, reply) => {
    const principal = await admit(app, resourceMetadata, request, reply);
    if (!principal) return reply;
    const session = await sessionOfRequest(sessions, request, reply, principal);
    if (!session) return reply;
    await endSession(sessions, session);
    await streams.end(session.id);
    return reply.code(204).send();
  });

  // The session's server-to-client stream (streams.ts): what its subscriptions announce.
  app.get('/mcp', { schema: { hide: true }, config: { admitsCallerItself: true } }, async (request, reply) => {
    const accept = request.headers.accept ?? '';
    if (!/(^|,)\s*(text\/event-stream|text\/\*|\*\/\*)\s*(;|,|$)/i.test(accept))
      return rpcError(reply, 406, -32000, 'Not Acceptable: GET /mcp is a text/event-stream; send Accept: text/event-stream');
    const principal = await admit(app, resourceMetadata, request, reply);
    if (!principal) return reply;
    const session = await sessionOfRequest(sessions, request, reply, principal);
    if (!session) return reply;
    const lastEventId = request.headers['last-event-id'];
    let afterId: number;
    if (typeof lastEventId === 'string' && lastEventId !== '') {
      const id = /^[0-9]{1,15}$/.test(lastEventId) ? Number(lastEventId) : undefined;
      if (id === undefined || !(await hasStreamEvent(app.db, sessionIdHash(session.id), id)))
        return rpcError(
          reply,
          400,
          -32000,
          `Bad Request: Last-Event-ID ${JSON.stringify(lastEventId.slice(0, 40))} names no message this session's stream still keeps (unknown, or past the newest ${STREAM_EVENTS_KEPT} or the session TTL); open the stream without Last-Event-ID and read your subscribed resources again`,
        );
      afterId = id;
    } else {
      if (streams.has(session.id))
        return rpcError(
          reply,
          409,
          -32000,
          'Conflict: this session already has its GET stream open (one per session); resume with Last-Event-ID to replace it',
        );
      afterId = await latestStreamEventId(app.db, sessionIdHash(session.id));
    }
    reply.hijack();
    await streams.serve(reply, session.id, principal.clientId, afterId);
    return reply;
  });
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
