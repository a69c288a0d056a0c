// The Streamable HTTP transport's request rules, as pure functions over header values and
// the parsed body: Host and Origin against an allow-list (DNS-rebinding protection), the
// Accept and Content-Type rules of POST, one JSON-RPC message per body, the
// MCP-Protocol-Version header, and the form of the reply (wantsJson). Each refusal rule
// answers undefined (allowed) or the reason for the refusal. enforceTransportRules (at the
// end) applies the rules that come before authentication to every request of the MCP
// routes; the door (http.ts, http-sessions.ts) turns the others' reasons into responses.
import type { FastifyError, FastifyInstance } from 'fastify';
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.ts';
import { AppError, ForbiddenError, PayloadTooLargeError } from '../errors.ts';

/** The names a loopback server is reached by; allowed with the server's own port. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** Per the transport spec, a request after initialize without the header is 2025-03-26. */
const PROTOCOL_VERSION_WITHOUT_HEADER = DEFAULT_NEGOTIATED_PROTOCOL_VERSION;

/** `host[:port]` as URL normalizes it (lower case, default port dropped), or undefined when it is not one. */
function normalHost(value: string, scheme = 'http'): string | undefined {
  if (!value || /[\s/?#@\\]/.test(value)) return undefined;
  try {
    return new URL(`${scheme}://${value}`).host;
  } catch {
    return undefined;
  }
}

function normalOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

interface OriginRules {
  /** Refusal reason for the request's Host and Origin headers, seen on a server listening on `serverPort`. */
  check(host: string | undefined, origin: string | undefined, serverPort: number): string | undefined;
}

/**
 * Host: the loopback names with the server's port, PUBLIC_URL's host, MCP_ALLOWED_HOSTS
 * (`*`: any). Origin (when sent: browsers send it, other clients need not): the same
 * loopback names over http and https, PUBLIC_URL's origin, MCP_ALLOWED_ORIGINS.
 */
export function originRules(config: Pick<Config, 'publicUrl'> & { mcp: Pick<Config['mcp'], 'allowedHosts' | 'allowedOrigins'> }): OriginRules {
  const publicUrl = new URL(config.publicUrl);
  const fixedHosts = new Set<string>();
  if (config.mcp.allowedHosts !== '*') {
    for (const h of [publicUrl.host, ...config.mcp.allowedHosts]) {
      const normal = normalHost(h);
      if (normal) fixedHosts.add(normal);
    }
    // Behind a proxy the Host may carry the public URL's default port explicitly.
    if (!publicUrl.port) fixedHosts.add(`${publicUrl.hostname}:${publicUrl.protocol === 'https:' ? 443 : 80}`);
  }
  const fixedOrigins = new Set([publicUrl.origin, ...config.mcp.allowedOrigins.map((o) => normalOrigin(o)).filter((o): o is string => o !== undefined)]);
  const loopbackHosts = new Map<number, Set<string>>();
  const loopbackOrigins = new Map<number, Set<string>>();
  const loopback = (port: number) => {
    let hosts = loopbackHosts.get(port);
    let origins = loopbackOrigins.get(port);
    if (!hosts || !origins) {
      hosts = new Set(LOOPBACK_NAMES.map((name) => normalHost(`${name}:${port}`)!));
      origins = new Set(LOOPBACK_NAMES.flatMap((name) => [`http://${name}:${port}`, `https://${name}:${port}`].map((o) => normalOrigin(o)!)));
      loopbackHosts.set(port, hosts);
      loopbackOrigins.set(port, origins);
    }
    return { hosts, origins };
  };

  return {
    check(host, origin, serverPort) {
      const local = loopback(serverPort);
      if (config.mcp.allowedHosts !== '*') {
        if (host === undefined || host === '') return 'the Host header is required';
        const normal = normalHost(host);
        if (!normal || !(fixedHosts.has(normal) || local.hosts.has(normal))) {
          return `Host '${host.slice(0, 200)}' is not allowed (a loopback name with port ${serverPort}, the public URL's host, or MCP_ALLOWED_HOSTS)`;
        }
      }
      if (origin !== undefined) {
        const normal = normalOrigin(origin);
        if (!normal || !(fixedOrigins.has(normal) || local.origins.has(normal))) {
          return `Origin '${origin.slice(0, 200)}' is not allowed (a loopback origin with port ${serverPort}, the public URL's origin, or MCP_ALLOWED_ORIGINS)`;
        }
      }
      return undefined;
    },
  };
}

/** The q-value the Accept header gives a media type (wildcards count; absent header: everything at 1). */
export function acceptQuality(accept: string | undefined, type: string): number {
  if (accept === undefined || accept.trim() === '') return 1;
  const [major] = type.split('/');
  let best = -1;
  let specificity = -1;
  for (const part of accept.split(',')) {
    const [media, ...params] = part
      .trim()
      .split(';')
      .map((s) => s.trim().toLowerCase());
    if (!media) continue;
    const rank = media === type ? 2 : media === `${major}/*` ? 1 : media === '*/*' ? 0 : -1;
    if (rank < 0 || rank < specificity) continue;
    const qp = params.find((p) => p.startsWith('q='));
    const q = qp ? Number(qp.slice(2)) : 1;
    if (rank > specificity || q > best) best = Number.isFinite(q) ? q : 0;
    specificity = rank;
  }
  return Math.max(0, best);
}

/**
 * POST: the client must accept both application/json and text/event-stream (2025-03-26
 * and later); the body must be application/json. Returns [status, reason] or undefined.
 */
export function postMediaRefusal(accept: string | undefined, contentType: string | undefined): [406 | 415, string] | undefined {
  const mediaType = contentType?.split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return [415, `Content-Type must be application/json (got ${contentType ? `'${contentType.slice(0, 100)}'` : 'none'})`];
  }
  if (acceptQuality(accept, 'application/json') <= 0 || acceptQuality(accept, 'text/event-stream') <= 0) {
    return [406, 'Accept must list both application/json and text/event-stream'];
  }
  return undefined;
}

/** Refusal reason for the MCP-Protocol-Version header of a request after initialize. */
export function protocolVersionRefusal(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (SUPPORTED_PROTOCOL_VERSIONS.includes(value)) return undefined;
  return `Unsupported MCP-Protocol-Version '${value.slice(0, 40)}' (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}; absent means ${PROTOCOL_VERSION_WITHOUT_HEADER})`;
}

/** The revision the server negotiates for a requested one (as the SDK's Server does). */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** What the JSON body parser leaves for a body that is not JSON; messageRefusal answers it. */
const MALFORMED_JSON = Symbol('malformed JSON');

/**
 * Refusal of a POST body that is not one JSON-RPC message (a 400), as [JSON-RPC error
 * code, message]: malformed JSON is a parse error (-32700), a batch or a non-object an
 * invalid request (-32600).
 */
export function messageRefusal(body: unknown): [number, string] | undefined {
  if (body === MALFORMED_JSON) return [-32700, 'Parse error: the body is not valid JSON'];
  if (Array.isArray(body)) {
    return [-32600, 'Invalid Request: JSON-RPC batches are not supported (removed in protocol 2025-06-18); send one message per request'];
  }
  if (body === undefined || body === null || typeof body !== 'object') {
    return [-32600, 'Invalid Request: the body must be one JSON-RPC 2.0 message'];
  }
  return undefined;
}

/** Plain JSON when the client prefers it by q-value; SSE when it prefers SSE; else the configured mode. */
export function wantsJson(accept: string | undefined, defaultMode: 'sse' | 'json'): boolean {
  const q = (type: string): number => {
    for (const part of (accept ?? '').split(',')) {
      const [media, ...params] = part
        .trim()
        .split(';')
        .map((s) => s.trim());
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

/**
 * The rules met before authentication, on every request of the routes registered on `app`
 * (the MCP routes' own plugin context): Host and Origin (403), POST media types (415/406)
 * and the body cap (413), answered in the service's error shape by the app's one error
 * handler, because the body has not been read as JSON-RPC yet; and the JSON body parser,
 * which leaves MALFORMED_JSON for messageRefusal instead of the REST error body.
 */
export function enforceTransportRules(app: FastifyInstance): void {
  const { config } = app;
  const origins = originRules(config);

  // Malformed JSON is a JSON-RPC parse error (-32700), not the REST error body.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, body === '' ? undefined : JSON.parse(body as string));
    } catch {
      done(null, MALFORMED_JSON);
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
}
