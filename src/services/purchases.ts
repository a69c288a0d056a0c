// Purchases of contact details and the credit balance. One credit per newly bought profile,
// all-or-nothing (402 when the credits do not cover the new profiles), exactly once per
// client and profile, optional Idempotency-Key replay. Transport-free (REST and MCP).
import { createHash } from 'node:crypto';
import type { Db } from '../db/db.ts';
import type { Principal } from '../auth/principal.ts';
import { BadRequestError, NotFoundError, PayloadTooLargeError, PaymentRequiredError, UnprocessableError } from '../errors.ts';
import { MAX_PURCHASE_IDS, type Credits, type ProfilePurchaseInput, type PurchaseResponse } from '../schemas/profiles.ts';
import {
  adjustCredits,
  classifyProfileIds,
  findBalance,
  findContacts,
  findIdempotencyKey,
  findLedger,
  insertPurchasesAndCharge,
  saveIdempotencyKey,
  withLockedClient,
  type ContactRow,
} from '../store/purchases.ts';
import { audit } from './audit.ts';

interface PurchaseOptions {
  /** Client-chosen key that makes a retry return the first answer instead of buying again. */
  idempotencyKey?: string;
}

interface PurchaseOutcome {
  /** Only successful answers are stored for replay, so this is always 200. */
  statusCode: 200;
  body: PurchaseResponse;
  /** True when the body is the stored answer to an earlier request with the same key. */
  replayed: boolean;
}

/** Fingerprint of what was asked, so a key reused for another request is caught (422). */
function requestHash(ids: string[], onBehalfOf: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ profileIds: ids, onBehalfOf }))
    .digest('hex');
}

/**
 * Buys the contact details of the given profiles for this client. Duplicate ids are answered
 * once, in first-seen order. Throws 403 without the purchase permission, 413 above
 * MAX_PURCHASE_IDS ids (duplicates included: the contract's maxItems), 402 when credits do not cover the new profiles (nothing is
 * charged), 422 when the idempotency key was used for a different request.
 */
export async function purchaseProfiles(
  db: Db,
  principal: Principal,
  onBehalfOf: string,
  input: ProfilePurchaseInput,
  options: PurchaseOptions = {},
): Promise<PurchaseOutcome> {
  // Validated by the contract (idempotencyKeySchema) on both doors.
  const key = options.idempotencyKey;
  if (input.profileIds.length > MAX_PURCHASE_IDS) {
    throw new PayloadTooLargeError(`profileIds: at most ${MAX_PURCHASE_IDS} profile ids per purchase (got ${input.profileIds.length}); split the request`);
  }
  const ids = [...new Set(input.profileIds)];
  const clientId = principal.clientId;
  const hash = requestHash(input.profileIds, onBehalfOf);
  const auditBase = { clientId, onBehalfOf, action: 'profiles.purchase' };

  let outcome: PurchaseOutcome;
  try {
    outcome = await withLockedClient(db, clientId, async (tx, balance) => {
      if (key) {
        const stored = await findIdempotencyKey(tx, clientId, key);
        if (stored) {
          if (stored.requestHash !== hash) {
            throw new UnprocessableError('Idempotency-Key header: this key was already used with a different request body; use a new key');
          }
          return { statusCode: 200 as const, body: stored.response as PurchaseResponse, replayed: true };
        }
      }
      const { existing, purchased } = await classifyProfileIds(tx, clientId, ids);
      const toBuy = ids.filter((id) => existing.has(id) && !purchased.has(id));
      if (toBuy.length > balance) {
        throw new PaymentRequiredError(
          `Not enough credits: buying ${toBuy.length} new profile(s) needs ${toBuy.length} credit(s), the balance is ${balance}; nothing was charged`,
        );
      }
      const charged = new Set(await insertPurchasesAndCharge(tx, clientId, onBehalfOf, toBuy));
      const contacts = await findContacts(
        tx,
        ids.filter((id) => existing.has(id)),
      );
      const body: PurchaseResponse = {
        results: ids.map((id) => resultOf(id, existing.has(id) ? (charged.has(id) ? 'purchased' : 'already_purchased') : 'not_found', contacts)),
        charged: charged.size,
        balance: balance - charged.size,
      };
      // Stored in the same transaction as the purchase: a retry sees both or neither.
      if (key) await saveIdempotencyKey(tx, { clientId, key, requestHash: hash, statusCode: 200, response: body });
      return { statusCode: 200 as const, body, replayed: false };
    });
  } catch (err) {
    if (err instanceof PaymentRequiredError) {
      await audit(db, {
        ...auditBase,
        params: { profileIds: ids.length, outcome: 'insufficient_credits', idempotencyKey: key ?? null },
        resultCount: 0,
        outcome: 'failure',
      });
    }
    throw err;
  }
  await audit(db, {
    ...auditBase,
    params: { profileIds: ids.length, outcome: outcome.replayed ? 'replayed' : 'completed', idempotencyKey: key ?? null },
    resultCount: outcome.replayed ? 0 : outcome.body.charged,
  });
  return outcome;
}

function resultOf(id: string, status: 'purchased' | 'already_purchased' | 'not_found', contacts: ContactRow[]) {
  const mine = status === 'not_found' ? [] : contacts.filter((c) => c.personId === id);
  return {
    profileId: id,
    status,
    emails: mine.filter((c) => c.kind === 'email').map((c) => ({ value: c.value, type: c.type, verified: c.verified })),
    phones: mine.filter((c) => c.kind === 'phone').map((c) => ({ value: c.value, type: c.type })),
  };
}

/** The balance and the most recent ledger entries, newest first. */
export async function getCredits(db: Db, clientId: string, input: { limit: number }): Promise<Credits> {
  const balance = await findBalance(db, clientId);
  if (balance === undefined) throw new NotFoundError(`No API client '${clientId}'`);
  const ledger = await findLedger(db, clientId, input.limit);
  return {
    clientId,
    balance,
    ledger: ledger.map((e) => ({ id: e.id, delta: e.delta, reason: e.reason, reference: e.reference, createdAt: e.createdAt.toISOString() })),
  };
}

/** Operator action: adds (positive) or removes (negative) credits, with a ledger entry. */
export async function grantCredits(db: Db, clientId: string, delta: number, reason = 'grant', reference: string | null = null): Promise<number> {
  if (!Number.isInteger(delta) || delta === 0) throw new BadRequestError('credits: must be a non-zero whole number');
  const balance = await adjustCredits(db, clientId, delta, reason, reference).catch((err: { code?: string }) => {
    // 23514: check_violation, the balance would go below zero.
    if (err.code === '23514') throw new BadRequestError(`credits: removing ${-delta} would make the balance negative`);
    // 22003: numeric_value_out_of_range, the balance would pass the largest one (2^31 - 1).
    if (err.code === '22003') throw new BadRequestError(`credits: adding ${delta} would pass the largest balance (2147483647)`);
    throw err;
  });
  if (balance === undefined) throw new NotFoundError(`No API client '${clientId}'`);
  return balance;
}
