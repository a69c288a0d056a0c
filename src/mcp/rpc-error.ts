// The door's JSON-RPC error reply: an error object with no id (the message was refused
// before it was read as a request, so there is no id to answer), with its HTTP status and
// headers. Every refusal at /mcp after the transport rules is written by this one function.
import type { FastifyReply } from 'fastify';

export function rpcError(reply: FastifyReply, status: number, code: number, message: string, headers: Record<string, string> = {}): FastifyReply {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
}
