// Test credentials: a real client and API key in the test database.
import type { Db } from '../../src/db/db.ts';
import { createClient } from '../../src/auth/clients.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import type { Role } from '../../src/schemas/roles.ts';

export interface TestClient {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  /** Headers that authenticate as this client (API key). */
  headers: Record<string, string>;
}

/** `role: 'admin'` makes a client that may call the Admin API. */
export async function createTestClient(
  db: Db,
  plan: 'basic' | 'full' | (string & {}) = 'full',
  credits?: number,
  role: Role | null = null,
): Promise<TestClient> {
  const client = await createClient(db, { name: `test-${plan}`, plan, credits, role });
  const key = await createApiKey(db, client.clientId, 'test');
  return { clientId: client.clientId, clientSecret: client.clientSecret, apiKey: key.apiKey, headers: { 'x-api-key': key.apiKey } };
}
