// HubSpot and Salesforce as the CRM tests meet them: in-memory records behind the validating
// stub (crm-stub.ts), answering as the vendor documents, with records a test can edit as a
// person would in the CRM and keys a test can make fail.
import { loadSpec, startSpecStub, type Answer, type SpecRequest, type SpecStub } from './crm-stub.ts';

const now = () => new Date().toISOString();

export interface HubSpotStub extends SpecStub {
  /** Companies by domain: their properties as HubSpot stores them. */
  companies: Map<string, Record<string, string>>;
  /** Domains whose upsert fails with this message (a 207 error naming the input). */
  failing: Map<string, string>;
  upsertBatchSizes: number[];
}

export async function startHubSpotStub(): Promise<HubSpotStub> {
  const companies = new Map<string, Record<string, string>>();
  const ids = new Map<string, string>();
  const failing = new Map<string, string>();
  const upsertBatchSizes: number[] = [];
  let next = 1000;
  const idOf = (domain: string) => ids.get(domain) ?? (ids.set(domain, String(next++)), ids.get(domain)!);
  const obj = (domain: string, props: Record<string, string>, extra: object = {}) => ({
    id: idOf(domain),
    properties: props,
    createdAt: now(),
    updatedAt: now(),
    archived: false,
    ...extra,
  });
  const error = (message: string, key: string) => ({ status: 'error', category: 'VALIDATION_ERROR', message, context: { ids: [key] }, errors: [], links: {} });
  const handle = (req: SpecRequest): Answer => {
    const body = req.json as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    const startedAt = now();
    if (req.operationId === 'companies-batch-read') {
      const results = [];
      const errors = [];
      for (const { id } of body.inputs as Array<{ id: string }>) {
        const c = companies.get(id);
        if (!c) {
          errors.push({ ...error(`Could not get some COMPANY objects, they may be deleted or not exist.`, id), category: 'OBJECT_NOT_FOUND' });
          continue;
        }
        const props: Record<string, string> = {};
        for (const p of [...(body.properties as string[]), 'domain', 'hs_object_id']) if (c[p] !== undefined) props[p] = c[p];
        results.push(obj(id, props));
      }
      return {
        status: errors.length ? 207 : 200,
        json: { status: 'COMPLETE', results, startedAt, completedAt: now(), ...(errors.length ? { errors, numErrors: errors.length } : {}) },
      };
    }
    // companies-batch-upsert
    upsertBatchSizes.push(body.inputs.length);
    const results = [];
    const errors = [];
    for (const input of body.inputs as Array<{ id: string; idProperty?: string; objectWriteTraceId?: string; properties: Record<string, string> }>) {
      if (input.idProperty !== 'domain') return { status: 400, json: { message: `unknown idProperty ${input.idProperty}`, category: 'VALIDATION_ERROR' } };
      const domain = input.id;
      const fail = failing.get(domain);
      if (fail) {
        errors.push(error(fail, domain));
        continue;
      }
      const created = !companies.has(domain);
      const props = { ...(companies.get(domain) ?? {}), ...input.properties, domain };
      companies.set(domain, props);
      results.push(obj(domain, props, { new: created, ...(input.objectWriteTraceId ? { objectWriteTraceId: input.objectWriteTraceId } : {}) }));
    }
    return {
      status: errors.length ? 207 : 200,
      json: { status: 'COMPLETE', results, startedAt, completedAt: now(), ...(errors.length ? { errors, numErrors: errors.length } : {}) },
    };
  };
  const stub = await startSpecStub(loadSpec('hubspot-companies.openapi.json'), handle);
  return Object.assign(stub, { companies, failing, upsertBatchSizes });
}

export interface SalesforceStub extends SpecStub {
  /** Accounts by external id (Stacklens_Id__c). */
  accounts: Map<string, Record<string, string>>;
  /** External ids whose row fails with this message. */
  failing: Map<string, string>;
  jobs: Map<string, { state: string; csv: string; polls: number; ok: string[][]; failed: string[][]; header: string[] }>;
}

/** An RFC 4180 cell. */
const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') (row.push(field), (field = ''));
    else if (c === '\n') (row.push(field), rows.push(row), (row = []), (field = ''));
    else field += c;
  }
  if (field || row.length) (row.push(field), rows.push(row));
  return rows;
}

