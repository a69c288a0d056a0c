// Where every table lives on a Citus cluster (docs/scale-out.md, "Where every table goes"),
// declared once as data, and the step that puts them there. `migrate` runs the step after the
// migrations when the database has the `citus` extension; on PostgreSQL without it and on
// PGlite nothing here runs. The step is idempotent: a table Citus already knows is left alone,
// so a restart, or a migration that adds a table, places only what is new.
import type { Db, Tx } from './db.ts';
import type { TableName } from './schema.ts';

type Placement =
  /**
   * Sharded by the column, co-located with the others of its group: a company's rows together.
   * `none`: a group of its own (a lookup sharded by another key than any other table's).
   */
  | { kind: 'distributed'; column: string; colocateWith?: TableName | 'none' }
  /** One copy on every node: small, joined everywhere, written through the coordinator. */
  | { kind: 'reference' }
  /** On the coordinator only: credentials, metering, queues, never joined with shards. */
  | { kind: 'local' };

const byCompany = (column = 'company_id'): Placement => ({ kind: 'distributed', column, colocateWith: 'companies' });
const reference: Placement = { kind: 'reference' };
const local: Placement = { kind: 'local' };

/**
 * Every table's placement. Typed by the schema's table list, so a new table does not compile
 * until it is placed here; test/db/schema-scale-out.test.ts holds this list and the document's
 * table to each other and to the live schema.
 */
export const PLACEMENTS: Record<TableName, Placement> = {
  companies: { kind: 'distributed', column: 'id' },
  company_domains: { kind: 'distributed', column: 'domain', colocateWith: 'none' },
  firmographics: byCompany(),
  installs: byCompany(),
  observations: byCompany(),
  site_visits: byCompany(),
  company_stacks: byCompany(),
  cohorts: byCompany(),
  feed_items: byCompany(),
  people: { kind: 'distributed', column: 'id' },
  contacts: { kind: 'distributed', column: 'person_id', colocateWith: 'people' },
  truth_segments: byCompany(),
  truth_installs: byCompany(),
  truth_history: byCompany(),
  purchases: { kind: 'distributed', column: 'person_id', colocateWith: 'people' },
  industries: reference,
  categories: reference,
  vendors: reference,
  products: reference,
  plans: local,
  product_usage_stats: reference,
  product_cousage: reference,
  reference_version: reference,
  api_clients: local,
  api_keys: local,
  signing_keys: local,
  access_version: local,
  service_secrets: local,
  service_settings: local,
  credit_ledger: local,
  idempotency_keys: local,
  audit_log: local,
  usage_daily: local,
  jobs: local,
  mcp_sessions: local,
  mcp_subscriptions: local,
  mcp_stream_events: local,
  mcp_exports: local,
  console_users: local,
  console_sessions: local,
  refresh_runs: local,
  refresh_partitions: local,
  refresh_pending: local,
  events: local,
  monitors: local,
  monitor_members: local,
  webhook_endpoints: local,
  webhook_deliveries: local,
  monitor_pending: local,
  crm_connections: local,
  crm_field_state: local,
  crm_sync_runs: local,
  feedback_reports: local,
  daily_allowance: local,
  enrichment_snapshots: local,
  world_changes: local,
  account_lists: local,
  account_list_versions: local,
  account_list_rows: local,
  account_list_uploads: local,
  account_list_staging_rows: local,
  oauth_clients: local,
  oauth_codes: local,
  oauth_grants: local,
  oauth_refresh_tokens: local,
  schema_migrations: local,
};

/** Whether the database is a Citus coordinator (the extension created in it). */
async function isCitus(db: Db | Tx): Promise<boolean> {
  const rows = await db.query("SELECT 1 FROM pg_extension WHERE extname = 'citus'");
  return rows.length > 0;
}

/** A foreign key as the catalog says it: the tables at both ends, its name and its definition. */
interface ForeignKey {
  table: string;
  name: string;
  target: string;
  definition: string;
}

/**
 * Whether Citus keeps a foreign key between two placed tables: between co-located
 * distributed tables only on their distribution columns, from a distributed table to a
 * reference table, and among local and reference tables; never into a distributed table
 * from anything else, nor between distributed tables of different groups.
 */
function keptOnCitus(fk: ForeignKey, columns: { from: string[]; to: string[] }): boolean {
  const from = PLACEMENTS[fk.table as TableName];
  const to = PLACEMENTS[fk.target as TableName];
  if (!from || !to) return false;
  if (to.kind === 'distributed') {
    if (from.kind !== 'distributed') return false;
    return columns.from.includes(from.column) && columns.to.includes(to.column) && groupOf(fk.table as TableName) === groupOf(fk.target as TableName);
  }
  if (to.kind === 'local') return from.kind === 'local';
  return true;
}

/** The table a distributed table is co-located with (itself for the head of a group). */
function groupOf(table: TableName): TableName | undefined {
  const p = PLACEMENTS[table];
  if (p.kind !== 'distributed') return undefined;
  return p.colocateWith === undefined || p.colocateWith === 'none' ? table : p.colocateWith;
}

