// Kysely table types, kept in step with store/migrations/*.sql by hand.
import type { ColumnType, Generated } from 'kysely';
import type { CohortKind } from '../schemas/intelligence.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T = unknown> = ColumnType<T, string | T, string | T>;

export interface IndustriesTable {
  id: string;
  name: string;
  sector: string | null;
}

export interface CategoriesTable {
  id: string;
  name: string;
  parent_id: string | null;
  level: Generated<number>;
  description: string | null;
}

export interface VendorsTable {
  id: string;
  domain: string;
  name: string;
  website: string | null;
  logo_url: string | null;
  description: string | null;
}

export interface ProductsTable {
  id: string;
  vendor_id: string;
  category_id: string;
  name: string;
  short_name: string | null;
  description: Generated<string>;
  features: Generated<string[]>;
  aliases: Generated<string[]>;
  review_count: Generated<number>;
  star_rating: number | null;
  avg_rating: number | null;
  image_url: string | null;
  product_url: string | null;
  public_detail_url: string | null;
}

export interface CompaniesTable {
  id: string;
  domain: string;
  name: string | null;
  industry_id: string | null;
  employee_band: string | null;
  employee_count: number | null;
  revenue_band: string | null;
  revenue_usd: number | null;
  street: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  phone: string | null;
  founded_year: number | null;
  website: string | null;
  logo_url: string | null;
  linkedin_url: string | null;
  crunchbase_url: string | null;
  description: string | null;
  updated_at: DefaultTimestamp;
}

export interface FirmographicsTable {
  company_id: string;
  profile: Json<Record<string, unknown>>;
  updated_at: DefaultTimestamp;
}

export interface InstallsTable {
  company_id: string;
  product_id: string;
  first_verified: Timestamp;
  last_verified: Timestamp;
  hit_count: Generated<number>;
  intensity: Generated<number>;
  sources: Generated<string[]>;
}


export interface CohortsTable {
  company_id: string;
  kind: CohortKind;
  member_id: string;
  score: number | null;
  rank: number;
}

export interface RefreshRunsTable {
  id: Generated<number>;
  kind: string;
  started_at: DefaultTimestamp;
  computed_at: Timestamp | null;
  params: Json<Record<string, unknown>>;
}

export type FeedCategory = 'NEWS' | 'PRESS' | 'FUNDING' | 'ACQUISITION' | 'PEOPLE' | 'BLOG' | 'VIDEOS';

export interface FeedItemsTable {
  id: string;
  company_id: string;
  published_at: Timestamp;
  title: string;
  description: Generated<string>;
  source_url: string | null;
  publisher_name: string | null;
  publisher_logo_url: string | null;
  enclosure_image_url: string | null;
  category: Generated<FeedCategory>;
}

export interface PeopleTable {
  id: string;
  company_id: string | null;
  full_name: string;
  title: string | null;
  seniority: string | null;
  function: string | null;
  country: string | null;
  city: string | null;
  linkedin_url: string | null;
}

export interface ContactsTable {
  id: Generated<number>;
  person_id: string;
  kind: 'email' | 'phone';
  value: string;
  type: string | null;
  verified: Generated<boolean>;
}

export interface PlansTable {
  id: string;
  description: string | null;
  can_export: Generated<boolean>;
  can_ai: Generated<boolean>;
  can_purchase: Generated<boolean>;
  initial_credits: Generated<number>;
  requests_per_minute: number;
  ai_requests_per_minute: number;
  export_requests_per_minute: number;
}

export interface ApiClientsTable {
  id: string;
  name: string;
  plan_id: string;
  secret_hash: string;
  secret_rotated_at: DefaultTimestamp;
  credits: Generated<number>;
  disabled_at: Timestamp | null;
  created_at: DefaultTimestamp;
  /** Client id at the external identity provider (migration 003). */
  external_id: string | null;
}

export interface ApiKeysTable {
  id: string;
  client_id: string;
  prefix: string;
  key_hash: string;
  name: string | null;
  created_at: DefaultTimestamp;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
}

export interface SigningKeysTable {
  kid: string;
  alg: string;
  public_jwk: Json<Record<string, unknown>>;
  private_jwk: Json<Record<string, unknown>>;
  created_at: DefaultTimestamp;
  retired_at: Timestamp | null;
  published_until: Timestamp | null;
}

export interface PurchasesTable {
  client_id: string;
  person_id: string;
  on_behalf_of: string;
  purchased_at: DefaultTimestamp;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  client_id: string;
  delta: number;
  reason: string;
  reference: string | null;
  created_at: DefaultTimestamp;
}

export interface IdempotencyKeysTable {
  client_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  response: Json;
  created_at: DefaultTimestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: DefaultTimestamp;
  client_id: string | null;
  on_behalf_of: string | null;
  action: string;
  params: Json<Record<string, unknown>>;
  result_count: number | null;
}

export interface TruthSegmentsTable {
  company_id: string;
  segment_id: string;
  industry_id: string | null;
  size_tier: string | null;
  region: string | null;
  maturity: string | null;
}

export interface TruthInstallsTable {
  company_id: string;
  product_id: string;
  in_use: boolean;
  kind: string | null;
}

export interface ServiceSecretsTable {
  name: string;
  value: string;
  created_at: DefaultTimestamp;
}

export interface Database extends IntelligenceTables {
  industries: IndustriesTable;
  categories: CategoriesTable;
  vendors: VendorsTable;
  products: ProductsTable;
  companies: CompaniesTable;
  firmographics: FirmographicsTable;
  installs: InstallsTable;
  cohorts: CohortsTable;
  refresh_runs: RefreshRunsTable;
  feed_items: FeedItemsTable;
  people: PeopleTable;
  contacts: ContactsTable;
  plans: PlansTable;
  api_clients: ApiClientsTable;
  api_keys: ApiKeysTable;
  signing_keys: SigningKeysTable;
  purchases: PurchasesTable;
  credit_ledger: CreditLedgerTable;
  idempotency_keys: IdempotencyKeysTable;
  audit_log: AuditLogTable;
  truth_segments: TruthSegmentsTable;
  truth_installs: TruthInstallsTable;
  service_secrets: ServiceSecretsTable;
}

// Migration 007 (intelligence): co-usage statistics for related products.
export interface ProductUsageStatsTable {
  product_id: string;
  companies: number;
}

export interface ProductCousageTable {
  anchor_id: string;
  product_id: string;
  together: number;
}

export interface IntelligenceTables {
  product_usage_stats: ProductUsageStatsTable;
  product_cousage: ProductCousageTable;
}
