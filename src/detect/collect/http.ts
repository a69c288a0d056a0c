// One HTTP request of a collector, SSRF-safe: the host is resolved with the collector's
// resolver, every address is checked against the network policy, and the socket connects to
// the checked address through a pinned `lookup` (no second resolution between check and
// connect, so no DNS rebinding); the Host header and TLS SNI keep the name. The whole request
// has one deadline, and the body (after decompression) stops at a byte cap. At the cap, the
// deadline or an abort the socket, the response and the decoder are all destroyed: no byte is
// read or inflated for an answer already given.
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import zlib from 'node:zlib';
import { BlockedAddressError, checkUrl, compileAllowList, isAllowedAddress, type NetworkPolicy } from './address.ts';
import { resolveAddresses, type DnsResolver } from './dns.ts';

interface HopOptions {
  resolver: DnsResolver;
  policy: NetworkPolicy;
  timeoutMs: number;
  maxBytes: number;
  userAgent: string;
  accept?: string;
  signal?: AbortSignal;
  /** Extra trusted CA certificates (PEM) for HTTPS, beside the system's. */
  ca?: string | Buffer;
  /** Awaited after the address is resolved and checked, right before connecting (the politeness wait). */
  beforeConnect?: () => Promise<void>;
  /** A POST with this body (webhook deliveries; `method` PUT or PATCH for the CRM connectors); default a GET. */
  post?: { body: Buffer; headers: Readonly<Record<string, string>>; method?: 'POST' | 'PUT' | 'PATCH' };
  /** Extra request headers on any method (an API token for a GET). */
  headers?: Readonly<Record<string, string>>;
}

export interface HopResponse {
  url: string;
  status: number;
  /** Lower-case names; repeated headers joined as node does, set-cookie left out (see cookies). */
  headers: Record<string, string | string[]>;
  cookies: string[];
  body: Buffer;
  /** The body reached maxBytes and was cut there. */
  truncated: boolean;
  /** The address the socket connected to. */
  address: string;
}

