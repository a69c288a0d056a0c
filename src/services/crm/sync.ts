// The CRM sync: what would change in the CRM for a set of companies, and the write-back.
//
// For each company the CRM record is read back first (connector.read), then compared field by
// field with what we would write (fields.ts). A field is protected, and left as the CRM has it,
// when a person owns it: its CRM value differs from the value we last wrote there
// (crm_field_state: edited in the CRM since our last sync), or we never wrote it and the CRM
// already holds a value (set in the CRM before us). `overwrite` writes protected fields too.
// A dry run reads the CRM and logs the plan; it writes nothing, to the CRM or to the state.
// After a write, the values the CRM accepted are recorded per (client, CRM, company, field).
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db.ts';
import {
  findConnection,
  findSyncRun,
  finishSyncRun,
  insertSyncRun,
  lastWritten,
  recordWritten,
  type CrmAccountRow,
  type CrmConnectionRow,
  type CrmKind,
  type SyncRunRow,
} from '../../store/crm.ts';
import type { NetworkPolicy } from '../../detect/collect/index.ts';
import { CrmError, type CrmConnector } from './connector.ts';
import { openToken } from './token-seal.ts';
import { HubSpotConnector } from './hubspot.ts';
import { SalesforceConnector } from './salesforce.ts';
import { CRM_FIELDS, crmRecord } from './fields.ts';

export interface FieldChange {
  field: string;
  old: string;
  new: string;
  /** Set when the field is left as the CRM has it. */
  skipped?: 'edited_in_crm' | 'set_in_crm';
}

export interface RecordPlan {
  companyId: string;
  domain: string;
  key: string;
  action: 'create' | 'update' | 'unchanged' | 'skipped';
  changes: FieldChange[];
  outcome?: 'created' | 'updated' | 'failed';
  error?: string;
}

interface SyncOptions {
  dryRun: boolean;
  /** Write fields a person owns in the CRM too. */
  overwrite: boolean;
  /** The list whose companies these are, for the log. */
  listId?: string;
}

/** The plan for one company, given the CRM's current record (undefined: none) and what we last wrote. */
function planRecord(
  fields: readonly string[],
  keyField: string,
  desired: Record<string, string>,
  current: Record<string, string> | undefined,
  last: ReadonlyMap<string, string> | undefined,
  overwrite: boolean,
): Pick<RecordPlan, 'action' | 'changes'> {
  if (!current) {
    return { action: 'create', changes: fields.filter((f) => desired[f] !== '').map((f) => ({ field: f, old: '', new: desired[f]! })) };
  }
  const changes: FieldChange[] = [];
  for (const f of fields) {
    if (f === keyField) continue;
    const old = current[f] ?? '';
    const next = desired[f] ?? '';
    if (old === next) continue;
    const ours = last?.get(f);
    const skipped = ours === undefined ? (old !== '' ? 'set_in_crm' : undefined) : old !== ours ? 'edited_in_crm' : undefined;
    changes.push(skipped && !overwrite ? { field: f, old, new: next, skipped } : { field: f, old, new: next });
  }
  const writes = changes.filter((c) => !c.skipped).length;
  return { action: writes > 0 ? 'update' : changes.length > 0 ? 'skipped' : 'unchanged', changes };
}