/**
 * Puts every table where PLACEMENTS says, on a Citus coordinator; a no-op elsewhere and for
 * tables already placed. One transaction per table kind would not help: Citus commits each
 * create_*_table itself. Foreign keys between tables it is about to place are dropped first
 * (Citus refuses to distribute a table another local table references) and added back where
 * Citus keeps them.
 */
export async function distributeTables(db: Db): Promise<string[]> {
  if (!(await isCitus(db))) return [];
  await keepLocalTablesLocal(db);
  const placed = new Set(
    (
      await db.query<{ name: string }>(
        'SELECT c.relname AS name FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid WHERE c.relnamespace = current_schema()::regnamespace',
      )
    ).map((r) => r.name),
  );
  const pending = (Object.keys(PLACEMENTS) as TableName[]).filter((t) => PLACEMENTS[t].kind !== 'local' && !placed.has(t));
  if (pending.length === 0) return [];
  const fks = await db.query<ForeignKey & { from_columns: string[]; to_columns: string[] }>(
    `SELECT c.relname AS table, k.conname AS name, f.relname AS target, pg_get_constraintdef(k.oid) AS definition,
            array(SELECT attname::text FROM pg_attribute WHERE attrelid = k.conrelid AND attnum = ANY (k.conkey)) AS from_columns,
            array(SELECT attname::text FROM pg_attribute WHERE attrelid = k.confrelid AND attnum = ANY (k.confkey)) AS to_columns
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class f ON f.oid = k.confrelid
      WHERE k.contype = 'f' AND c.relnamespace = current_schema()::regnamespace`,
  );
  const pendingSet = new Set<string>(pending);
  const touched = fks.filter((fk) => pendingSet.has(fk.table) || pendingSet.has(fk.target));
  for (const fk of touched) await db.query(`ALTER TABLE ${ident(fk.table)} DROP CONSTRAINT ${ident(fk.name)}`);
  for (const step of CITUS_SCHEMA_CHANGES) if (pendingSet.has(step.table)) await db.query(step.sql);
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL citus.enable_unsafe_triggers = on');
    for (const t of pending.filter((t) => PLACEMENTS[t].kind === 'reference')) await tx.query('SELECT create_reference_table($1)', [t]);
  });
  // Heads of co-location groups first, then the tables co-located with them.
  const distributed = pending.filter((t) => PLACEMENTS[t].kind === 'distributed').sort((a, b) => Number(groupOf(a) !== a) - Number(groupOf(b) !== b));
  for (const t of distributed) {
    const p = PLACEMENTS[t] as Extract<Placement, { kind: 'distributed' }>;
    await db.transaction(async (tx) => {
      await tx.query('SET LOCAL citus.enable_unsafe_triggers = on');
      await tx.query('SELECT create_distributed_table($1, $2, colocate_with => $3)', [t, p.column, p.colocateWith ?? 'default']);
    });
  }
  for (const fk of touched) {
    if (keptOnCitus(fk, { from: fk.from_columns, to: fk.to_columns }))
      await db.query(`ALTER TABLE ${ident(fk.table)} ADD CONSTRAINT ${ident(fk.name)} ${fk.definition}`);
  }
  return pending;
}

/**
 * Local tables stay plain PostgreSQL tables on the coordinator, out of Citus's metadata. As
 * "Citus local tables" (citus_add_local_table_to_metadata) every statement on them went
 * through Citus's router planner, which refuses what PostgreSQL runs (now() inside COALESCE
 * or CASE in an UPDATE of api_keys or api_clients, INSERT … SELECT … WHERE NOT EXISTS on the
 * same table), and counted them among a transaction's shard connections ("parallel operation
 * on a distributed table" for a write of events after a multi-shard read); their joins with
 * shards are planned the same either way (citus.local_table_join_policy). A cluster where an
 * earlier version of the Citus step added them gets them back as they were.
 */
async function keepLocalTablesLocal(db: Db): Promise<void> {
  const added = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND p.partmethod = 'n' AND p.repmodel = 's'`,
  );
  for (const { name } of added) {
    if (PLACEMENTS[name as TableName]?.kind !== 'local') continue;
    // Undoing one undoes the local tables its foreign keys reach: re-read each time.
    const [still] = await db.query('SELECT 1 FROM pg_dist_partition WHERE logicalrelid = $1::regclass', [name]);
    if (still) await db.query('SELECT undistribute_table($1, cascade_via_foreign_keys => true)', [name]);
  }
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * What the move to Citus changes in the schema beyond placing tables (docs/scale-out.md,
 * "Exceptions to the rule"): keys that must contain the distribution column.
 */
const CITUS_SCHEMA_CHANGES: { table: TableName; sql: string }[] = [
  { table: 'companies', sql: 'ALTER TABLE companies DROP CONSTRAINT companies_domain_key' },
  // The unique (company_id, id) of migration 055 becomes the key.
  {
    table: 'feed_items',
    sql: 'ALTER TABLE feed_items DROP CONSTRAINT feed_items_pkey, ADD CONSTRAINT feed_items_pkey PRIMARY KEY USING INDEX feed_items_company_item_key',
  },
  { table: 'contacts', sql: 'ALTER TABLE contacts DROP CONSTRAINT contacts_pkey, ADD PRIMARY KEY (person_id, id)' },
];
