// SQL for clients, plans and API keys (credits: store/purchases.ts).
import type { Db, Tx } from '../db/db.ts';
import type { Row } from '../db/schema.ts';
import type { Plan } from '../schemas/plans.ts';
import type { Role } from '../schemas/roles.ts';

interface ClientRow {
  id: string;
  name: string;
  planId: string;
  secretHash: string;
  secretRotatedAt: Date;
  credits: number;
  disabledAt: Date | null;
  createdAt: Date;
  externalId: string | null;
  /** What the client may administer (admin: the Admin API); null for a plain API client. */
  role: Role | null;
}

export interface ClientWithPlan extends ClientRow {
  plan: Plan;
}

const CLIENT_WITH_PLAN = `
  SELECT c.id, c.name, c.plan_id, c.secret_hash, c.secret_rotated_at, c.credits, c.disabled_at, c.created_at, c.external_id, c.role,
         p.can_export, p.can_ai, p.can_purchase, p.requests_per_minute, p.ai_requests_per_minute, p.export_requests_per_minute,
         p.max_monitors, p.max_webhooks, p.events_per_day, p.enrich_rows_per_day, p.max_list_rows, p.facets_per_day, p.detections_per_day
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
    externalId: r.external_id ?? null,
    role: r.role ?? null,
    plan: {
      id: r.plan_id,
      canExport: r.can_export,
      canAi: r.can_ai,
      canPurchase: r.can_purchase,
      requestsPerMinute: r.requests_per_minute,
      aiRequestsPerMinute: r.ai_requests_per_minute,
      exportRequestsPerMinute: r.export_requests_per_minute,
      maxMonitors: r.max_monitors,
      maxWebhooks: r.max_webhooks,
      eventsPerDay: r.events_per_day,
      enrichRowsPerDay: r.enrich_rows_per_day,
      maxListRows: r.max_list_rows,
      facetsPerDay: r.facets_per_day,
      detectionsPerDay: r.detections_per_day,
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

/** The client an external identity provider's token names: by external_id first, then by id. */
export async function findClientByExternalId(db: Db, externalId: string): Promise<ClientWithPlan | undefined> {
  const rows = await db.query(`${CLIENT_WITH_PLAN} WHERE c.external_id = $1 OR c.id = $1 ORDER BY (c.external_id = $1) DESC NULLS LAST LIMIT 1`, [externalId]);
  return rows[0] ? toClient(rows[0]) : undefined;
}

export interface PlanRow extends Plan {
  description: string | null;
  initialCredits: number;
}

export async function findPlan(db: Db, planId: string): Promise<PlanRow | undefined> {
  const [r] = await db.query<Record<string, any>>('SELECT * FROM plans WHERE id = $1', [planId]);
  return r && toPlan(r);
}

export async function listPlans(db: Db): Promise<PlanRow[]> {
  return (await db.query<Record<string, any>>('SELECT * FROM plans ORDER BY requests_per_minute, id')).map(toPlan);
}

/** Creates or replaces a plan (plans are data: operators define their own). */
export async function upsertPlan(db: Db, p: PlanRow): Promise<void> {
  await db.query(
    `INSERT INTO plans (id, description, can_export, can_ai, can_purchase, initial_credits, requests_per_minute, ai_requests_per_minute, export_requests_per_minute,
                        max_monitors, max_webhooks, events_per_day, enrich_rows_per_day, max_list_rows, facets_per_day, detections_per_day)
     VALUES ($1::text, $2::text, $3::boolean, $4::boolean, $5::boolean, $6::int, $7::int, $8::int, $9::int, $10::int, $11::int, $12::int, $13::int, $14::int, $15::int, $16::int)
     ON CONFLICT (id) DO UPDATE SET description = EXCLUDED.description, can_export = EXCLUDED.can_export, can_ai = EXCLUDED.can_ai,
       can_purchase = EXCLUDED.can_purchase, initial_credits = EXCLUDED.initial_credits, requests_per_minute = EXCLUDED.requests_per_minute,
       ai_requests_per_minute = EXCLUDED.ai_requests_per_minute, export_requests_per_minute = EXCLUDED.export_requests_per_minute,
       max_monitors = EXCLUDED.max_monitors, max_webhooks = EXCLUDED.max_webhooks, events_per_day = EXCLUDED.events_per_day,
       enrich_rows_per_day = EXCLUDED.enrich_rows_per_day, max_list_rows = EXCLUDED.max_list_rows,
       facets_per_day = EXCLUDED.facets_per_day, detections_per_day = EXCLUDED.detections_per_day`,
    [
      p.id,
      p.description,
      p.canExport,
      p.canAi,
      p.canPurchase,
      p.initialCredits,
      p.requestsPerMinute,
      p.aiRequestsPerMinute,
      p.exportRequestsPerMinute,
      p.maxMonitors,
      p.maxWebhooks,
      p.eventsPerDay,
      p.enrichRowsPerDay,
      p.maxListRows,
      p.facetsPerDay,
      p.detectionsPerDay,
    ],
  );
}

function toPlan(r: Record<string, any>): PlanRow {
  return {
    id: r.id,
    canExport: r.can_export,
    canAi: r.can_ai,
    canPurchase: r.can_purchase,
    requestsPerMinute: r.requests_per_minute,
    aiRequestsPerMinute: r.ai_requests_per_minute,
    exportRequestsPerMinute: r.export_requests_per_minute,
    maxMonitors: r.max_monitors,
    maxWebhooks: r.max_webhooks,
    eventsPerDay: r.events_per_day,
    enrichRowsPerDay: r.enrich_rows_per_day,
    maxListRows: r.max_list_rows,
    facetsPerDay: r.facets_per_day,
    detectionsPerDay: r.detections_per_day,
    description: r.description ?? null,
    initialCredits: r.initial_credits,
  };
}

/** Inserts a client and, when it starts with credits, the matching ledger entry. */
export async function insertClient(
  db: Db,
  client: { id: string; name: string; planId: string; secretHash: string; credits: number; externalId?: string | null; role?: Role | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO api_clients (id, name, plan_id, secret_hash, credits, external_id, role) VALUES ($1::text, $2::text, $3::text, $4::text, $5::int, $6::text, $7::text)`,
      [client.id, client.name, client.planId, client.secretHash, client.credits, client.externalId ?? null, client.role ?? null],
    );
    if (client.credits > 0) {
      await tx.query(`INSERT INTO credit_ledger (client_id, delta, reason, reference) VALUES ($1::text, $2::int, 'initial_grant', $3::text)`, [
        client.id,
        client.credits,
        client.planId,
      ]);
    }
  });
}

