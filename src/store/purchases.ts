// SQL for purchases of contact details, the credit ledger and idempotency keys. A purchase
// runs in one transaction that first locks the client's row, so a client's purchases are
// serialized; the (client_id, person_id) primary key and the ledger written in the same
// transaction make each profile chargeable exactly once even without the lock.
import type { Db, Queryable, Tx } from '../db/db.ts';

export interface ContactRow {
  personId: string;
  kind: 'email' | 'phone';
  value: string;
  type: string | null;
  verified: boolean;
}

interface LedgerRow {
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
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ credits: number }>('SELECT credits FROM api_clients WHERE id = $1::text FOR UPDATE', [clientId]);
    if (!row) throw new Error(`api client ${clientId} vanished during a purchase`);
    return fn(tx, row.credits);
  });
}

export async function findIdempotencyKey(
  tx: Tx,
  clientId: string,
  key: string,
): Promise<{ requestHash: string; statusCode: number; response: unknown } | undefined> {
  const [row] = await tx.query<{ requestHash: string; statusCode: number; response: unknown }>(
    'SELECT request_hash AS "requestHash", status_code AS "statusCode", response FROM idempotency_keys WHERE client_id = $1::text AND key = $2::text',
    [clientId, key],
  );
  return row;
}

export async function saveIdempotencyKey(
  tx: Tx,
  e: { clientId: string; key: string; requestHash: string; statusCode: number; response: unknown },
): Promise<void> {
  await tx.query(
    'INSERT INTO idempotency_keys (client_id, key, request_hash, status_code, response) VALUES ($1::text, $2::text, $3::text, $4::int, $5::json)',
    [e.clientId, e.key, e.requestHash, e.statusCode, JSON.stringify(e.response)],
  );
}

/** Which of `ids` are people, and which of those this client has already bought. */
export async function classifyProfileIds(tx: Tx, clientId: string, ids: string[]): Promise<{ existing: Set<string>; purchased: Set<string> }> {
  const rows = await tx.query<{ id: string; purchased: boolean }>(
    `SELECT p.id, (b.person_id IS NOT NULL) AS purchased
       FROM people p LEFT JOIN purchases b ON b.client_id = $1::text AND b.person_id = p.id
      WHERE p.id = ANY($2::text[])`,
    [clientId, ids],
  );
  return { existing: new Set(rows.map((r) => r.id)), purchased: new Set(rows.filter((r) => r.purchased).map((r) => r.id)) };
}

/**
 * Records the purchases and charges one credit for each row actually inserted: one ledger
 * entry per profile (delta -1, reason 'purchase', reference = profile id) and the balance
 * decreased by the same count. Returns the ids charged.
 */
export async function insertPurchasesAndCharge(tx: Tx, clientId: string, onBehalfOf: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx.query<{ person_id: string }>(
    `INSERT INTO purchases (client_id, person_id, on_behalf_of)
     SELECT $1::text, id, $2::text FROM unnest($3::text[]) AS u(id)
     ON CONFLICT (client_id, person_id) DO NOTHING
     RETURNING person_id`,
    [clientId, onBehalfOf, ids],
  );
  const charged = rows.map((r) => r.person_id);
  if (charged.length === 0) return charged;
  await tx.query(
    `INSERT INTO credit_ledger (client_id, delta, reason, reference)
     SELECT $1::text, -1, 'purchase', id FROM unnest($2::text[]) AS u(id)`,
    [clientId, charged],
  );
  // The CHECK (credits >= 0) is the last line of defence: a bug here aborts, never overdraws.
  await tx.query('UPDATE api_clients SET credits = credits - $2::int WHERE id = $1::text', [clientId, charged.length]);
  return charged;
}

/** Emails and phones of the given people, ordered for stable output (verified first). */
export async function findContacts(db: Queryable, personIds: string[]): Promise<ContactRow[]> {
  if (personIds.length === 0) return [];
  return db.query<ContactRow>(
    `SELECT person_id AS "personId", kind, value, type, verified
       FROM contacts WHERE person_id = ANY($1::text[])
      ORDER BY person_id, kind, verified DESC, id`,
    [personIds],
  );
}

/** When this client bought the profile, or undefined. */
export async function findPurchase(db: Db, clientId: string, personId: string): Promise<{ purchasedAt: Date } | undefined> {
  const [row] = await db.query<{ purchasedAt: Date }>(
    'SELECT purchased_at AS "purchasedAt" FROM purchases WHERE client_id = $1::text AND person_id = $2::text',
    [clientId, personId],
  );
  return row;
}

export async function findBalance(db: Db, clientId: string): Promise<number | undefined> {
  const [row] = await db.query<{ credits: number }>('SELECT credits FROM api_clients WHERE id = $1::text', [clientId]);
  return row?.credits;
}

export async function findLedger(db: Db, clientId: string, limit: number): Promise<LedgerRow[]> {
  return db.query<LedgerRow>(
    `SELECT id, delta, reason, reference, created_at AS "createdAt" FROM credit_ledger
      WHERE client_id = $1::text ORDER BY id DESC LIMIT $2::int`,
    [clientId, limit],
  );
}

/** One page of a client's ledger, newest first, and how many entries it has. */
export async function findLedgerPage(db: Db, clientId: string, offset: number, limit: number): Promise<{ rows: LedgerRow[]; total: number }> {
  const rows = await db.query<LedgerRow>(
    `SELECT id, delta, reason, reference, created_at AS "createdAt" FROM credit_ledger
      WHERE client_id = $1::text ORDER BY id DESC OFFSET $2::int LIMIT $3::int`,
    [clientId, offset, limit],
  );
  const [count] = await db.query<{ n: string }>('SELECT count(*) AS n FROM credit_ledger WHERE client_id = $1::text', [clientId]);
  return { rows, total: Number(count!.n) };
}

/** Adds (or removes) credits with a ledger entry, in one transaction; returns the new balance. */
export async function adjustCredits(db: Db, clientId: string, delta: number, reason: string, reference: string | null): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ credits: number }>('UPDATE api_clients SET credits = credits + $2::int WHERE id = $1::text RETURNING credits', [
      clientId,
      delta,
    ]);
    if (!row) return undefined;
    await tx.query('INSERT INTO credit_ledger (client_id, delta, reason, reference) VALUES ($1::text, $2::int, $3::text, $4::text)', [
      clientId,
      delta,
      reason,
      reference,
    ]);
    return row.credits;
  });
}
