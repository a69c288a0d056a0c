// Salesforce: Accounts keyed by an External ID field (Stacklens_Id__c by default). Reads with a
// SOQL query through the REST API (`/query`, keys in chunks of 100 so the URL stays short,
// following `nextRecordsUrl`); writes with one Bulk API 2.0 ingest job per call: create the
// upsert job, PUT the CSV, close it (`UploadComplete`), poll until it is done, then read the
// successful and failed results, which carry each row's fields, so each row is matched to its
// key. In the CSV an empty cell leaves a field as it is; `#N/A` clears it.
import { parse } from 'csv-parse/sync';
import type { CrmConnector, WriteOutcome } from './connector.ts';
import { CrmError } from './connector.ts';
import { crmRequest, jsonOf, type CrmHttpOptions } from './http.ts';

const SALESFORCE_API_VERSION = 'v60.0';
const QUERY_CHUNK = 100;

interface JobInfo {
  id: string;
  state: 'Open' | 'UploadComplete' | 'InProgress' | 'JobComplete' | 'Failed' | 'Aborted';
  errorMessage?: string;
}

/** A CSV cell for the Bulk API: quoted when it must be (RFC 4180), never altered otherwise. */
function cell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
const soqlString = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export class SalesforceConnector implements CrmConnector {
  readonly kind = 'salesforce' as const;

  constructor(
    private readonly baseUrl: string,
    private readonly http: CrmHttpOptions,
    readonly keyField: string,
    private readonly poll: { intervalMs: number; timeoutMs: number } = { intervalMs: 2000, timeoutMs: 10 * 60_000 },
  ) {}

  private url(path: string): string {
    return `${this.baseUrl.replace(/\/+$/, '')}/services/data/${SALESFORCE_API_VERSION}${path}`;
  }

  async read(keys: readonly string[], fields: readonly string[]): Promise<Map<string, Record<string, string>>> {
    const out = new Map<string, Record<string, string>>();
    const columns = [...new Set([this.keyField, ...fields])];
    for (let i = 0; i < keys.length; i += QUERY_CHUNK) {
      const chunk = keys.slice(i, i + QUERY_CHUNK);
      const soql = `SELECT Id, ${columns.join(', ')} FROM Account WHERE ${this.keyField} IN (${chunk.map(soqlString).join(', ')})`;
      let next: string | undefined = this.url(`/query?q=${encodeURIComponent(soql)}`);
      while (next) {
        const body: { records: Array<Record<string, unknown>>; nextRecordsUrl?: string; done: boolean } = jsonOf(
          await crmRequest(next, this.http),
          'Salesforce query',
        );
        for (const r of body.records) {
          const values: Record<string, string> = {};
          for (const f of columns) values[f] = r[f] === null || r[f] === undefined ? '' : String(r[f]);
          out.set(values[this.keyField]!, values);
        }
        next = body.done || !body.nextRecordsUrl ? undefined : `${this.baseUrl.replace(/\/+$/, '')}${body.nextRecordsUrl}`;
      }
    }
    return out;
  }

  async write(records: ReadonlyArray<Record<string, string>>): Promise<Map<string, WriteOutcome>> {
    const out = new Map<string, WriteOutcome>();
    if (records.length === 0) return out;
    const columns = [this.keyField, ...new Set(records.flatMap((r) => Object.keys(r)).filter((f) => f !== this.keyField))];
    // A field a record does not set stays empty (left as it is); a field set to '' is cleared.
    const csv = [columns.join(','), ...records.map((r) => columns.map((c) => (c in r ? cell(r[c] === '' ? '#N/A' : r[c]!) : '')).join(','))].join('\n');
    try {
      const job = jsonOf<JobInfo>(
        await crmRequest(this.url('/jobs/ingest'), this.http, {
          method: 'POST',
          body: JSON.stringify({ object: 'Account', externalIdFieldName: this.keyField, contentType: 'CSV', operation: 'upsert', lineEnding: 'LF' }),
        }),
        'Salesforce create job',
      );
      const put = await crmRequest(this.url(`/jobs/ingest/${job.id}/batches`), this.http, { method: 'PUT', body: `${csv}\n`, contentType: 'text/csv' });
      if (put.status !== 201) jsonOf(put, 'Salesforce upload job data');
      jsonOf(
        await crmRequest(this.url(`/jobs/ingest/${job.id}`), this.http, { method: 'PATCH', body: JSON.stringify({ state: 'UploadComplete' }) }),
        'Salesforce close job',
      );
      const done = await this.waitFor(job.id);
      if (done.state !== 'JobComplete') throw new CrmError(`Salesforce job ${job.id} ended ${done.state}${done.errorMessage ? `: ${done.errorMessage}` : ''}`);
      for (const row of await this.results(job.id, 'successfulResults')) {
        out.set(row[this.keyField]!, { ok: true, created: row.sf__Created === 'true' });
      }
      for (const row of await this.results(job.id, 'failedResults')) {
        out.set(row[this.keyField]!, { ok: false, error: row.sf__Error || 'failed' });
      }
    } catch (err) {
      if (!(err instanceof CrmError)) throw err;
      for (const r of records) if (!out.has(r[this.keyField]!)) out.set(r[this.keyField]!, { ok: false, error: err.message });
    }
    for (const r of records) {
      if (!out.has(r[this.keyField]!)) out.set(r[this.keyField]!, { ok: false, error: 'Salesforce reported neither success nor failure for this row' });
    }
    return out;
  }

  private async waitFor(jobId: string): Promise<JobInfo> {
    const deadline = Date.now() + this.poll.timeoutMs;
    for (;;) {
      const info = jsonOf<JobInfo>(await crmRequest(this.url(`/jobs/ingest/${jobId}`), this.http), 'Salesforce job status');
      if (info.state === 'JobComplete' || info.state === 'Failed' || info.state === 'Aborted') return info;
      if (Date.now() > deadline) throw new CrmError(`Salesforce job ${jobId} still ${info.state} after ${this.poll.timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, this.poll.intervalMs));
    }
  }

  private async results(jobId: string, which: 'successfulResults' | 'failedResults'): Promise<Array<Record<string, string>>> {
    const res = await crmRequest(this.url(`/jobs/ingest/${jobId}/${which}/`), this.http, { accept: 'text/csv' });
    if (res.status !== 200) jsonOf(res, `Salesforce ${which}`);
    return parse(res.text, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
  }
}
