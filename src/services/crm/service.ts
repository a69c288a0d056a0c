// What the doors (REST, CLI) call for the CRM write-back: connect (the base URL held to the
// network policy, the token sealed), list and delete connections, sync a list's or some
// domains' companies (dry run or write; audited, counted against the plan's daily enrichment
// rows), and read the sync log. A client sees only its own connections, runs and lists.
import type { Config } from '../../config.ts';
import type { Db } from '../../db/db.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.ts';
import { checkTarget, BlockedAddressError, DnsError, makeResolver, type NetworkPolicy } from '../../detect/collect/index.ts';
import { toPage, type Page } from '../../schemas/common.ts';
import {
  MAX_SYNC_COMPANIES,
  type CrmConnectInput,
  type CrmConnectionOut,
  type CrmSyncInput,
  type CrmSyncRunOut,
  type CrmSyncRunSummaryOut,
} from '../../schemas/crm.ts';
import {
  crmAccountsByDomains,
  crmAccountsByIds,
  deleteConnection,
  findConnection,
  findSyncRun,
  listConnections,
  listSyncRuns,
  upsertConnection,
  type CrmConnectionRow,
  type CrmKind,
  type SyncRunRow,
} from '../../store/crm.ts';
import { audit } from '../audit.ts';
import type { Actor } from '../exports.ts';
import { listCompanyIds } from '../lists.ts';
import { takeEnrichment } from '../plan-limits.ts';
import { CrmError } from './connector.ts';
import { connectorOf, syncAccounts, type CrmReach, type RecordPlan } from './sync.ts';
import { crmTokenKey, sealToken, tokenHint } from './token-seal.ts';

type CrmSettings = Config['crm'];

const resolver = makeResolver();

/** Where CRM requests may go: public addresses, plus what the operator allows (any port: a CRM may serve on its own). */
function networkPolicy(settings: CrmSettings): NetworkPolicy {
  return { allowPrivateNetworks: settings.allowPrivateNetwork, allowNetworks: settings.allowNetworks, ports: 'any' };
}

async function reachOf(db: Db, settings: CrmSettings): Promise<CrmReach> {
  return { tokenKey: await crmTokenKey(db, settings.tokenKey), network: networkPolicy(settings), timeoutMs: settings.timeoutMs };
}

