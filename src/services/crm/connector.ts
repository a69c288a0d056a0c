// The interface every CRM connector implements, so another CRM follows by adding one module:
// read the current values of a set of records by their key, and upsert records by that key,
// answering per record. The sync (sync.ts) decides what to write; a connector only speaks
// its CRM's API. Requests go out through the fetcher's SSRF-safe client (http.ts).
import type { CrmKind } from '../../store/crm.ts';

/** How one record's write went. */
export type WriteOutcome = { ok: true; created: boolean } | { ok: false; error: string };

export interface CrmConnector {
  readonly kind: CrmKind;
  /** The field that identifies a record (HubSpot: `domain`; Salesforce: the external id field). */
  readonly keyField: string;
  /** The CRM's current values of `fields` for the records with these keys; a key absent from the answer has no record. */
  read(keys: readonly string[], fields: readonly string[]): Promise<Map<string, Record<string, string>>>;
  /** Upserts by key: each record holds its key and only the fields to set ('' clears one). Answers per key. */
  write(records: ReadonlyArray<Record<string, string>>): Promise<Map<string, WriteOutcome>>;
}

/** A failure of the CRM itself (unreachable, refused, malformed answer): the whole batch fails with it. */
export class CrmError extends Error {
  override name = 'CrmError';
}