/** One page of clients, oldest first, and how many there are. */
export async function listClientsPage(db: Db, offset: number, limit: number): Promise<{ rows: ClientWithPlan[]; total: number }> {
  const rows = await db.query(`${CLIENT_WITH_PLAN} ORDER BY c.created_at, c.id OFFSET $1::int LIMIT $2::int`, [offset, limit]);
  const [count] = await db.query<{ n: string }>('SELECT count(*) AS n FROM api_clients');
  return { rows: rows.map(toClient), total: Number(count!.n) };
}

/** Changes the given fields of a client (name, plan, role; undefined keeps the value); false when there is no such client. */
export async function updateClient(db: Db, clientId: string, changes: { name?: string; planId?: string; role?: Role | null }): Promise<boolean> {
  const rows = await db.query(
    `UPDATE api_clients SET name = coalesce($2::text, name), plan_id = coalesce($3::text, plan_id),
       role = CASE WHEN $4::boolean THEN $5::text ELSE role END
     WHERE id = $1::text RETURNING id`,
    [clientId, changes.name ?? null, changes.planId ?? null, changes.role !== undefined, changes.role ?? null],
  );
  return rows.length > 0;
}

/** Disables (or re-enables) a client; false when there is no such client. */
export async function setClientDisabled(db: Db, clientId: string, disabled: boolean): Promise<boolean> {
  const rows = await db.query(
    `UPDATE api_clients SET disabled_at = CASE WHEN $2::boolean THEN coalesce(disabled_at, now()) ELSE NULL END WHERE id = $1::text RETURNING id`,
    [clientId, disabled],
  );
  return rows.length > 0;
}

/** Replaces the secret hash; tokens issued before secret_rotated_at stop being accepted. */
export async function updateClientSecret(db: Db, clientId: string, secretHash: string): Promise<boolean> {
  const rows = await db.query(`UPDATE api_clients SET secret_hash = $2::text, secret_rotated_at = now() WHERE id = $1::text RETURNING id`, [
    clientId,
    secretHash,
  ]);
  return rows.length > 0;
}