const connectionOut = (c: CrmConnectionRow): CrmConnectionOut => ({
  crm: c.crm,
  baseUrl: c.baseUrl,
  tokenHint: c.tokenHint,
  externalIdField: c.externalIdField,
  overwrite: c.overwrite,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

/**
 * The base URL, refused with a 400 naming it when it (or what its name resolves to) is not an
 * allowed address. A name that does not resolve now is kept: DNS may be down or split (a
 * machine without outside DNS), and every request a sync makes is checked again anyway.
 */
async function checkBaseUrl(raw: string, settings: CrmSettings): Promise<string> {
  try {
    const url = await checkTarget(raw, resolver, networkPolicy(settings));
    return url.href.replace(/\/+$/, '');
  } catch (err) {
    if (err instanceof DnsError) return new URL(raw).href.replace(/\/+$/, '');
    if (err instanceof BlockedAddressError) {
      const hint =
        err instanceof BlockedAddressError && err.reason === 'non_public_address'
          ? ' (an operator allows private ones with CRM_ALLOW_PRIVATE_NETWORK or CRM_ALLOW_NETWORKS)'
          : '';
      throw new BadRequestError(`baseUrl: ${err.message}${hint}`);
    }
    throw err;
  }
}

export async function connectCrm(db: Db, settings: CrmSettings, clientId: string, input: CrmConnectInput): Promise<CrmConnectionOut> {
  if (input.crm === 'hubspot' && input.externalIdField !== undefined)
    throw new BadRequestError('externalIdField: only for salesforce (HubSpot companies are keyed by domain)');
  const baseUrl = await checkBaseUrl(input.baseUrl, settings);
  const key = await crmTokenKey(db, settings.tokenKey);
  const row = await upsertConnection(db, {
    clientId,
    crm: input.crm,
    baseUrl,
    tokenSealed: sealToken(key, input.token, { clientId, crm: input.crm }),
    tokenHint: tokenHint(input.token),
    externalIdField: input.crm === 'salesforce' ? (input.externalIdField ?? 'Stacklens_Id__c') : null,
    overwrite: input.overwrite,
  });
  await audit(db, { clientId, onBehalfOf: null, action: 'crm.connect', params: { crm: input.crm, baseUrl, overwrite: input.overwrite }, resultCount: null });
  return connectionOut(row);
}

export async function listCrmConnections(db: Db, clientId: string): Promise<{ connections: CrmConnectionOut[] }> {
  return { connections: (await listConnections(db, clientId)).map(connectionOut) };
}

const noConnection = (crm: CrmKind) => new NotFoundError(`No ${crm} connection: connect one first (POST /crm/connections, or stacklens crm connect)`);

export async function deleteCrmConnection(db: Db, clientId: string, crm: CrmKind): Promise<{ crm: CrmKind; deleted: true }> {
  if (!(await deleteConnection(db, clientId, crm))) throw noConnection(crm);
  await audit(db, { clientId, onBehalfOf: null, action: 'crm.disconnect', params: { crm }, resultCount: null });
  return { crm, deleted: true };
}

const runSummary = (r: SyncRunRow): CrmSyncRunSummaryOut => ({
  id: r.id,
  crm: r.crm,
  listId: r.listId,
  dryRun: r.dryRun,
  overwrite: r.overwrite,
  status: r.status,
  counts: r.counts,
  error: r.error,
  startedAt: r.startedAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? null,
});
const runOut = (r: SyncRunRow): CrmSyncRunOut => ({ ...runSummary(r), records: r.records as RecordPlan[] });

/**
 * Plans (dryRun) or writes the companies of a list or of some domains to the client's CRM.
 * The companies found are spent from the plan's daily enrichment rows first: a dry run shows
 * our values too. A CRM that fails is a run with status failed, logged and answered.
 */
export async function syncCrm(db: Db, settings: CrmSettings, actor: Actor, input: CrmSyncInput): Promise<CrmSyncRunOut> {
  if ((input.listId === undefined) === (input.domains === undefined)) throw new BadRequestError('listId: give exactly one of listId and domains');
  const connection = await findConnection(db, actor.clientId, input.crm);
  if (!connection) throw noConnection(input.crm);
  let accounts;
  if (input.listId !== undefined) {
    const ids = await listCompanyIds(db, actor.clientId, input.listId);
    if (ids.length > MAX_SYNC_COMPANIES)
      throw new BadRequestError(`listId: the list has ${ids.length} matched companies; a sync takes at most ${MAX_SYNC_COMPANIES} (sync domains in parts)`);
    accounts = await crmAccountsByIds(db, ids);
  } else {
    accounts = await crmAccountsByDomains(db, [...new Set(input.domains!.map((d) => d.toLowerCase()))]);
  }
  await takeEnrichment(db, actor.clientId, accounts.length, 0);
  let connector;
  try {
    connector = connectorOf(connection, await reachOf(db, settings));
  } catch (err) {
    if (err instanceof CrmError) throw new ConflictError(err.message);
    throw err;
  }
  const overwrite = input.overwrite ?? connection.overwrite;
  const run = await syncAccounts(db, actor.clientId, connector, accounts, { dryRun: input.dryRun, overwrite, listId: input.listId });
  await audit(db, {
    clientId: actor.clientId,
    onBehalfOf: actor.onBehalfOf,
    action: `crm.sync.${input.crm}`,
    params: {
      runId: run.id,
      listId: input.listId ?? null,
      domains: input.domains?.length ?? null,
      dryRun: input.dryRun,
      overwrite,
      status: run.status,
      counts: run.counts,
    },
    resultCount: accounts.length,
    outcome: run.status === 'failed' ? 'failure' : 'success',
  });
  return runOut(run);
}

export async function listCrmSyncRuns(db: Db, clientId: string, q: { page: number; size: number }): Promise<Page<CrmSyncRunSummaryOut>> {
  const { total, rows } = await listSyncRuns(db, clientId, q.page * q.size, q.size);
  return toPage(rows.map(runSummary), total, q.size);
}

export async function getCrmSyncRun(db: Db, clientId: string, runId: string): Promise<CrmSyncRunOut> {
  const run = await findSyncRun(db, clientId, runId);
  if (!run) throw new NotFoundError(`No sync run ${runId}`);
  return runOut(run);
}
