// The real server for the typed client's tests: the app on a fresh test database,
// listening on a real port of the test range, with counted traffic so tests can say how
// many token and API requests the client made.
import type { FastifyInstance } from 'fastify';
import { buildApp, type Readiness } from '../../src/app.ts';
import { createClient, definePlan } from '../../src/auth/clients.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { MemoryCounterStore } from '../../src/auth/counters.ts';
import type { Db } from '../../src/db/db.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDb } from '../helpers/db.ts';
import { listenInRange } from '../helpers/ports.ts';

export interface ClientTestServer {
  app: FastifyInstance;
  db: Db;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** The token audience the server expects (its PUBLIC_URL). */
  audience: string;
  readiness: Readiness;
  /** A fetch that records every request the client sends, for counting. */
  fetch: typeof fetch;
  sent: { method: string; path: string; status: number; retryAfter: string | null }[];
  close(): Promise<void>;
}

export interface ClientTestServerOptions {
  env?: Record<string, string>;
  /**
   * Rate-limit counters in this process's memory even when REDIS_URL is set: their windows
   * follow the auth clock (setClock), so a test can move past a 60 s window without waiting.
   */
  memoryCounters?: boolean;
}

export async function startClientTestServer(options: ClientTestServerOptions = {}): Promise<ClientTestServer> {
  const db = await createTestDb();
  const config = testConfig(options.env);
  const readiness: Readiness = { ready: true, message: 'Starting up' };
  const counters = options.memoryCounters ? new MemoryCounterStore() : undefined;
  const app = await buildApp({ config, db, readiness, ...(counters ? { counters } : {}) });
  const port = await listenInRange((p) => app.listen({ port: p, host: '127.0.0.1' }));
  const sent: ClientTestServer['sent'] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    sent.push({ method: request.method, path: new URL(request.url).pathname, status: response.status, retryAfter: response.headers.get('retry-after') });
    return response;
  };
  return {
    app,
    db,
    baseUrl: `http://127.0.0.1:${port}`,
    audience: config.auth.audience,
    readiness,
    fetch: recordingFetch,
    sent,
    async close() {
      await app.close();
      await counters?.close();
      await db.close();
    },
  };
}

/** A client of `plan` with its secret and an API key. */
export async function createCredentials(db: Db, plan: string): Promise<{ clientId: string; clientSecret: string; apiKey: string }> {
  const client = await createClient(db, { name: `client-test-${plan}`, plan });
  const key = await createApiKey(db, client.clientId, 'client test');
  return { clientId: client.clientId, clientSecret: client.clientSecret, apiKey: key.apiKey };
}

/** A plan whose general quota runs out after 4 requests a minute. */
export async function defineTinyPlan(db: Db): Promise<void> {
  await definePlan(db, {
    id: 'tiny',
    description: 'client test plan',
    canExport: true,
    canAi: false,
    canPurchase: false,
    initialCredits: 0,
    requestsPerMinute: 4,
    aiRequestsPerMinute: 1,
    exportRequestsPerMinute: 1,
    maxMonitors: 10,
    maxWebhooks: 2,
    eventsPerDay: 10_000,
    enrichRowsPerDay: 10_000,
    maxListRows: 10_000,
    facetsPerDay: 1000,
    detectionsPerDay: 100,
  });
}