/** Plans (and unless a dry run, writes) these companies to the CRM; the run is logged in crm_sync_runs. */
export async function syncAccounts(
  db: Db,
  clientId: string,
  connector: CrmConnector,
  accounts: readonly CrmAccountRow[],
  options: SyncOptions,
): Promise<SyncRunRow> {
  const id = `crmsync_${randomUUID()}`;
  await insertSyncRun(db, id, clientId, connector.kind, options);
  const fields = CRM_FIELDS[connector.kind];
  const counts = { created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 };
  const plans: RecordPlan[] = [];
  try {
    const desired = accounts.map((a) => ({ account: a, record: crmRecord(connector.kind, a) }));
    const recordOf = new Map(desired.map((d) => [d.account.id, d.record]));
    // Salesforce's key is our company id in whichever External ID field the connection names.
    const keyOf = (r: Record<string, string>) => (connector.keyField === 'domain' ? r.domain!.toLowerCase() : (r[connector.keyField] ?? r.Stacklens_Id__c!));
    const current = await connector.read(
      desired.map((d) => keyOf(d.record)),
      fields,
    );
    const last = await lastWritten(
      db,
      clientId,
      connector.kind,
      accounts.map((a) => a.id),
    );
    for (const d of desired) {
      const key = keyOf(d.record);
      const plan = planRecord(fields, connector.keyField, d.record, current.get(key), last.get(d.account.id), options.overwrite);
      plans.push({ companyId: d.account.id, domain: d.account.domain, key, ...plan });
    }
    const toWrite = plans.filter((p) => p.action === 'create' || p.action === 'update');
    if (!options.dryRun && toWrite.length > 0) {
      const outcomes = await connector.write(
        toWrite.map((p) => {
          const rec: Record<string, string> = { [connector.keyField]: p.key };
          for (const c of p.changes) if (!c.skipped) rec[c.field] = c.new;
          return rec;
        }),
      );
      const written: Array<{ companyId: string; field: string; value: string }> = [];
      for (const p of toWrite) {
        const o = outcomes.get(p.key);
        if (!o || !o.ok) {
          p.outcome = 'failed';
          p.error = o && !o.ok ? o.error : 'no outcome';
          continue;
        }
        p.outcome = o.created || p.action === 'create' ? 'created' : 'updated';
        for (const c of p.changes) if (!c.skipped) written.push({ companyId: p.companyId, field: c.field, value: c.new });
      }
      // Fields already equal are ours from now on as well: a later edit in the CRM is then recognized.
      for (const p of plans) {
        if (p.outcome === 'failed' || p.action === 'create') continue;
        const rec = recordOf.get(p.companyId)!;
        const cur = current.get(p.key);
        for (const f of fields)
          if (cur && (cur[f] ?? '') === rec[f] && !last.get(p.companyId)?.has(f)) written.push({ companyId: p.companyId, field: f, value: rec[f]! });
      }
      await recordWritten(db, clientId, connector.kind, written);
    }
    for (const p of plans) {
      if (p.outcome === 'failed') counts.failed++;
      else if (p.action === 'create') counts.created++;
      else if (p.action === 'update') counts.updated++;
      else if (p.action === 'skipped') counts.skipped++;
      else counts.unchanged++;
    }
    await finishSyncRun(db, id, { status: 'done', counts, records: plans, error: null });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await finishSyncRun(db, id, { status: 'failed', counts, records: plans, error: message });
  }
  return (await findSyncRun(db, clientId, id))!;
}

/** How a connector reaches its CRM: the sealing key of stored tokens, the network policy, the time limit per request. */
export interface CrmReach {
  tokenKey: Buffer;
  network: NetworkPolicy;
  timeoutMs: number;
}

/** The connector of a stored connection, its token opened; a token that does not open (another key) is a CrmError. */
export function connectorOf(c: CrmConnectionRow, reach: CrmReach): CrmConnector {
  const token = openToken(reach.tokenKey, c.tokenSealed, c);
  if (token === undefined)
    throw new CrmError(`the stored ${c.crm} token cannot be decrypted (CRM_TOKEN_KEY changed since it was stored): connect again with the token`);
  const http = { token, network: reach.network, timeoutMs: reach.timeoutMs };
  return c.crm === 'hubspot' ? new HubSpotConnector(c.baseUrl, http) : new SalesforceConnector(c.baseUrl, http, c.externalIdField ?? 'Stacklens_Id__c');
}

/** The connector of a client's stored connection to `crm`, or undefined when it has none. */
export async function connectorFor(db: Db, clientId: string, crm: CrmKind, reach: CrmReach): Promise<CrmConnector | undefined> {
  const c = await findConnection(db, clientId, crm);
  return c && connectorOf(c, reach);
}
