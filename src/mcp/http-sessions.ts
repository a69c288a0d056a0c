// The session of a request at /mcp, over the shared session store (sessions.ts): made at
// initialize, found and checked on every later request (its protocol version header, its
// id, its owner), ended by DELETE. The sessions of this instance with a request in flight
// are tracked here, so that a client at its session cap never loses a session in use. This
// process's session counters (telemetry/metrics.ts) are kept here too.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import { AppError } from '../errors.ts';
import { mcpSessionsEnded, mcpSessionsOpened } from '../telemetry/metrics.ts';
import { sessionIdHash, type McpSession, type SessionStore } from './sessions.ts';
import { negotiatedVersion, protocolVersionRefusal } from './transport-rules.ts';
import { rpcError } from './rpc-error.ts';

/**
 * The sessions of this instance with a request in flight (an SSE stream is one until it
 * ends): a client at its session cap has its least recently used session outside these ended.
 */
export class SessionsInFlight {
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

/**
 * A new session for an initialize request, its id sent in the mcp-session-id header; false
 * when the store refuses it (a 429 when every session of the client is busy) and the
 * JSON-RPC error is written.
 */
export async function openSession(
  sessions: SessionStore,
  inFlight: SessionsInFlight,
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  requestedVersion: string,
): Promise<boolean> {
  try {
    const session = await sessions.create(principal.clientId, negotiatedVersion(requestedVersion), inFlight.busy());
    mcpSessionsOpened.inc();
    if (session.evicted) mcpSessionsEnded.inc();
    reply.raw.setHeader('mcp-session-id', session.id);
    return true;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    request.errorCode = err.code;
    rpcError(reply, err.status, -32000, err.message, err.headers);
    return false;
  }
}

/**
 * After initialize: the version header (absent: 2025-03-26, per the spec), then the
 * session. Undefined when either is refused and the JSON-RPC error is written.
 */
export async function sessionOfRequest(
  sessions: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
): Promise<McpSession | undefined> {
  const versionRefusal = protocolVersionRefusal(request.headers['mcp-protocol-version']);
  if (versionRefusal) {
    rpcError(reply, 400, -32000, `Bad Request: ${versionRefusal}`);
    return undefined;
  }
  return sessionFor(sessions, request, reply, principal);
}

/** The session the mcp-session-id header names, when it is live and the caller's own. */
async function sessionFor(sessions: SessionStore, request: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<McpSession | undefined> {
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
}

/** Ends a session (DELETE /mcp); counted once, by the request that deleted it. */
export async function endSession(sessions: SessionStore, session: McpSession): Promise<void> {
  if (await sessions.delete(session.id)) mcpSessionsEnded.inc();
}
