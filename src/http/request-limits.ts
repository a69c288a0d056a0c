// Limits on the request line and headers, and the replies that refuse them, in the service's
// error shape with a request id (never Node's or Fastify's raw body):
// - a URL longer than MAX_URL_LENGTH → 414, headers larger than MAX_HEADERS_BYTES → 431,
//   checked by a hook on the parsed request;
// - a request line plus headers beyond MAX_REQUEST_HEAD_BYTES never reaches a hook: Node's
//   parser refuses it (HPE_HEADER_OVERFLOW, for a long URL too) and `clientErrorHandler`
//   writes a 431 on the socket;
// - the router's refusals (a path parameter over its limit → 414, a malformed URL → 400)
//   arrive in `frameworkErrors`.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { reasonPhrase } from '../errors.ts';
import { MAX_PATH_PARAM } from '../schemas/params.ts';
import { sendError } from './plugins/errors.ts';

/** Longest URL (path and query string, as sent): longer is 414 URI Too Long. */
export const MAX_URL_LENGTH = 32 * 1024;
/** Largest header section (names and values, as sent): larger is 431. */
export const MAX_HEADERS_BYTES = 16 * 1024;
/**
 * Node's parser limit on the request line and headers together (its maxHeaderSize). Above
 * both limits, so that a 64 KB URL still reaches the hook and gets its 414 with a request id.
 */
export const MAX_REQUEST_HEAD_BYTES = 128 * 1024;

/**
 * A client-sent X-Request-Id is kept when it is 1-128 characters of letters, digits and
 * `. _ : / + = @ -`, starting with a letter or digit (UUIDs, hex and most tracing ids);
 * otherwise the request gets a generated UUID. Nothing a log viewer, a shell or a CSV
 * could read as markup, quoting or a new line reaches the logs or the reply.
 */
const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:\/+=@-]{0,127}$/;

export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** The 414/431 check, first hook of every request (the not-found and 405 replies included). */
export async function checkRequestHead(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const url = request.raw.url ?? '';
  if (url.length > MAX_URL_LENGTH) {
    request.errorCode = 'uri_too_long';
    return sendError(
      request,
      reply,
      414,
      `The URL is ${url.length} characters long; at most ${MAX_URL_LENGTH} are accepted (send long inputs in a body where the operation takes one)`,
    );
  }
  const raw = request.raw.rawHeaders;
  let bytes = 0;
  for (const part of raw) bytes += part.length + 2;
  if (bytes > MAX_HEADERS_BYTES) {
    request.errorCode = 'headers_too_large';
    return sendError(request, reply, 431, `The request headers take ${bytes} bytes; at most ${MAX_HEADERS_BYTES} are accepted`);
  }
  return undefined;
}

/** The router's own refusals, in the service's error shape. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    request.errorCode = 'uri_too_long';
    void sendError(request, reply, 414, `A path parameter is longer than ${MAX_PATH_PARAM} characters (as sent, percent-encoding included)`);
    return;
  }
  request.errorCode = 'bad_request';
  void sendError(request, reply, 400, error.code === 'FST_ERR_BAD_URL' ? 'The URL is malformed (invalid percent-encoding)' : error.message);
}

/**
 * Node's client errors, answered on the socket: the request was not parsed, so no hook or
 * handler runs. The body still has the service's shape and a request id (also logged).
 */
type ClientError = Error & { code?: string };

function clientErrorReply(err: ClientError): { status: number; body: string; requestId: string } {
  let status: number;
  let message: string;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT') {
    status = 408;
    message = 'The request was not received in time';
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    // Node counts the request line and the headers together and does not say which one
    // overflowed (the packet at hand may be the middle of either): one answer for both.
    status = 431;
    message = `The request line and headers together exceed ${MAX_REQUEST_HEAD_BYTES} bytes (URLs over ${MAX_URL_LENGTH} characters are refused with 414 below that)`;
  } else if (err.code === 'HPE_URI_TOO_LONG') {
    status = 414;
    message = `The URL is longer than ${MAX_URL_LENGTH} characters`;
  } else {
    status = 400;
    message = 'The request is not valid HTTP/1.1';
  }
  const requestId = randomUUID();
  const body = JSON.stringify({ status, error: reasonPhrase(status), message, requestId });
  return { status, body, requestId };
}

export function clientErrorHandler(this: FastifyInstance, err: ClientError, socket: Socket): void {
  // A connection reset: nobody is left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const reply = clientErrorReply(err);
  if (socket.writable) {
    this.log.info({ reqId: reply.requestId, statusCode: reply.status, errorCode: err.code }, 'request refused by the HTTP parser');
    socket.write(
      `HTTP/1.1 ${reply.status} ${reasonPhrase(reply.status)}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(reply.body)}\r\nX-Request-Id: ${reply.requestId}\r\nConnection: close\r\n\r\n${reply.body}`,
    );
  }
  socket.destroy(err);
}
