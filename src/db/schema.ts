// Every table's columns, declared once as data: the TypeScript row types below are derived
// from it, and test/db/schema-types.test.ts compares it with information_schema of a
// migrated database (both engines), so a migration that adds, drops or retypes a column
// fails the suite until this file says the same.
//
// A column is `'<udt> [null] [default]'`: its PostgreSQL type as information_schema's
// udt_name spells it (int4, _text for text[], bpchar for char(n)), `null` when nullable,
// `default` when the table fills it (serial ids, now(), constants).

export const TABLES = {
  schema_migrations: { version: 'int4', name: 'text', applied_at: 'timestamptz default' },
  industries: { id: 'text', name: 'text', sector: 'text null' },
  categories: { id: 'text', name: 'text', parent_id: 'text null', level: 'int2 default', description: 'text null' },
  vendors: { id: 'text', domain: 'text', name: 'text', website: 'text null', logo_url: 'text null', description: 'text null' },
  products: {
    id: 'text',
    vendor_id: 'text',
    category_id: 'text',
    name: 'text',
    short_name: 'text null',
    description: 'text default',
    features: '_text default',
    aliases: '_text default',
    review_count: 'int4 default',
    star_rating: 'float4 null',
    avg_rating: 'float4 null',
    image_url: 'text null',
    product_url: 'text null',
    public_detail_url: 'text null',
  },
  companies: {
    id: 'text',
    domain: 'text',
    name: 'text null',
    industry_id: 'text null',
    employee_band: 'text null',
    employee_count: 'int4 null',
    revenue_band: 'text null',
    revenue_usd: 'int8 null',
    street: 'text null',
    city: 'text null',
    state: 'text null',
    postal_code: 'text null',
    country: 'bpchar null',
    phone: 'text null',
    founded_year: 'int2 null',
    website: 'text null',
    logo_url: 'text null',
    linkedin_url: 'text null',
    crunchbase_url: 'text null',
    description: 'text null',
    updated_at: 'timestamptz default',
  },
  firmographics: { company_id: 'text', profile: 'jsonb', updated_at: 'timestamptz default' },
  installs: {
    company_id: 'text',
    product_id: 'text',
    first_verified: 'timestamptz',
    last_verified: 'timestamptz',
    hit_count: 'int4 default',
    intensity: 'int2 default',
    sources: '_text default',
    updated_at: 'timestamptz default',
  },
  cohorts: { company_id: 'text', kind: 'text', member_id: 'text', score: 'float4 null', rank: 'int4' },
  refresh_runs: { id: 'int8 default', kind: 'text', started_at: 'timestamptz default', computed_at: 'timestamptz null', params: 'jsonb default' },
  feed_items: {
    id: 'text',
    company_id: 'text',
    published_at: 'timestamptz',
    title: 'text',
    description: 'text default',
    source_url: 'text null',
    publisher_name: 'text null',
    publisher_logo_url: 'text null',
    enclosure_image_url: 'text null',
    category: 'text default',
  },
  people: {
    id: 'text',
    company_id: 'text null',
    full_name: 'text',
    title: 'text null',
    seniority: 'text null',
    function: 'text null',
    country: 'bpchar null',
    city: 'text null',
    linkedin_url: 'text null',
  },
  contacts: { id: 'int8 default', person_id: 'text', kind: 'text', value: 'text', type: 'text null', verified: 'bool default' },
  plans: {
    id: 'text',
    description: 'text null',
    can_export: 'bool default',
    can_ai: 'bool default',
    can_purchase: 'bool default',
    initial_credits: 'int4 default',
    requests_per_minute: 'int4',
    ai_requests_per_minute: 'int4',
    export_requests_per_minute: 'int4',
    max_monitors: 'int4 default',
    max_webhooks: 'int4 default',
    events_per_day: 'int4 default',
    enrich_rows_per_day: 'int4 default',
    max_list_rows: 'int4 default',
  },
  api_clients: {
    id: 'text',
    name: 'text',
    plan_id: 'text',
    secret_hash: 'text',
    secret_rotated_at: 'timestamptz default',
    credits: 'int4 default',
    disabled_at: 'timestamptz null',
    created_at: 'timestamptz default',
    external_id: 'text null',
    role: 'text null',
  },
  api_keys: {
    id: 'text',
    client_id: 'text',
    prefix: 'text',
    key_hash: 'text',
    name: 'text null',
    created_at: 'timestamptz default',
    revoked_at: 'timestamptz null',
    last_used_at: 'timestamptz null',
  },
  access_version: { id: 'bool default', version: 'int8' },
  reference_version: { id: 'bool default', version: 'int8' },
  signing_keys: {
    kid: 'text',
    alg: 'text',
    public_jwk: 'jsonb',
    private_jwk: 'jsonb',
    created_at: 'timestamptz default',
    retired_at: 'timestamptz null',
    published_until: 'timestamptz null',
  },
  purchases: { client_id: 'text', person_id: 'text', on_behalf_of: 'text', purchased_at: 'timestamptz default' },
  credit_ledger: { id: 'int8 default', client_id: 'text', delta: 'int4', reason: 'text', reference: 'text null', created_at: 'timestamptz default' },
  idempotency_keys: { client_id: 'text', key: 'text', request_hash: 'text', status_code: 'int4', response: 'json', created_at: 'timestamptz default' },
  audit_log: {
    id: 'int8 default',
    at: 'timestamptz default',
    client_id: 'text null',
    on_behalf_of: 'text null',
    action: 'text',
    params: 'jsonb default',
    result_count: 'int4 null',
    outcome: 'text default',
  },
  usage_daily: { client_id: 'text', day: 'date', operation: 'text', requests: 'int8 default', errors: 'int8 default' },
  event_volume_daily: { client_id: 'text', day: 'date', events: 'int8 default' },
  enrich_volume_daily: { client_id: 'text', day: 'date', rows: 'int8 default' },
  enrichment_snapshots: {
    id: 'int8 default',
    client_id: 'text',
    set_key: 'text',
    content_hash: 'text',
    rows: 'int4',
    found: 'int4',
    created_at: 'timestamptz default',
  },
  world_changes: { id: 'int8 default', weight: 'int8 default' },
  jobs: {
    id: 'int8 default',
    kind: 'text',
    status: 'text',
    params: 'jsonb default',
    phase: 'text null',
    done: 'int4 default',
    total: 'int4 default',
    result: 'jsonb null',
    error: 'text null',
    started_by: 'text null',
    started_at: 'timestamptz default',
    heartbeat_at: 'timestamptz default',
    finished_at: 'timestamptz null',
  },
  truth_segments: { company_id: 'text', segment_id: 'text', industry_id: 'text null', size_tier: 'text null', region: 'text null', maturity: 'text null' },
  truth_installs: { company_id: 'text', product_id: 'text', in_use: 'bool', kind: 'text null' },
  truth_history: {
    company_id: 'text',
    product_id: 'text',
    period: 'int2',
    in_use_from: 'timestamptz null',
    in_use_until: 'timestamptz null',
    detectable: 'bool',
    visible: 'bool',
  },
  service_secrets: { name: 'text', value: 'text', created_at: 'timestamptz default' },
  service_settings: { name: 'text', value: 'jsonb', updated_at: 'timestamptz default' },
  product_usage_stats: { product_id: 'text', companies: 'int4' },
  product_cousage: { anchor_id: 'text', product_id: 'text', together: 'int4' },
  company_stacks: { company_id: 'text', product_ids: '_text' },
  mcp_sessions: { id_hash: 'text', client_id: 'text', protocol_version: 'text', created_at: 'timestamptz', last_seen_at: 'timestamptz' },
  mcp_exports: {
    id_hash: 'text',
    client_id: 'text',
    on_behalf_of: 'text null',
    action: 'text',
    params: 'jsonb',
    created_at: 'timestamptz',
    expires_at: 'timestamptz',
  },
  refresh_pending: { seq: 'int8 default', company_id: 'text', marked_at: 'timestamptz default' },
  observations: {
    company_id: 'text',
    product_id: 'text',
    seen_day: 'date',
    evidence_hash: 'text',
    source: 'text',
    rule_id: 'text',
    seen_at: 'timestamptz',
    evidence: 'jsonb',
    weight: 'float4',
    run_id: 'text null',
    recorded_at: 'timestamptz default',
  },
  site_visits: {
    company_id: 'text',
    visited_at: 'timestamptz',
    run_key: 'text default',
    outcome: 'text',
    kinds: '_text',
    reason: 'text null',
    seen: 'jsonb',
    recorded_at: 'timestamptz default',
  },
  events: {
    id: 'text',
    seq: 'int8 null',
    type: 'text',
    company_id: 'text',
    client_id: 'text null',
    subject: 'jsonb',
    occurred_at: 'timestamptz',
    earliest: 'timestamptz',
    latest: 'timestamptz',
    detected_at: 'timestamptz',
    confidence: 'float4',
    evidence: '_text default',
    recorded_at: 'timestamptz default',
  },
  monitors: {
    id: 'text',
    client_id: 'text',
    name: 'text',
    search: 'jsonb null',
    company_ids: '_text null',
    event_types: '_text',
    created_at: 'timestamptz default',
    updated_at: 'timestamptz default',
  },
  monitor_members: { monitor_id: 'text', company_id: 'text', entered_at: 'timestamptz default' },
  monitor_pending: { company_id: 'text' },
  account_lists: {
    id: 'text',
    client_id: 'text',
    name: 'text',
    current_version: 'int4 default',
    created_at: 'timestamptz default',
    updated_at: 'timestamptz default',
  },
  account_list_versions: { list_id: 'text', version: 'int4', format: 'text', row_count: 'int4', created_at: 'timestamptz default' },
  account_list_rows: {
    list_id: 'text',
    version: 'int4',
    line: 'int4',
    row_key: 'text',
    domain: 'text null',
    name: 'text null',
    country: 'bpchar null',
    data: 'jsonb',
    status: 'text',
    company_id: 'text null',
    method: 'text null',
    score: 'float4 null',
    reason: 'text null',
    candidates: 'jsonb default',
  },
  webhook_endpoints: {
    id: 'text',
    client_id: 'text',
    url: 'text',
    description: 'text null',
    monitor_id: 'text null',
    event_types: '_text',
    secrets: 'jsonb',
    enabled: 'bool default',
    disabled_reason: 'text null',
    failing_since: 'timestamptz null',
    consecutive_failures: 'int4 default',
    created_at: 'timestamptz default',
    updated_at: 'timestamptz default',
  },
  webhook_deliveries: {
    endpoint_id: 'text',
    event_id: 'text',
    status: 'text',
    attempts: 'int4 default',
    last_attempt_at: 'timestamptz null',
    last_status: 'int4 null',
    last_error: 'text null',
    delivered_at: 'timestamptz null',
    created_at: 'timestamptz default',
    counted: 'bool default',
  },
  crm_connections: {
    client_id: 'text',
    crm: 'text',
    base_url: 'text',
    token_sealed: 'text',
    external_id_field: 'text null',
    created_at: 'timestamptz default',
    updated_at: 'timestamptz default',
    token_hint: 'text',
    overwrite: 'bool default',
  },
  crm_field_state: { client_id: 'text', crm: 'text', company_id: 'text', field: 'text', value: 'text', written_at: 'timestamptz default' },
  crm_sync_runs: {
    id: 'text',
    client_id: 'text',
    crm: 'text',
    dry_run: 'bool',
    overwrite: 'bool',
    status: 'text',
    created: 'int4 default',
    updated: 'int4 default',
    unchanged: 'int4 default',
    skipped: 'int4 default',
    failed: 'int4 default',
    records: 'jsonb default',
    error: 'text null',
    started_at: 'timestamptz default',
    finished_at: 'timestamptz null',
    list_id: 'text null',
  },
  console_users: {
    id: 'text',
    email: 'text',
    name: 'text',
    role: 'text',
    password_hash: 'text',
    created_at: 'timestamptz default',
    disabled_at: 'timestamptz null',
  },
  console_sessions: { id_hash: 'text', user_id: 'text', created_at: 'timestamptz default', last_seen_at: 'timestamptz default', expires_at: 'timestamptz' },
} as const satisfies Record<string, Record<string, ColumnSpec>>;

