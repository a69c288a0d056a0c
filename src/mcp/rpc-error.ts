// The door's JSON-RPC refusal of a request (admission, the message rules, the session):
// an error object with no id, as the SDK transport writes its own refusals, because it
// answers the HTTP request rather than one JSON-RPC call; with its HTTP status and headers.
import type { FastifyReply } from 'fastify';

export function rpcError(reply: FastifyReply, status: number, code: number, message: string, headers: Record<string, string> = {}): FastifyReply {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
}