/** A failed request; `reason` is stable (retries and the crawl's summary use it). */
export class FetchError extends Error {
  override name = 'FetchError';
  constructor(
    readonly reason: 'timeout' | 'connect' | 'tls' | 'reset' | 'protocol' | 'too_many_redirects' | 'aborted',
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/** Resolves the URL's host and returns the addresses the policy allows; throws when none is. */
async function allowedAddresses(url: URL, resolver: DnsResolver, policy: NetworkPolicy): Promise<string[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await resolveAddresses(resolver, host);
  const allow = compileAllowList(policy.allowNetworks);
  const ok = addresses.filter((a) => isAllowedAddress(a, policy, allow));
  // One refused address refuses the name: a public record beside a private one is how a
  // rebinding attack hedges, and no real site needs its home page served from 10.0.0.1.
  // The message names no address: it reaches callers of /api/detect and the MCP tool, who must
  // not learn what an internal name resolves to. (A literal host was judged by checkUrl.)
  if (ok.length !== addresses.length || ok.length === 0) {
    throw new BlockedAddressError('non_public_address', `${url.hostname} does not resolve to a public address; only public addresses are fetched`);
  }
  return ok;
}

/**
 * Checks a URL a client stores to be called later (a CRM base URL) as a request to it would be:
 * the URL's form (checkUrl), then every address its name resolves to. Throws
 * BlockedAddressError, or DnsError when the name does not resolve.
 */
export async function checkTarget(raw: string, resolver: DnsResolver, policy: NetworkPolicy): Promise<URL> {
  const url = checkUrl(raw, policy);
  await allowedAddresses(url, resolver, policy);
  return url;
}

const CODES_TRANSIENT = new Set(['ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ECONNABORTED', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

function classify(err: NodeJS.ErrnoException): FetchError {
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED') return new FetchError('connect', `connection refused (${err.message})`, true);
  if (code === 'ECONNRESET' || code === 'EPIPE') return new FetchError('reset', `connection reset (${err.message})`, true);
  if (/CERT|SSL|TLS|ERR_TLS/i.test(code) || /certificate|ssl/i.test(err.message)) return new FetchError('tls', `TLS: ${err.message}`, false);
  if (code.startsWith('HPE_')) return new FetchError('protocol', `bad HTTP response: ${err.message}`, false);
  return new FetchError('connect', err.message, CODES_TRANSIENT.has(code));
}

function decoderFor(encoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

/** One request, no redirects followed. The URL must have passed checkUrl. */
export async function requestOnce(url: URL, opts: HopOptions): Promise<HopResponse> {
  checkUrl(url.href, opts.policy);
  const addresses = await allowedAddresses(url, opts.resolver, opts.policy);
  await opts.beforeConnect?.();
  const address = addresses[0]!;
  const family = isIP(address);
  // The pinned lookup: net.connect asks it for the host's address and gets the checked one.
  const lookup = (_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options?.all) cb(null, [{ address, family } satisfies LookupAddress]);
    else cb(null, address, family);
  };
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise<HopResponse>((resolve, reject) => {
    let settled = false;
    let response: http.IncomingMessage | undefined;
    let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null = null;
    // Ends every part of the exchange: the decoder (which would otherwise go on inflating
    // whatever was already written into it, 64 MiB from 100 bytes of brotli), the response and
    // the socket. Called once the answer is known, whichever way: body cap, end, error,
    // deadline or abort.
    const stop = () => {
      decoder?.destroy();
      response?.destroy();
      req.destroy();
    };
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      stop();
    };
    const fail = (err: Error) => {
      if (settled) return;
      settle();
      reject(err);
    };
    const timer = setTimeout(() => fail(new FetchError('timeout', `no complete response within ${opts.timeoutMs} ms`, true)), opts.timeoutMs);
    const onAbort = () => fail(new FetchError('aborted', 'aborted', false));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const req = mod.request(
      url,
      {
        method: opts.post ? (opts.post.method ?? 'POST') : 'GET',
        lookup: lookup as never,
        agent: false,
        servername: isIP(url.hostname.replace(/^\[|\]$/g, '')) ? undefined : url.hostname,
        ...(opts.ca ? { ca: opts.ca } : {}),
        headers: {
          'user-agent': opts.userAgent,
          accept: opts.accept ?? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
          'accept-language': 'en',
          ...opts.headers,
          ...(opts.post ? { ...opts.post.headers, 'content-length': String(opts.post.body.length) } : {}),
        },
      },
      (res) => {
        response = res;
        const cookies = res.headers['set-cookie'] ?? [];
        const headers: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(res.headers)) if (k !== 'set-cookie' && v !== undefined) headers[k] = v;
        decoder = decoderFor(res.headers['content-encoding']);
        const source: NodeJS.ReadableStream = decoder ? res.pipe(decoder) : res;
        const chunks: Buffer[] = [];
        let size = 0,
          truncated = false;
        const finish = () => {
          if (settled) return;
          settle();
          resolve({ url: url.href, status: res.statusCode ?? 0, headers, cookies, body: Buffer.concat(chunks), truncated, address });
        };
        source.on('data', (chunk: Buffer) => {
          if (settled) return;
          const room = opts.maxBytes - size;
          if (chunk.length >= room) {
            chunks.push(chunk.subarray(0, room));
            size += room;
            truncated = true;
            finish();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        source.on('end', finish);
        source.on('error', (err: NodeJS.ErrnoException) => {
          // A body cut short or badly compressed: keep what arrived if anything did.
          if (size > 0) finish();
          else fail(err instanceof FetchError ? err : classify(err));
        });
        res.on('error', (err: NodeJS.ErrnoException) => (size > 0 ? finish() : fail(classify(err))));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => fail(err instanceof BlockedAddressError ? err : classify(err)));
    // A signal that fired before this request began (during the politeness wait) sends no 'abort' event.
    if (opts.signal?.aborted) onAbort();
    else req.end(opts.post?.body);
  });
}