/** The udt names this schema uses, with the JavaScript value node-postgres reads for each (int8 and numeric as numbers: db.ts). */
interface UdtValues {
  text: string;
  bpchar: string;
  int2: number;
  int4: number;
  int8: number;
  float4: number;
  bool: boolean;
  timestamptz: Date;
  /** Queries read dates as ::text (YYYY-MM-DD): node-postgres would make a local-midnight Date of one. */
  date: string;
  json: unknown;
  jsonb: unknown;
  _text: string[];
}
type Udt = keyof UdtValues;
export type ColumnSpec = `${Udt}${'' | ' null'}${'' | ' default'}`;

export type TableName = keyof typeof TABLES;
type Columns<T extends TableName> = (typeof TABLES)[T];
type UdtOf<S> = S extends `${infer U} ${string}` ? U : S;
type ValueOf<S> = UdtOf<S> extends Udt ? UdtValues[UdtOf<S>] : never;
type NullOf<S> = S extends `${string} null${string}` ? null : never;

/** A row of the table as read by `SELECT *`. */
export type Row<T extends TableName> = { -readonly [C in keyof Columns<T>]: ValueOf<Columns<T>[C]> | NullOf<Columns<T>[C]> };

/** Columns the table fills itself or that may be null: optional on insert. */
type OptionalOnInsert<T extends TableName> = {
  [C in keyof Columns<T>]: Columns<T>[C] extends `${string} null${string}` | `${string} default` ? C : never;
}[keyof Columns<T>];

/** A row to insert: timestamps may be ISO strings, defaulted and nullable columns may be left out. */
export type NewRow<T extends TableName> = {
  [C in Exclude<keyof Columns<T>, OptionalOnInsert<T>>]: InsertValue<Row<T>[C]>;
} & {
  [C in OptionalOnInsert<T>]?: InsertValue<Row<T>[C]>;
};
type InsertValue<V> = V extends Date ? Date | string : V;

/** Parses a column spec into what information_schema reports. */
export function parseColumnSpec(spec: ColumnSpec): { udt: string; nullable: boolean; hasDefault: boolean } {
  const [udt, ...flags] = spec.split(' ');
  return { udt: udt!, nullable: flags.includes('null'), hasDefault: flags.includes('default') };
}
