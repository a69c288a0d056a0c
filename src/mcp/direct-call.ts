// The direct call path of /mcp: a plain tools/call, the message nearly every request of a
// session carries, served without the SDK's transport and server. They turn the Node
// request into a web Request and the reply into a web stream, and parse the message and
// the result again with zod, which made a call cost twice the CPU of the same REST request
// (bench: 0.89 against 0.40 ms of node). The same toolCaller serves it (server.ts), and the
// reply is what the transport writes: one JSON-RPC response, as JSON or as SSE (the priming
// event with `retry` from 2025-11-25 on, then the message event), each with its event id.
// Whatever is not a plain call takes the SDK call path (sdk-call.ts).
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.ts';
import { ProtocolError, type toolCaller, type ToolCallParams } from './server.ts';
import { wantsJson } from './transport-rules.ts';

/** What a caller's toolCaller (server.ts) gives: its tools/call, served once per message. */
type CallTool = ReturnType<typeof toolCaller>;

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
 * Serves a plain tools/call with the caller's `callTool`, for the session's negotiated
 * protocol `revision`, and writes the JSON-RPC response (the reply is hijacked).
 */
export async function callDirectly(
  request: FastifyRequest,
  reply: FastifyReply,
  mcp: Config['mcp'],
  callTool: CallTool,
  call: PlainToolCall,
  revision: string,
): Promise<FastifyReply> {
  let message: Record<string, unknown>;
  try {
    message = { jsonrpc: '2.0', id: call.id, result: await callTool(call.params, revision) };
  } catch (err) {
    // A ProtocolError (an unknown tool) as the SDK's protocol layer answers it; anything
    // else is our fault: logged, and the client told no more than that.
    if (!(err instanceof ProtocolError)) request.log.error({ err }, 'MCP tool call failed');
    message =
      err instanceof ProtocolError
        ? { jsonrpc: '2.0', id: call.id, error: { code: err.code, message: err.message } }
        : { jsonrpc: '2.0', id: call.id, error: { code: ErrorCode.InternalError, message: 'Internal error' } };
  }
  const text = JSON.stringify(message);
  // Written as the SDK path writes (hijacked): the same headers, in one write.
  reply.hijack();
  if (wantsJson(request.headers.accept, mcp.responseMode)) {
    reply.raw.writeHead(200, { 'content-type': 'application/json', 'x-request-id': request.id }).end(text);
    return reply;
  }
  const stream = randomUUID();
  const priming = revision >= '2025-11-25' ? `id: ${stream}.0\nretry: ${mcp.sseRetryMs}\ndata: \n\n` : '';
  reply.raw
    .writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    })
    .end(`${priming}event: message\nid: ${stream}.${priming ? 1 : 0}\ndata: ${text}\n\n`);
  return reply;
}
