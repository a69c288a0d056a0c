// The SDK call path of /mcp: every message but a plain tools/call (initialize, lists, reads,
// prompts, notifications, whatever is not plain) is served by a fresh SDK server over a
// stateless Streamable HTTP transport, one pair per request. Stateless, because memory
// stays flat, where a stateful session answering plain JSON grew the heap by about 7 KB per
// call in a soak; the session lives in the shared store instead (sessions.ts). Replies are
// SSE or plain JSON according to Accept (wantsJson); an SSE reply opens with a priming event
// carrying `retry` (protocol 2025-11-25 and later).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport, type EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Config } from '../config.ts';
import { wantsJson } from './transport-rules.ts';

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

/**
 * Serves one message with `server`, made for this request (createMcpServer): a server per
 * request, not per session, because an SDK server connects to one transport at a time and a
 * stateless transport serves one request, while a session may have several requests in
 * flight, each with its own principal check, on-behalf header and rate limit.
 * createMcpServer shares everything caller-independent, so this stays light.
 * `sessionVersion` is the version the session negotiated (none for initialize).
 */
export async function serveWithSdk(
  request: FastifyRequest,
  reply: FastifyReply,
  mcp: Config['mcp'],
  server: Server,
  body: unknown,
  sessionVersion?: string,
): Promise<void> {
  // The transport decides version-dependent behaviour (the SSE priming event) by this
  // header; the session knows the version actually negotiated.
  if (sessionVersion !== undefined) overrideHeader(request, 'mcp-protocol-version', sessionVersion);
  const json = wantsJson(request.headers.accept, mcp.responseMode);
  // The SDK insists on both media types by name; the Accept rule (wildcards count) was
  // checked before (transport-rules.ts), and the choice between them is ours (wantsJson).
  overrideHeader(request, 'accept', 'application/json, text/event-stream');
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: json,
    eventStore: json ? undefined : new EventNumbering(),
    retryInterval: mcp.sseRetryMs,
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
