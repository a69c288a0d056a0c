// The Admin API's access side: API clients, their API keys, plans and credits. Each change
// goes through the same functions as the command line (auth/clients.ts, auth/api-keys.ts,
// services/purchases.ts) and is audited under its actor (services/audit.ts adminAction);
// reads answer the contract's shapes, never a secret.
import type { Db } from '../db/db.ts';
import type { Config } from '../config.ts';
import {
  findApiKeyByPrefix,
  findClient,
  findPlan,
  listApiKeys,
  listClientsPage,
  listPlans,
  type ApiKeyRow,
  type ClientWithPlan,
  type PlanRow,
} from '../store/access.ts';
import { findBalance, findLedgerPage } from '../store/purchases.ts';
import { changeClient, createClient, rotateClientSecret, setClientEnabled, setPlan, type PlanChanges } from '../auth/clients.ts';
import { createApiKey, revokeApiKey } from '../auth/api-keys.ts';
import { grantCredits } from './purchases.ts';
import { adminAction, type AdminActor } from './audit.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { toPage, type Page } from '../schemas/common.ts';
import type { Role } from '../schemas/roles.ts';
import type { AdminApiKey, AdminClient } from '../schemas/admin.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toAdminClient(c: ClientWithPlan): AdminClient {
  return {
    clientId: c.id,
    name: c.name,
    plan: c.planId,
    role: c.role,
    credits: c.credits,
    externalId: c.externalId,
    disabled: c.disabledAt !== null,
    disabledAt: iso(c.disabledAt),
    secretRotatedAt: c.secretRotatedAt.toISOString(),
    createdAt: c.createdAt.toISOString(),
  };
}

function toAdminApiKey(k: ApiKeyRow): AdminApiKey {
  return {
    id: k.id,
    prefix: k.prefix,
    clientId: k.clientId,
    name: k.name,
    revoked: k.revokedAt !== null,
    revokedAt: iso(k.revokedAt),
    lastUsedAt: iso(k.lastUsedAt),
    createdAt: k.createdAt.toISOString(),
  };
}

const toAdminPlan = (p: PlanRow) => ({
  id: p.id,
  description: p.description,
  canExport: p.canExport,
  canAi: p.canAi,
  canPurchase: p.canPurchase,
  initialCredits: p.initialCredits,
  requestsPerMinute: p.requestsPerMinute,
  aiRequestsPerMinute: p.aiRequestsPerMinute,
  exportRequestsPerMinute: p.exportRequestsPerMinute,
  maxMonitors: p.maxMonitors,
  maxWebhooks: p.maxWebhooks,
  eventsPerDay: p.eventsPerDay,
  enrichRowsPerDay: p.enrichRowsPerDay,
  maxListRows: p.maxListRows,
  facetsPerDay: p.facetsPerDay,
  detectionsPerDay: p.detectionsPerDay,
});

async function clientOrNotFound(db: Db, clientId: string): Promise<ClientWithPlan> {
  const client = await findClient(db, clientId);
  if (!client) throw new NotFoundError(`clientId: no client '${clientId}'`);
  return client;
}

const paged = <T>(all: T[], page: number, size: number): Page<T> => toPage(all.slice(page * size, (page + 1) * size), all.length, size);

// Clients ------------------------------------------------------------------------------------

export async function listAdminClients(db: Db, page: number, size: number): Promise<Page<AdminClient>> {
  const { rows, total } = await listClientsPage(db, page * size, size);
  return toPage(rows.map(toAdminClient), total, size);
}

export async function getAdminClient(db: Db, clientId: string): Promise<AdminClient> {
  return toAdminClient(await clientOrNotFound(db, clientId));
}

interface NewClient {
  name: string;
  plan: string;
  credits?: number | undefined;
  externalId?: string | undefined;
  role?: Role | null | undefined;
}

/** Creates a client; the secret is in the answer only (the audit entry names the client, never the secret). */
export async function createAdminClient(db: Db, config: Config, actor: AdminActor, input: NewClient) {
  const { name, plan, credits, externalId, role } = input;
  const created = await adminAction(
    db,
    actor,
    'admin.clients.create',
    { name, plan, credits: credits ?? null, externalId: externalId ?? null, role: role ?? null },
    () => createClient(db, { name, plan, credits, externalId, role: role ?? null }),
    (c) => ({ clientId: c.clientId }),
  );
  return {
    client: toAdminClient(await clientOrNotFound(db, created.clientId)),
    clientSecret: created.clientSecret,
    tokenUrl: `${config.auth.issuer}/oauth/token`,
    audience: config.auth.audience,
  };
}