type ApiKeysRow = Row<'api_keys'>;

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
  await db.query(`INSERT INTO api_keys (id, client_id, prefix, key_hash, name) VALUES ($1::text, $2::text, $3::text, $4::text, $5::text)`, [
    key.id,
    key.clientId,
    key.prefix,
    key.keyHash,
    key.name,
  ]);
}

const API_KEY_COLUMNS = 'id, client_id, prefix, key_hash, name, created_at, revoked_at, last_used_at';

export async function findApiKeyByPrefix(db: Db, prefix: string): Promise<ApiKeyRow | undefined> {
  const [r] = await db.query<ApiKeysRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE prefix = $1::text`, [prefix]);
  return r && toApiKey(r);
}

export async function listApiKeys(db: Db, clientId?: string): Promise<ApiKeyRow[]> {
  const rows = await db.query<ApiKeysRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE $1::text IS NULL OR client_id = $1::text ORDER BY created_at, id`, [
    clientId ?? null,
  ]);
  return rows.map(toApiKey);
}

/** Revokes a key by id (`key_…`) or prefix; returns the key, or undefined when unknown. */
export async function revokeApiKey(db: Db, idOrPrefix: string): Promise<ApiKeyRow | undefined> {
  const [r] = await db.query<ApiKeysRow>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1::text OR prefix = $1::text RETURNING ${API_KEY_COLUMNS}`,
    [idOrPrefix],
  );
  return r && toApiKey(r);
}

/** Stamps last use of several keys in one statement; callers batch (one stamp per key per minute). */
export async function touchApiKeys(db: Db, keyIds: string[]): Promise<void> {
  if (keyIds.length === 0) return;
  await db.query(`UPDATE api_keys SET last_used_at = now() WHERE id = ANY($1::text[])`, [keyIds]);
}

/**
 * The access version: bumped (by triggers, in the same transaction) by every change to keys,
 * clients or plans except usage stamps and credits. One primary-key row, read per API-key request.
 */
export async function readAccessVersion(db: Db): Promise<number> {
  const [r] = await db.queryArrays<[number]>('SELECT version FROM access_version WHERE id');
  return r![0];
}

/** A key row, its client (with plan) and the access version, read in one statement (one snapshot). */
export async function findApiKeyWithClient(
  db: Db,
  prefix: string,
): Promise<{ version: number; key: ApiKeyRow | undefined; client: ClientWithPlan | undefined }> {
  const rows = await db.query<Record<string, any>>(
    `SELECT v.version, k.id AS key_id, k.client_id AS key_client_id, k.prefix AS key_prefix, k.key_hash AS key_key_hash, k.name AS key_name,
            k.created_at AS key_created_at, k.revoked_at AS key_revoked_at, k.last_used_at AS key_last_used_at, c.*
     FROM access_version v
     LEFT JOIN api_keys k ON k.prefix = $1::text
     LEFT JOIN (${CLIENT_WITH_PLAN}) c ON c.id = k.client_id
     WHERE v.id`,
    [prefix],
  );
  const r = rows[0]!;
  const key: ApiKeyRow | undefined =
    r.key_id == null
      ? undefined
      : {
          id: r.key_id,
          clientId: r.key_client_id,
          prefix: r.key_prefix,
          keyHash: r.key_key_hash,
          name: r.key_name,
          createdAt: r.key_created_at,
          revokedAt: r.key_revoked_at,
          lastUsedAt: r.key_last_used_at,
        };
  return { version: Number(r.version), key, client: r.id == null ? undefined : toClient(r) };
}

function toApiKey(r: ApiKeysRow): ApiKeyRow {
  return {
    id: r.id,
    clientId: r.client_id,
    prefix: r.prefix,
    keyHash: r.key_hash,
    name: r.name,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
  };
}

/**
 * Locks a client's row until the transaction ends, and reads its plan's holding limits: counts
 * of what it holds (monitors, webhooks) checked under it cannot both pass a limit, and a plan
 * changed a moment ago applies at once. Undefined when there is no such client.
 */
export async function lockClient(tx: Tx, clientId: string): Promise<{ planId: string; maxMonitors: number; maxWebhooks: number } | undefined> {
  const [r] = await tx.query<{ plan_id: string; max_monitors: number; max_webhooks: number }>(
    'SELECT c.plan_id, p.max_monitors, p.max_webhooks FROM api_clients c JOIN plans p ON p.id = c.plan_id WHERE c.id = $1::text FOR UPDATE OF c',
    [clientId],
  );
  return r && { planId: r.plan_id, maxMonitors: r.max_monitors, maxWebhooks: r.max_webhooks };
}
