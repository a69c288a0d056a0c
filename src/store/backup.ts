// SQL for logical backups and restores (backup/run.ts): the tables of the working schema in
// an order their foreign keys allow, each read as one JSON text per row in primary-key order
// (row_to_json: the same text on PGlite and PostgreSQL, so a row's bytes are its checksum
// input on either side), rows written back with json_populate_recordset, and sequences.
import type { Queryable } from '../db/db.ts';

export interface TableInfo {
  name: string;
  /** Columns a restore writes (generated columns are computed again). */
  columns: string[];
  /** ORDER BY of the dump: the primary key (every column when there is none), bytewise for text. */
  order: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Every table of the working schema, parents before the tables that reference them. */
export async function listTables(q: Queryable): Promise<TableInfo[]> {
  const columns = await q.query<{ table: string; column: string; type: string; generated: string; pk: number | null; num: number }>(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type, a.attgenerated::text AS generated,
            array_position(i.indkey::int2[], a.attnum) AS pk, a.attnum AS num
       FROM pg_class c
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
      ORDER BY c.relname, a.attnum`,
  );
  const byTable = new Map<string, typeof columns>();
  for (const c of columns) byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);
  const refs = await q.query<{ child: string; parent: string }>(
    `SELECT DISTINCT c.relname AS child, p.relname AS parent
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
      WHERE k.contype = 'f' AND c.relnamespace = current_schema()::regnamespace AND k.conrelid <> k.confrelid`,
  );
  const tables = [...byTable.keys()].sort();
  const order: string[] = [];
  const placed = new Set<string>();
  // Kahn's order, alphabetical among the ready ones so the order is stable.
  while (order.length < tables.length) {
    const ready = tables.find((t) => !placed.has(t) && refs.every((r) => r.child !== t || placed.has(r.parent) || !byTable.has(r.parent)));
    const next = ready ?? tables.find((t) => !placed.has(t))!; // a cycle: the restore's checks will say so
    placed.add(next);
    order.push(next);
  }
  return order.map((name) => {
    const cols = byTable.get(name)!;
    const keyed = cols.filter((c) => c.pk !== null).sort((a, b) => a.pk! - b.pk!);
    const sortBy = (keyed.length > 0 ? keyed : cols).map((c) =>
      /^(text|character varying|citext)/.test(c.type) ? `${quote(c.column)} COLLATE "C"` : quote(c.column),
    );
    return { name, columns: cols.filter((c) => c.generated === '').map((c) => c.column), order: sortBy.join(', ') };
  });
}

/** The statement reading a table's rows as JSON text, in the dump's order. */
function rowsQuery(table: TableInfo): string {
  return `SELECT row_to_json(t)::text FROM ${quote(table.name)} t ORDER BY ${table.order}`;
}

/** Settings under which row_to_json writes the same text everywhere (timestamps in UTC). */
export async function setDumpSettings(tx: Queryable): Promise<void> {
  await tx.query(`SET LOCAL TimeZone = 'UTC'`);
  await tx.query('SET LOCAL extra_float_digits = 1');
}

/** Calls `onRows` with pages of a table's rows (JSON text) through a cursor; in a transaction. */
export async function forEachRowPage(tx: Queryable, table: TableInfo, onRows: (rows: string[]) => Promise<void> | void, pageSize = 2000): Promise<void> {
  await tx.query(`DECLARE backup_rows NO SCROLL CURSOR FOR ${rowsQuery(table)}`);
  for (;;) {
    const page = await tx.queryArrays<[string]>(`FETCH ${pageSize} FROM backup_rows`);
    if (page.length > 0) await onRows(page.map((r) => r[0]));
    if (page.length < pageSize) break;
  }
  await tx.query('CLOSE backup_rows');
}

/** Inserts rows given as the dump's JSON texts. */
export async function insertRows(tx: Queryable, table: TableInfo, rows: string[]): Promise<void> {
  if (rows.length === 0) return;
  const cols = table.columns.map(quote).join(', ');
  await tx.query(
    `INSERT INTO ${quote(table.name)} (${cols}) OVERRIDING SYSTEM VALUE
     SELECT ${cols} FROM json_populate_recordset(NULL::${quote(table.name)}, $1::json)`,
    [`[${rows.join(',')}]`],
  );
}

export interface SequenceValue {
  value: number;
  isCalled: boolean;
}

export async function readSequences(q: Queryable): Promise<Record<string, SequenceValue>> {
  const names = await q.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relkind = 'S' AND relnamespace = current_schema()::regnamespace ORDER BY relname`,
  );
  const out: Record<string, SequenceValue> = {};
  for (const { name } of names) {
    const [row] = await q.query<{ last_value: number; is_called: boolean }>(`SELECT last_value, is_called FROM ${quote(name)}`);
    out[name] = { value: Number(row!.last_value), isCalled: row!.is_called };
  }
  return out;
}

export async function writeSequences(tx: Queryable, sequences: Record<string, SequenceValue>): Promise<void> {
  for (const [name, s] of Object.entries(sequences)) {
    await tx.query('SELECT setval($1::regclass, $2::bigint, $3::boolean)', [quote(name), s.value, s.isCalled]);
  }
}

/** Tables holding rows, with their counts (the migrations' own bookkeeping left out). */
export async function tablesWithRows(q: Queryable, tables: TableInfo[], ignore: readonly string[]): Promise<{ table: string; rows: number }[]> {
  const out: { table: string; rows: number }[] = [];
  for (const t of tables) {
    if (ignore.includes(t.name)) continue;
    const [row] = await q.query<{ n: number }>(`SELECT count(*)::bigint AS n FROM ${quote(t.name)}`);
    if (row!.n > 0) out.push({ table: t.name, rows: row!.n });
  }
  return out;
}

/**
 * Turns the tables' own triggers off or on again (foreign-key checks stay on): a restore
 * writes the version counters (access_version, reference_version) as the backup had them,
 * which the triggers would bump while the other tables load. Inside the restore transaction.
 */
export async function setUserTriggers(tx: Queryable, tables: TableInfo[], enabled: boolean): Promise<void> {
  for (const t of tables) await tx.query(`ALTER TABLE ${quote(t.name)} ${enabled ? 'ENABLE' : 'DISABLE'} TRIGGER USER`);
}

/** Empties the tables (one statement, so their foreign keys among them allow it). */
export async function truncateTables(tx: Queryable, tables: TableInfo[]): Promise<void> {
  if (tables.length > 0) await tx.query(`TRUNCATE ${tables.map((t) => quote(t.name)).join(', ')} RESTART IDENTITY`);
}

/** The migration versions the database has applied (none when it was never migrated). */
export async function appliedVersions(q: Queryable): Promise<number[]> {
  const [exists] = await q.query<{ ok: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS ok`);
  if (!exists!.ok) return [];
  return (await q.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);
}