export async function startSalesforceStub(keyField = 'Stacklens_Id__c'): Promise<SalesforceStub> {
  const accounts = new Map<string, Record<string, string>>();
  const failing = new Map<string, string>();
  const jobs: SalesforceStub['jobs'] = new Map();
  let nextJob = 1;
  let nextId = 1;
  const jobInfo = (id: string) => ({ id, state: jobs.get(id)!.state, object: 'Account', operation: 'upsert', externalIdFieldName: keyField });
  const handle = (req: SpecRequest): Answer => {
    const jobId = req.params.jobId ?? '';
    switch (req.operationId) {
      case 'query': {
        const q = req.query.get('q')!;
        const m = /^SELECT (.+) FROM Account WHERE (\w+) IN \((.*)\)$/.exec(q);
        if (!m || m[2] !== keyField) return { status: 400, json: [{ message: `malformed query: ${q}`, errorCode: 'MALFORMED_QUERY' }] };
        const fields = m[1]!.split(',').map((s) => s.trim());
        const keys = [...m[3]!.matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((k) => k[1]!.replace(/\\(.)/g, '$1'));
        const records = keys
          .filter((k) => accounts.has(k))
          .map((k) => {
            const a = accounts.get(k)!;
            const r: Record<string, unknown> = { attributes: { type: 'Account' } };
            for (const f of fields) r[f] = a[f] === undefined || a[f] === '' ? null : ['NumberOfEmployees', 'AnnualRevenue'].includes(f) ? Number(a[f]) : a[f];
            return r;
          });
        return { status: 200, json: { totalSize: records.length, done: true, records } };
      }
      case 'createIngestJob': {
        const id = `750R0000000${String(nextJob++).padStart(4, '0')}`;
        jobs.set(id, { state: 'Open', csv: '', polls: 0, ok: [], failed: [], header: [] });
        return { status: 200, json: jobInfo(id) };
      }
      case 'uploadJobData': {
        const job = jobs.get(jobId);
        if (!job || job.state !== 'Open') return { status: 404, json: [{ message: 'no open job', errorCode: 'NOT_FOUND' }] };
        job.csv += req.body;
        return { status: 201 };
      }
      case 'closeOrAbortJob': {
        const job = jobs.get(jobId);
        if (!job) return { status: 404, json: [{ message: 'no job', errorCode: 'NOT_FOUND' }] };
        const state = (req.json as { state: string }).state;
        job.state = state;
        if (state === 'UploadComplete') {
          const [header, ...rows] = parseCsv(job.csv);
          job.header = header!;
          const keyAt = header!.indexOf(keyField);
          if (keyAt < 0) job.state = 'Failed';
          for (const row of rows) {
            const key = row[keyAt]!;
            const fail = failing.get(key);
            if (fail) {
              job.failed.push(['', fail, ...row]);
              continue;
            }
            const created = !accounts.has(key);
            const a = accounts.get(key) ?? { Id: `001R00000${String(nextId++).padStart(6, '0')}` };
            header!.forEach((f, i) => {
              const v = row[i] ?? '';
              if (v === '#N/A') a[f] = '';
              else if (v !== '') a[f] = v;
            });
            accounts.set(key, a);
            job.ok.push([a.Id!, String(created), ...row]);
          }
        }
        return { status: 200, json: jobInfo(jobId) };
      }
      case 'getJobInfo': {
        const job = jobs.get(jobId);
        if (!job) return { status: 404, json: [{ message: 'no job', errorCode: 'NOT_FOUND' }] };
        // In progress on the first poll, complete on the next: the connector must poll.
        if (job.state === 'UploadComplete') job.state = 'InProgress';
        else if (job.state === 'InProgress') job.state = 'JobComplete';
        return { status: 200, json: jobInfo(jobId) };
      }
      case 'getSuccessfulResults':
      case 'getFailedResults': {
        const job = jobs.get(jobId)!;
        const ok = req.operationId === 'getSuccessfulResults';
        const head = [...(ok ? ['sf__Id', 'sf__Created'] : ['sf__Id', 'sf__Error']), ...job.header];
        const lines = [head, ...(ok ? job.ok : job.failed)].map((r) => r.map(cell).join(','));
        return { status: 200, csv: `${lines.join('\n')}\n` };
      }
    }
    return { status: 404, json: [{ message: 'not found', errorCode: 'NOT_FOUND' }] };
  };
  const stub = await startSpecStub(loadSpec('salesforce-bulk2.openapi.json'), handle);
  return Object.assign(stub, { accounts, failing, jobs });
}
