// API clients and plans: creation with a one-time secret, disable/enable, secret rotation
// and plan definitions. Used by the CLI and the demo world. (Credits: services/purchases.ts.)
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db.ts';
import {
  findClientByExternalId,
  findPlan,
  insertClient,
  listClients,
  listPlans,
  setClientDisabled,
  updateClientSecret,
  upsertPlan,
  updateClient,
  type PlanRow,
} from '../store/access.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { hashSecret, randomToken } from './secrets.ts';
import { forgetCachedClients } from './client-cache.ts';
import type { Role } from '../schemas/roles.ts';
import { NEW_PLAN_SIGNAL_LIMITS } from '../schemas/plans.ts';

interface CreatedClient {
  clientId: string;
  clientSecret: string;
  name: string;
  plan: string;
  credits: number;
  externalId?: string;
  role: Role | null;
}

export async function createClient(
  db: Db,
  input: { name: string; plan: string; credits?: number; externalId?: string; role?: Role | null },
): Promise<CreatedClient> {
  const name = input.name.trim();
  if (!name) throw new BadRequestError('name: must not be empty');
  const plan = await findPlan(db, input.plan);
  if (!plan) throw new BadRequestError(`plan: no plan named '${input.plan}'`);
  const clientId = `cli_${randomBytes(9).toString('base64url')}`;
  const clientSecret = randomToken(32);
  const credits = input.credits ?? plan.initialCredits;
  if (!Number.isInteger(credits) || credits < 0) throw new BadRequestError('credits: must be a whole number ≥ 0');
  const externalId = input.externalId?.trim() || undefined;
  if (externalId && (await findClientByExternalId(db, externalId))?.externalId === externalId) {
    throw new BadRequestError(`external-id: '${externalId}' is already mapped to another client`);
  }
  const role = input.role ?? null;
  await insertClient(db, { id: clientId, name, planId: plan.id, secretHash: hashSecret(clientSecret), credits, externalId, role });
  return { clientId, clientSecret, name, plan: plan.id, credits, ...(externalId ? { externalId } : {}), role };
}

export { listClients, listPlans };
export type { PlanRow };

/**
 * Disables (or re-enables) a client. API keys stop at once; issued tokens at once in this
 * process, within the client cache lifetime (30 s) in others.
 */
export async function setClientEnabled(db: Db, clientId: string, enabled: boolean): Promise<void> {
  const found = await setClientDisabled(db, clientId, !enabled);
  forgetCachedClients(db);
  if (!found) throw new NotFoundError(`client: no client '${clientId}'`);
}

/**
 * Changes a client's name, plan or role (undefined keeps a field; role null removes it). Seen
 * from the client's next request: API keys by any process (access version), tokens at once
 * here and within the client cache lifetime elsewhere.
 */
export async function changeClient(db: Db, clientId: string, changes: { name?: string; plan?: string; role?: Role | null }): Promise<void> {
  const name = changes.name?.trim();
  if (changes.name !== undefined && !name) throw new BadRequestError('name: must not be empty');
  if (changes.plan !== undefined && !(await findPlan(db, changes.plan))) throw new BadRequestError(`plan: no plan named '${changes.plan}'`);
  const found = await updateClient(db, clientId, { name, planId: changes.plan, role: changes.role });
  forgetCachedClients(db);
  if (!found) throw new NotFoundError(`client: no client '${clientId}'`);
}

/** New secret, printed once; tokens issued before now stop being accepted (at once here, within 30 s elsewhere). */
export async function rotateClientSecret(db: Db, clientId: string): Promise<{ clientId: string; clientSecret: string }> {
  const clientSecret = randomToken(32);
  const found = await updateClientSecret(db, clientId, hashSecret(clientSecret));
  forgetCachedClients(db);
  if (!found) throw new NotFoundError(`client: no client '${clientId}'`);
  return { clientId, clientSecret };
}

/** Creates or replaces a plan. */
/** The fields of a plan `stacklens plans set` may change; absent ones keep their value. */
export type PlanChanges = Partial<Omit<PlanRow, 'id'>>;

/**
 * Creates a plan, or changes only the given fields of an existing one (the others keep their
 * values: a plan's description survives a change of its rate limits). A new plan needs its
 * three rate limits; permissions default to off, credits to 0, the description to none, and
 * its monitors, webhooks, daily events, enriched rows, list rows, market-sizing calls and detections to basic's (NEW_PLAN_SIGNAL_LIMITS).
 */
export async function setPlan(db: Db, id: string, changes: PlanChanges): Promise<{ plan: PlanRow; created: boolean }> {
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as PlanChanges;
  const existing = await findPlan(db, id);
  if (!existing) {
    const missing = (['requestsPerMinute', 'aiRequestsPerMinute', 'exportRequestsPerMinute'] as const).filter((k) => given[k] === undefined);
    if (missing.length > 0) throw new BadRequestError(`plan '${id}' does not exist yet: a new plan needs --rpm, --ai-rpm and --export-rpm`);
  }
  const base: Omit<PlanRow, 'id' | 'requestsPerMinute' | 'aiRequestsPerMinute' | 'exportRequestsPerMinute'> & Partial<PlanRow> = existing ?? {
    description: null,
    canExport: false,
    canAi: false,
    canPurchase: false,
    initialCredits: 0,
    ...NEW_PLAN_SIGNAL_LIMITS,
  };
  const plan = await definePlan(db, { ...base, ...given, id } as PlanRow);
  return { plan, created: !existing };
}

/** The largest value a plan's integer column holds. */
const MAX_INT = 2_147_483_647;

export async function definePlan(db: Db, plan: PlanRow): Promise<PlanRow> {
  if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(plan.id)) throw new BadRequestError('id: lowercase letters, digits, - and _ (up to 63)');
  for (const [field, v] of [
    ['rpm', plan.requestsPerMinute],
    ['ai-rpm', plan.aiRequestsPerMinute],
    ['export-rpm', plan.exportRequestsPerMinute],
  ] as const) {
    if (!Number.isInteger(v) || v < 1) throw new BadRequestError(`${field}: must be a whole number ≥ 1`);
  }
  for (const [field, v] of [
    ['credits', plan.initialCredits],
    ['max-monitors', plan.maxMonitors],
    ['max-webhooks', plan.maxWebhooks],
    ['events-per-day', plan.eventsPerDay],
    ['enrich-rows-per-day', plan.enrichRowsPerDay],
    ['max-list-rows', plan.maxListRows],
    ['facets-per-day', plan.facetsPerDay],
    ['detections-per-day', plan.detectionsPerDay],
  ] as const) {
    if (!Number.isInteger(v) || v < 0 || v > MAX_INT) throw new BadRequestError(`${field}: must be a whole number ≥ 0 (at most ${MAX_INT})`);
  }
  await upsertPlan(db, plan);
  forgetCachedClients(db);
  return plan;
}
