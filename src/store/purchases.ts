// SQL for purchases of contact details, the credit ledger and idempotency keys. A purchase
// runs in one transaction that first locks the client's row, so a client's purchases are
// serialized; the (client_id, person_id) primary key and the ledger written in the same
// transaction make each profile chargeable exactly once even without the lock.
import type { Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Db } from './db.ts';
import type { Database } from './schema.ts';

/** A transaction handle; services pass it back to the functions below and never look inside. */
export type Tx = Transaction<Database>;

export interface ContactRow {
  personId: string;
  kind: 'email' | 'phone';
  value: string;
  type: string | null;
  verified: boolean;
}

export interface LedgerRow {
  id: number;
  delta: number;
  reason: string;
  reference: string | null;
  createdAt: Date;
}

/**
 * Runs `fn` in a transaction holding the client's row lock (SELECT ... FOR UPDATE) and
 * hands it the current balance. A throw rolls everything back.
 */
export async function withLockedClient<T>(db: Db, clientId: string, fn: (tx: Tx, balance: number) => Promise<T>): Promise<T> {
  return db.kysely.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('api_clients').select('credits').where('id', '=', clientId).forUpdate().executeTakeFirst();
    if (!row) throw new Error(`api client ${clientId} vanished during a purchase`);
    return fn(tx, row.credits);
  });
}

export async function findIdempotencyKey(
  tx: Tx,
  clientId: string,
  key: string,
): Promise<{ requestHash: string; statusCode: number; response: unknown } | undefined> {
  const row = await tx
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response'])
    .where('client_id', '=', clientId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row && { requestHash: row.request_hash, statusCode: row.status_code, response: row.response };
}

export async function saveIdempotencyKey(tx: Tx, e: { clientId: string; key: string; requestHash: string; statusCode: number; response: unknown }): Promise<void> {
  await tx
    .insertInto('idempotency_keys')
    .values({ client_id: e.clientId, key: e.key, request_hash: e.requestHash, status_code: e.statusCode, response: JSON.stringify(e.response) })
    .execute();
}

/** Which of `ids` are people, and which of those this client has already bought. */
export async function classifyProfileIds(tx: Tx, clientId: string, ids: string[]): Promise<{ existing: Set<string>; purchased: Set<string> }> {
  const { rows } = await sql<{ id: string; purchased: boolean }>`
    SELECT p.id, (b.person_id IS NOT NULL) AS purchased
    FROM people p LEFT JOIN purchases b ON b.client_id = ${clientId} AND b.person_id = p.id
    WHERE p.id = ANY(${ids}::text[])`.execute(tx);
  return { existing: new Set(rows.map((r) => r.id)), purchased: new Set(rows.filter((r) => r.purchased).map((r) => r.id)) };
}

/**
 * Records the purchases and charges one credit for each row actually inserted: one ledger
 * entry per profile (delta -1, reason 'purchase', reference = profile id) and the balance
 * decreased by the same count. Returns the ids charged.
 */
export async function insertPurchasesAndCharge(tx: Tx, clientId: string, onBehalfOf: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<{ person_id: string }>`
    INSERT INTO purchases (client_id, person_id, on_behalf_of)
    SELECT ${clientId}, id, ${onBehalfOf} FROM unnest(${ids}::text[]) AS u(id)
    ON CONFLICT (client_id, person_id) DO NOTHING
    RETURNING person_id`.execute(tx);
  const charged = rows.map((r) => r.person_id);
  if (charged.length === 0) return charged;
  await sql`
    INSERT INTO credit_ledger (client_id, delta, reason, reference)
    SELECT ${clientId}, -1, 'purchase', id FROM unnest(${charged}::text[]) AS u(id)`.execute(tx);
  // The CHECK (credits >= 0) is the last line of defence: a bug here aborts, never overdraws.
  await sql`UPDATE api_clients SET credits = credits - ${charged.length}::int WHERE id = ${clientId}`.execute(tx);
  return charged;
}

/** Emails and phones of the given people, ordered for stable output (verified first). */
export async function findContacts(executor: Db | Tx, personIds: string[]): Promise<ContactRow[]> {
  if (personIds.length === 0) return [];
  const kysely = 'kysely' in executor ? executor.kysely : executor;
  const { rows } = await sql<ContactRow>`
    SELECT person_id AS "personId", kind, value, type, verified
    FROM contacts WHERE person_id = ANY(${personIds}::text[])
    ORDER BY person_id, kind, verified DESC, id`.execute(kysely);
  return rows;
}

/** When this client bought the profile, or undefined. */
export async function findPurchase(db: Db, clientId: string, personId: string): Promise<{ purchasedAt: Date } | undefined> {
  const row = await db.kysely
    .selectFrom('purchases')
    .select('purchased_at')
    .where('client_id', '=', clientId)
    .where('person_id', '=', personId)
    .executeTakeFirst();
  return row && { purchasedAt: row.purchased_at };
}

export async function findBalance(db: Db, clientId: string): Promise<number | undefined> {
  const row = await db.kysely.selectFrom('api_clients').select('credits').where('id', '=', clientId).executeTakeFirst();
  return row?.credits;
}

export async function findLedger(db: Db, clientId: string, limit: number): Promise<LedgerRow[]> {
  const rows = await db.kysely
    .selectFrom('credit_ledger')
    .select(['id', 'delta', 'reason', 'reference', 'created_at'])
    .where('client_id', '=', clientId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), delta: r.delta, reason: r.reason, reference: r.reference, createdAt: r.created_at }));
}

/** Adds (or removes) credits with a ledger entry, in one transaction; returns the new balance. */
export async function adjustCredits(db: Db, clientId: string, delta: number, reason: string, reference: string | null): Promise<number | undefined> {
  return db.kysely.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('api_clients')
      .set({ credits: sql`credits + ${delta}::int` })
      .where('id', '=', clientId)
      .returning('credits')
      .executeTakeFirst();
    if (!row) return undefined;
    await tx.insertInto('credit_ledger').values({ client_id: clientId, delta, reason, reference }).execute();
    return row.credits;
  });
}
