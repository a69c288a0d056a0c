// CRM-shaped import files: one row per company, the columns named as the CRM's import expects
// (HubSpot company properties, Salesforce Account fields, fields.ts), the external id column
// first (`stacklens_id` for HubSpot beside `domain`, its key; `Stacklens_Id__c` for Salesforce),
// streamed as CSV. The values are the ones a direct sync writes.
import type { Readable } from 'node:stream';
import { csvStream, type CsvColumn } from '../../csv.ts';
import type { CrmAccountRow, CrmKind } from '../../store/crm.ts';
import { CRM_FIELDS, crmRecord } from './fields.ts';

/** The export's columns: the external id first, then the record's fields in CRM_FIELDS order. */
function crmExportColumns(crm: CrmKind): string[] {
  const fields = CRM_FIELDS[crm];
  const externalId = crm === 'hubspot' ? 'stacklens_id' : 'Stacklens_Id__c';
  return [externalId, ...fields.filter((f) => f !== externalId)];
}

/** Streams the CSV import file of these companies for `crm`. */
export function crmExportCsv(crm: CrmKind, accounts: AsyncIterable<CrmAccountRow> | Iterable<CrmAccountRow>): Readable {
  async function* records() {
    for await (const a of accounts) yield crmRecord(crm, a);
  }
  const columns: CsvColumn<Record<string, string>>[] = crmExportColumns(crm).map((header) => ({ header, value: (r) => r[header] }));
  return csvStream(records(), columns);
}