/** Name, plan or role; an admin cannot take away its own role (it would lock itself out). */
export async function updateAdminClient(
  db: Db,
  actor: AdminActor,
  clientId: string,
  changes: { name?: string | undefined; plan?: string | undefined; role?: Role | null | undefined },
) {
  await adminAction(db, actor, 'admin.clients.update', { clientId, ...changes }, async () => {
    if (actor !== 'cli' && actor.clientId === clientId && changes.role !== undefined && changes.role !== 'admin') {
      throw new ConflictError('role: an admin cannot remove its own admin role; another admin (or the command line) can');
    }
    await changeClient(db, clientId, changes);
  });
  return getAdminClient(db, clientId);
}

export async function setAdminClientEnabled(db: Db, actor: AdminActor, clientId: string, enabled: boolean) {
  await adminAction(db, actor, enabled ? 'admin.clients.enable' : 'admin.clients.disable', { clientId }, async () => {
    if (!enabled && actor !== 'cli' && actor.clientId === clientId) throw new ConflictError('clientId: an admin cannot disable itself');
    await setClientEnabled(db, clientId, enabled);
  });
  return getAdminClient(db, clientId);
}

export async function rotateAdminClientSecret(db: Db, actor: AdminActor, clientId: string) {
  return adminAction(db, actor, 'admin.clients.rotate_secret', { clientId }, () => rotateClientSecret(db, clientId));
}

// API keys -----------------------------------------------------------------------------------

export async function listAdminClientKeys(db: Db, clientId: string, page: number, size: number): Promise<Page<AdminApiKey>> {
  await clientOrNotFound(db, clientId);
  return paged((await listApiKeys(db, clientId)).map(toAdminApiKey), page, size);
}

/** A new key; the key itself is in the answer only. */
export async function createAdminClientKey(db: Db, actor: AdminActor, clientId: string, name: string | null) {
  const created = await adminAction(
    db,
    actor,
    'admin.keys.create',
    { clientId, name },
    () => createApiKey(db, clientId, name),
    (k) => ({ keyId: k.id }),
  );
  const row = await findApiKeyByPrefix(db, created.prefix);
  return { key: toAdminApiKey(row!), apiKey: created.apiKey };
}

export async function revokeAdminKey(db: Db, actor: AdminActor, keyIdOrPrefix: string): Promise<AdminApiKey> {
  const row = await adminAction(
    db,
    actor,
    'admin.keys.revoke',
    { keyId: keyIdOrPrefix },
    () => revokeApiKey(db, keyIdOrPrefix),
    (k) => ({ keyId: k.id, clientId: k.clientId }),
  );
  return toAdminApiKey(row);
}

// Plans --------------------------------------------------------------------------------------

export async function listAdminPlans(db: Db, page: number, size: number) {
  return paged((await listPlans(db)).map(toAdminPlan), page, size);
}

export async function getAdminPlan(db: Db, planId: string) {
  const plan = await findPlan(db, planId);
  if (!plan) throw new NotFoundError(`planId: no plan '${planId}'`);
  return toAdminPlan(plan);
}

export async function setAdminPlan(db: Db, actor: AdminActor, planId: string, changes: PlanChanges) {
  const { plan, created } = await adminAction(
    db,
    actor,
    'admin.plans.set',
    { planId, ...changes },
    () => setPlan(db, planId, changes),
    (r) => ({ created: r.created }),
  );
  return { plan: toAdminPlan(plan), created };
}

// Credits ------------------------------------------------------------------------------------

export async function getAdminClientCredits(db: Db, clientId: string, page: number, size: number) {
  const balance = await findBalance(db, clientId);
  if (balance === undefined) throw new NotFoundError(`clientId: no client '${clientId}'`);
  const { rows, total } = await findLedgerPage(db, clientId, page * size, size);
  const ledger = rows.map((e) => ({ id: Number(e.id), delta: e.delta, reason: e.reason, reference: e.reference, createdAt: e.createdAt.toISOString() }));
  return { clientId, balance, ledger: toPage(ledger, total, size) };
}

export async function grantAdminClientCredits(
  db: Db,
  actor: AdminActor,
  clientId: string,
  input: { amount: number; reason: string; reference?: string | undefined },
) {
  const balance = await adminAction(
    db,
    actor,
    'admin.credits.grant',
    { clientId, amount: input.amount, reason: input.reason, reference: input.reference ?? null },
    () => grantCredits(db, clientId, input.amount, input.reason, input.reference ?? null),
    (b) => ({ balance: b }),
  );
  return { clientId, amount: input.amount, balance };
}
