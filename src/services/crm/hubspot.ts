// HubSpot: companies keyed by `domain`. Reads with the CRM v3 batch read by a unique property
// (`idProperty: domain`), writes with the batch upsert (`idProperty: domain` on each input);
// both take at most 100 inputs a call, so the work is split in batches of 100. A 207 answer
// carries per-input errors: each names the input by its `objectWriteTraceId` (set to the
// domain) or its id in `context.ids`; an error naming no input fails every input of its batch
// that has no result.
import type { CrmConnector, WriteOutcome } from './connector.ts';
import { CrmError } from './connector.ts';
import { crmRequest, jsonOf, type CrmHttpOptions } from './http.ts';

const HUBSPOT_BATCH_SIZE = 100;

interface HubSpotObject {
  id: string;
  properties: Record<string, string | null>;
  new?: boolean;
  objectWriteTraceId?: string;
}
interface HubSpotError {
  message: string;
  context?: Record<string, string[]>;
}
interface HubSpotBatch {
  status: string;
  results: HubSpotObject[];
  errors?: HubSpotError[];
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export class HubSpotConnector implements CrmConnector {
  readonly kind = 'hubspot' as const;
  readonly keyField = 'domain';

  constructor(
    private readonly baseUrl: string,
    private readonly http: CrmHttpOptions,
  ) {}

  private url(path: string): string {
    return `${this.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  async read(keys: readonly string[], fields: readonly string[]): Promise<Map<string, Record<string, string>>> {
    const out = new Map<string, Record<string, string>>();
    for (const batch of chunks(keys, HUBSPOT_BATCH_SIZE)) {
      const res = await crmRequest(this.url('/crm/v3/objects/companies/batch/read'), this.http, {
        method: 'POST',
        body: JSON.stringify({ idProperty: 'domain', inputs: batch.map((id) => ({ id })), properties: [...fields], propertiesWithHistory: [] }),
      });
      // 207: some domains have no company (their errors say so); the results are the ones that do.
      const body = jsonOf<HubSpotBatch>(res, 'HubSpot batch read');
      for (const r of body.results ?? []) {
        const domain = r.properties.domain;
        if (!domain) continue;
        const values: Record<string, string> = {};
        for (const f of fields) values[f] = r.properties[f] ?? '';
        out.set(domain.toLowerCase(), values);
      }
    }
    return out;
  }

  async write(records: ReadonlyArray<Record<string, string>>): Promise<Map<string, WriteOutcome>> {
    const out = new Map<string, WriteOutcome>();
    for (const batch of chunks(records, HUBSPOT_BATCH_SIZE)) {
      const inputs = batch.map((r) => {
        const { domain, ...properties } = r;
        return { id: domain!, idProperty: 'domain', objectWriteTraceId: domain!, properties };
      });
      let body: HubSpotBatch;
      try {
        const res = await crmRequest(this.url('/crm/v3/objects/companies/batch/upsert'), this.http, { method: 'POST', body: JSON.stringify({ inputs }) });
        body = jsonOf<HubSpotBatch>(res, 'HubSpot batch upsert');
      } catch (err) {
        if (!(err instanceof CrmError)) throw err;
        for (const i of inputs) out.set(i.id, { ok: false, error: err.message });
        continue;
      }
      for (const r of body.results ?? []) {
        const key = (r.objectWriteTraceId ?? r.properties.domain ?? '').toLowerCase();
        if (key) out.set(key, { ok: true, created: r.new === true });
      }
      for (const e of body.errors ?? []) {
        const named = [...(e.context?.objectWriteTraceId ?? []), ...(e.context?.ids ?? [])].map((k) => k.toLowerCase());
        const targets = named.length > 0 ? named : inputs.map((i) => i.id).filter((id) => !out.has(id));
        for (const t of targets) out.set(t, { ok: false, error: e.message });
      }
      for (const i of inputs) if (!out.has(i.id)) out.set(i.id, { ok: false, error: 'HubSpot answered neither a result nor an error for this company' });
    }
    return out;
  }
}
