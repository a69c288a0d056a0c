// Local listening servers in tests use a port from the range reserved for auth tests
// (AUTH_TEST_PORTS, default 18120-18129): the first free one.
import type { Server } from 'node:http';

const [FIRST, LAST] = (process.env.AUTH_TEST_PORTS ?? '18120-18129').split('-').map(Number) as [number, number];

/** Listens on 127.0.0.1 at the first free port of the range; returns it. */
export async function listenInRange(listen: (port: number) => Promise<unknown>): Promise<number> {
  let lastError: unknown;
  for (let port = FIRST; port <= LAST; port++) {
    try {
      await listen(port);
      return port;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      lastError = err;
    }
  }
  throw new Error(`No free port in ${FIRST}-${LAST}`, { cause: lastError });
}

export function listenServer(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A port of the range that is free right now (for servers whose URL must be known before they listen). */
export async function freePortInRange(): Promise<number> {
  const net = await import('node:net');
  const probe = net.createServer();
  const port = await listenInRange(
    (p) =>
      new Promise<void>((resolve, reject) => {
        probe.once('error', reject);
        probe.listen(p, '127.0.0.1', () => {
          probe.off('error', reject);
          resolve();
        });
      }),
  );
  await new Promise((r) => probe.close(r));
  return port;
}
