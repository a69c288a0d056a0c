// Helpers for the importer tests: temp files, CSV → JSONL conversion of the examples,
// and a fingerprint of a table's rows including each row's version (xmin), so a test can
// prove that an import rewrote nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Db } from '../../src/db/db.ts';

export const EXAMPLES = path.resolve(import.meta.dirname, '../../examples');

/** The example files in an order where every reference exists when it is needed. */
export const EXAMPLE_ORDER = [
  'industries.csv',
  'categories.csv',
  'vendors.csv',
  'products.csv',
  'companies.csv',
  'firmographics.jsonl',
  'firmographics.csv',
  'installs.csv',
  'installs.jsonl',
  'people.csv',
  'contacts.csv',
  'feed.csv',
  'feed.jsonl',
  'cohorts.csv',
] as const;

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sl-import-'));
}

export function writeFile(dir: string, name: string, lines: string[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** The same records as JSON lines (empty cells left out). */
export function csvToJsonl(csvFile: string): string[] {
  const records = parse(fs.readFileSync(csvFile), { columns: true, bom: true }) as Record<string, string>[];
  return records.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([, v]) => v !== ''))));
}

/** Every row of `table` as text, with its physical version. */
export async function fingerprint(db: Db, table: string): Promise<string[]> {
  const rows = await db.query<{ v: string }>(`SELECT t.xmin::text || ' ' || row_to_json(t)::text AS v FROM ${table} t ORDER BY 1`);
  return rows.map((r) => r.v).sort();
}
