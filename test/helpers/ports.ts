// Local listening servers in tests take a random port of a wide range (TEST_PORTS, default
// 20000-29999, below Linux's ephemeral range so outgoing connections never hold one). Test
// files run in parallel: taking the first free port of a narrow range made two files race for
// the same port between "it is free" and "the server listens" (a CI run failed on it).
import type { Server } from 'node:http';

const [FIRST, LAST] = (process.env.TEST_PORTS ?? '20000-29999').split('-').map(Number) as [number, number];
const ATTEMPTS = 50;

function randomPort(): number {
  return FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));
}

/** Listens on 127.0.0.1 at a random free port of the range; returns it. */
export async function listenInRange(listen: (port: number) => Promise<unknown>): Promise<number> {
  let lastError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = randomPort();
    try {
      await listen(port);
      return port;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      lastError = err;
    }
  }
  throw new Error(`No free port in ${FIRST}-${LAST} after ${ATTEMPTS} tries`, { cause: lastError });
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

/**
 * A port of the range that is free right now, for servers whose URL must be known before they
 * listen (a child process, a configured public URL). Random, so two callers almost never pick
 * the same one in the moment between this probe and their own listen.
 */
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
