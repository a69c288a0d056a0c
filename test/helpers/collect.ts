// Local stand-ins of the outside world for the collector tests: a DNS server on UDP (dns-packet)
// answering from a zone object, and an HTTP fixture server on 127.0.0.2 that records every
// request. Both listen on ephemeral ports of the loopback interface: nothing leaves the machine.
import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';
import { Politeness, type FetchSiteOptions } from '../../src/detect/collect/index.ts';

export interface ZoneEntry {
  A?: string[];
  AAAA?: string[];
  MX?: Array<[number, string]>;
  TXT?: string[];
  CNAME?: string[];
  NS?: string[];
}

export interface DnsStub {
  /** `127.0.0.1:port`, for `dns: { servers: [server] }`. */
  server: string;
  queries: Array<{ name: string; type: string }>;
  close(): Promise<void>;
}

export async function startDnsStub(zone: Record<string, ZoneEntry>): Promise<DnsStub> {
  const socket = dgram.createSocket('udp4');
  const queries: DnsStub['queries'] = [];
  socket.on('message', (msg, rinfo) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const q = query.questions?.[0];
    if (!q) return;
    const name = q.name.toLowerCase().replace(/\.$/, '');
    queries.push({ name, type: q.type });
    const entry = zone[name];
    const answers: dnsPacket.Answer[] = [];
    if (entry) {
      const base = { name: q.name, ttl: 60, class: 'IN' as const };
      if (q.type === 'A') for (const a of entry.A ?? []) answers.push({ ...base, type: 'A', data: a });
      if (q.type === 'AAAA') for (const a of entry.AAAA ?? []) answers.push({ ...base, type: 'AAAA', data: a });
      if (q.type === 'MX') for (const [preference, exchange] of entry.MX ?? []) answers.push({ ...base, type: 'MX', data: { preference, exchange } });
      if (q.type === 'TXT') for (const t of entry.TXT ?? []) answers.push({ ...base, type: 'TXT', data: [t] });
      if (q.type === 'CNAME') for (const c of entry.CNAME ?? []) answers.push({ ...base, type: 'CNAME', data: c });
      if (q.type === 'NS') for (const n of entry.NS ?? []) answers.push({ ...base, type: 'NS', data: n });
    }
    const reply = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (entry ? 0 : 3), // rcode 3: NXDOMAIN
      questions: query.questions,
      answers,
    });
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return { server: `127.0.0.1:${port}`, queries, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}

export interface SeenRequest {
  host: string;
  path: string;
  at: number;
  userAgent: string;
}
export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FixtureServer {
  port: number;
  /** `http://{host}:{port}{path}`. */
  url(host: string, path?: string): string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** An HTTP server on `address` (default 127.0.0.2) routing by `host path` first, then by path. */
export async function startFixtureServer(routes: Record<string, Route>, address = '127.0.0.2', listenPort = 0): Promise<FixtureServer> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = req.url ?? '/';
    requests.push({ host, path, at: Date.now(), userAgent: String(req.headers['user-agent'] ?? '') });
    const route = routes[`${host} ${path}`] ?? routes[path];
    if (route) route(req, res);
    else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(listenPort, address, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (host, path = '/') => `http://${host}:${port}${path}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const html =
  (body: string, headers: Record<string, string | string[]> = {}): Route =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(body);
  };

export const redirect =
  (location: string, status = 301): Route =>
  (_req, res) => {
    res.writeHead(status, { location });
    res.end();
  };

/**
 * Fetch options for sites the local stand-ins serve: names resolved by the DNS stub, the
 * fixture server's address allowed beyond the public internet, no politeness delay, quick
 * retries and a short deadline. `extra` overrides any of them.
 */
export function localFetchOptions(dns: DnsStub, extra: FetchSiteOptions = {}): FetchSiteOptions {
  return {
    dns: { servers: [dns.server] },
    network: { allowNetworks: ['127.0.0.2/32'], ports: 'any' },
    politeness: new Politeness(0),
    retryDelayMs: 10,
    timeoutMs: 2000,
    ...extra,
  };
}
