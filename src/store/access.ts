// SQL for clients, plans and API keys.
import type { Db } from './db.ts';
import type { Plan } from '../auth/principal.ts';

export interface ClientRow {
  id: string;
  name: string;
  planId: string;
  secretHash: string;
  secretRotatedAt: Date;
  credits: number;
  disabledAt: Date | null;
  createdAt: Date;
}

export interface ClientWithPlan extends ClientRow {
  plan: Plan;
}

const CLIENT_WITH_PLAN = `
  SELECT c.id, c.name, c.plan_id, c.secret_hash, c.secret_rotated_at, c.credits, c.disabled_at, c.created_at,
         p.can_export, p.can_ai, p.can_purchase, p.requests_per_minute, p.ai_requests_per_minute, p.export_requests_per_minute
  FROM api_clients c JOIN plans p ON p.id = c.plan_id`;

function toClient(r: Record<string, any>): ClientWithPlan {
  return {
    id: r.id,
    name: r.name,
    planId: r.plan_id,
    secretHash: r.secret_hash,
    secretRotatedAt: r.secret_rotated_at,
    credits: r.credits,
    disabledAt: r.disabled_at,
    createdAt: r.created_at,
    plan: {
      id: r.plan_id,
      canExport: r.can_export,
      canAi: r.can_ai,
      canPurchase: r.can_purchase,
      requestsPerMinute: r.requests_per_minute,
      aiRequestsPerMinute: r.ai_requests_per_minute,
      exportRequestsPerMinute: r.export_requests_per_minute,
    },
  };
}

export async function findClient(db: Db, clientId: string): Promise<ClientWithPlan | undefined> {
  const rows = await db.query(`${CLIENT_WITH_PLAN} WHERE c.id = $1`, [clientId]);
  return rows[0] ? toClient(rows[0]) : undefined;
}

export async function listClients(db: Db): Promise<ClientWithPlan[]> {
  return (await db.query(`${CLIENT_WITH_PLAN} ORDER BY c.created_at, c.id`)).map(toClient);
}

export async function findPlan(db: Db, planId: string): Promise<(Plan & { initialCredits: number }) | undefined> {
  const [r] = await db.query<Record<string, any>>('SELECT * FROM plans WHERE id = $1', [planId]);
  if (!r) return undefined;
  return {
    id: r.id,
    canExport: r.can_export,
    canAi: r.can_ai,
    canPurchase: r.can_purchase,
    requestsPerMinute: r.requests_per_minute,
    aiRequestsPerMinute: r.ai_requests_per_minute,
    exportRequestsPerMinute: r.export_requests_per_minute,
    initialCredits: r.initial_credits,
  };
}

/** Inserts a client and, when it starts with credits, the matching ledger entry. */
export async function insertClient(
  db: Db,
  client: { id: string; name: string; planId: string; secretHash: string; credits: number },
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .insertInto('api_clients')
      .values({ id: client.id, name: client.name, plan_id: client.planId, secret_hash: client.secretHash, credits: client.credits })
      .execute();
    if (client.credits > 0) {
      await trx.insertInto('credit_ledger').values({ client_id: client.id, delta: client.credits, reason: 'initial_grant', reference: client.planId }).execute();
    }
  });
}

export interface ApiKeyRow {
  id: string;
  clientId: string;
  prefix: string;
  keyHash: string;
  name: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export async function insertApiKey(db: Db, key: { id: string; clientId: string; prefix: string; keyHash: string; name: string | null }): Promise<void> {
  await db.kysely
    .insertInto('api_keys')
    .values({ id: key.id, client_id: key.clientId, prefix: key.prefix, key_hash: key.keyHash, name: key.name, revoked_at: null, last_used_at: null })
    .execute();
}

export async function findApiKeyByPrefix(db: Db, prefix: string): Promise<ApiKeyRow | undefined> {
  const r = await db.kysely.selectFrom('api_keys').selectAll().where('prefix', '=', prefix).executeTakeFirst();
  return r && { id: r.id, clientId: r.client_id, prefix: r.prefix, keyHash: r.key_hash, name: r.name, createdAt: r.created_at, revokedAt: r.revoked_at, lastUsedAt: r.last_used_at };
}
