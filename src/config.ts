// Environment → typed configuration, parsed once at start. Nothing else reads process.env.
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { BulkheadLimits, BulkheadName } from './bulkhead.ts';

/** The rule a variable breaks, for the start-up message (`PORT must be an integer 1-65535, got "abc"`). */
const rules = new WeakMap<z.ZodType, string>();
function withRule<T extends z.ZodType>(schema: T, rule: string): T {
  rules.set(schema, rule);
  return schema;
}
const bool = withRule(
  z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes'),
  'true or false (or 1/0, yes/no)',
);
const int = (min: number, max: number) => withRule(z.coerce.number().int().min(min).max(max), `an integer ${min}-${max}`);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** Half this machine's cores, at least one: the default of the database-heavy bulkheads. */
const HALF_THE_CORES = Math.max(1, Math.floor(availableParallelism() / 2));

/** Every variable the service reads, with its default. docs/operations.md documents each. */
const envSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: int(1, 65535).default(8080),
  /** Public origin the service is reached at (behind a proxy, the proxy's). Default http://HOST:PORT. */
  PUBLIC_URL: optionalText,
  /** Resolved against the working directory once, here: a relative path must never reach the driver, which reads a socket folder not starting with '/' as a host name. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** PostgreSQL connection string; unset → embedded PGlite database in DATA_DIR/pglite. */
  DATABASE_URL: optionalText,
  /** A streaming replica of DATABASE_URL for read-only queries that may lag (db/db.ts `db.read`); unset → all on DATABASE_URL. */
  DATABASE_READ_URL: optionalText,
  DATABASE_POOL_SIZE: int(1, 200).default(10),
  /** Named prepared statements (off behind a pooler in transaction mode, e.g. PgBouncer < 1.21). */
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  /** Longest wait to open a database connection, and for a free pooled one (PGlite: its one connection). */
  DATABASE_CONNECT_TIMEOUT_MS: int(100, 60_000).default(2000),
  DATABASE_ACQUIRE_TIMEOUT_MS: int(100, 60_000).default(2000),
  /** Time limit of all database work of one request, per request class; exports: per statement. */
  DATABASE_READ_TIMEOUT_MS: int(100, 600_000).default(2000),
  DATABASE_SEARCH_TIMEOUT_MS: int(100, 600_000).default(5000),
  DATABASE_EXPORT_IDLE_TIMEOUT_MS: int(100, 600_000).default(15_000),
  /** On SIGTERM/SIGINT: how long exports in flight may go on before they are cut. */
  SHUTDOWN_EXPORT_GRACE_SECONDS: int(0, 3600).default(30),
  REDIS_URL: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seed the demo world on first start when the database holds no company. Default: true on the embedded database, false with DATABASE_URL. */
  SEED_DEMO: bool.optional(),
  DEMO_COMPANIES: int(10, 2_000_000).default(5000),
  DEMO_SEED: z.string().default('stacklens'),
  BODY_LIMIT_BYTES: int(1024, 100 * 1024 * 1024).default(1024 * 1024),
  REQUEST_TIMEOUT_MS: int(1000, 3_600_000).default(120_000),
  HEADERS_TIMEOUT_MS: int(1000, 600_000).default(30_000),
  /** Check every JSON reply against its contract schema (zod) and its exact shape before writing it; costs CPU, for tests and debugging. */
  CHECK_REPLIES: bool.default(false),
  /** OAuth issuer (iss claim) and token audience; default the public origin. */
  ISSUER_URL: optionalText,
  API_AUDIENCE: optionalText,
  TOKEN_TTL_SECONDS: int(60, 86_400).default(3600),
  /** Failed client authentications per (client_id, client address) at the token endpoint before 429, and the window. */
  TOKEN_MAX_FAILED_ATTEMPTS: int(1, 10_000).default(10),
  TOKEN_FAILURE_WINDOW_SECONDS: int(1, 86_400).default(300),
  /** Failed authentications (bad API key, token, client secret, ended session) per client address before they are answered 429, and the window. */
  AUTH_MAX_FAILURES_PER_ADDRESS: int(1, 1_000_000).default(100),
  AUTH_FAILURE_WINDOW_SECONDS: int(1, 86_400).default(60),
  /** Sign-in for people (OAuth authorization code): dynamic client registration (RFC 7591) on or off, its limits, refresh-token lifetime. */
  OAUTH_DYNAMIC_REGISTRATION: bool.default(true),
  OAUTH_MAX_CLIENTS: int(1, 1_000_000).default(1000),
  OAUTH_REGISTRATIONS_PER_HOUR: int(1, 100_000).default(20),
  OAUTH_REFRESH_TTL_SECONDS: int(300, 365 * 86_400).default(30 * 86_400),
  /** External identity provider mode: all three set → its tokens are accepted instead. */
  AUTH_ISSUER: optionalText,
  AUTH_JWKS_URL: optionalText,
  AUTH_AUDIENCE: optionalText,
  /** Secret for signing feed cursors; unset → a random secret generated once and stored in the database. */
  CURSOR_SECRET: optionalText,
  MAX_MONITORS_PER_CLIENT: int(0, 100_000).default(100),
  /** An account-list upload of more rows than this runs as a background job (202). */
  LIST_ASYNC_ROWS: int(1, 100_000_000).default(20_000),
  /** Rows of a list upload job matched and committed per batch. */
  LIST_BATCH_ROWS: int(1, 1_000_000).default(5_000),
  /** Market sizing may count from an index read up to this long ago while a newer one is read (0: only the current world). */
  FACETS_MAX_STALENESS_SECONDS: int(0, 86_400).default(60),
  MAX_WEBHOOKS_PER_CLIENT: int(0, 10_000).default(20),
  WEBHOOK_ALLOW_NETWORKS: optionalText,
  WEBHOOK_TIMEOUT_MS: int(100, 60_000).default(10_000),
  /** Key that encrypts stored CRM API tokens (AES-256-GCM); unset → a random key generated once and kept in the database. */
  CRM_TOKEN_KEY: optionalText,
  /** CRM base URLs may be private, loopback or link-local addresses (a self-hosted CRM or a test stub). */
  CRM_ALLOW_PRIVATE_NETWORK: bool.default(false),
  /** Comma-separated CIDR blocks a CRM base URL may resolve to although not public. */
  CRM_ALLOW_NETWORKS: optionalText,
  CRM_TIMEOUT_MS: int(100, 600_000).default(30_000),
  WEBHOOK_RETRY_LIMIT: int(0, 30).default(13),
  WEBHOOK_RETRY_DELAY_SECONDS: int(1, 3600).default(15),
  WEBHOOK_DISABLE_AFTER_HOURS: int(1, 24 * 365).default(72),
  JOBS_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
    .default('stacklens_jobs'),
  /** Comma-separated Origins allowed to call /mcp from a browser, besides the loopback names with PORT and PUBLIC_URL's. */
  MCP_ALLOWED_ORIGINS: optionalText,
  /** Comma-separated Host values (name or name:port) /mcp answers besides the loopback names with PORT and PUBLIC_URL's; `*`: any. */
  MCP_ALLOWED_HOSTS: optionalText,
  /** Largest /mcp request body; more is a 413. */
  MCP_BODY_LIMIT_BYTES: int(1024, 100 * 1024 * 1024).default(256 * 1024),
  MCP_SESSION_TTL_SECONDS: int(10, 86_400).default(1800),
  MCP_MAX_SESSIONS_PER_CLIENT: int(1, 100_000).default(100),
  /** Reply mode when a client accepts both JSON and SSE. */
  MCP_RESPONSE_MODE: z.enum(['sse', 'json']).default('sse'),
  /** The `retry` (ms) an SSE reply's priming event tells a client to wait before reconnecting. */
  MCP_SSE_RETRY_MS: int(0, 3_600_000).default(1000),
  /** What tools/list answers: `core`, the short list plus more_tools, which describes and calls the rest; `all`, every tool. */
  MCP_TOOL_LIST: z.enum(['core', 'all']).default('core'),
  /** API key `stacklens mcp` (stdio) acts with; default: the demo client's. */
  STACKLENS_API_KEY: optionalText,
  /** Optional OpenAI-compatible model endpoint used to parse AI prompts. */
  AI_BASE_URL: optionalText,
  AI_MODEL: optionalText,
  AI_API_KEY: optionalText,
  AI_TIMEOUT_MS: int(100, 120_000).default(8000),
  /** Bulkheads (bulkhead.ts): calls running at once per compartment, and the queue before each. */
  // Searches and peer comparisons are database CPU: one keeps a PostgreSQL backend on a core
  // for up to seconds. Half the cores (at least one) leaves the rest to every other call: on
  // 2 cores, 2 worst-case searches at once put a light read's p95 at 3.2x its idle figure, 1
  // at 1.65x (bench/faults/overload.ts).
  // (Unset: HALF_THE_CORES, set in bulkheadLimits: the default depends on the machine.)
  BULKHEAD_SEARCH: int(1, 1000).optional(),
  BULKHEAD_PEERS: int(1, 1000).optional(),
  BULKHEAD_EXPORT: int(1, 1000).default(2),
  BULKHEAD_AI: int(1, 1000).default(2),
  /** Exports one caller (client; console user) may have running or queued at once; one more is a 429. */
  BULKHEAD_EXPORT_PER_CLIENT: int(1, 1000).default(1),
  /** A streamed export is cut when its reader takes fewer than EXPORT_MIN_BYTES_PER_SECOND over any EXPORT_RATE_WINDOW_SECONDS, or when it has run EXPORT_MAX_SECONDS (0: that bound off). */
  EXPORT_MIN_BYTES_PER_SECOND: int(0, 1_000_000_000).default(16_384),
  EXPORT_RATE_WINDOW_SECONDS: int(1, 3600).default(30),
  EXPORT_MAX_SECONDS: int(0, 86_400).default(600),
  BULKHEAD_QUEUE: int(0, 100_000).default(20),
  BULKHEAD_QUEUE_TIMEOUT_MS: int(1, 600_000).default(5000),
  /** Unset: 2 × DATABASE_POOL_SIZE on PostgreSQL, 8 on the embedded database (one connection). */
  BULKHEAD_STANDARD: int(1, 100_000).optional(),
  BULKHEAD_STANDARD_QUEUE: int(0, 100_000).default(200),
  BULKHEAD_STANDARD_QUEUE_TIMEOUT_MS: int(1, 600_000).default(2000),
  /** Load shedding (0 turns a check off): mean event-loop delay, statements waiting for a connection. */
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: int(0, 60_000).default(100),
  OVERLOAD_MAX_DB_WAITING: int(0, 1_000_000).default(50),
  OVERLOAD_RETRY_AFTER_SECONDS: int(1, 3600).default(2),
  /** Requests in flight at once per caller (an API client; a console user), and per client address for requests with no caller (0: no limit). */
  MAX_CONCURRENT_REQUESTS_PER_CLIENT: int(0, 1_000_000).default(32),
  MAX_CONCURRENT_REQUESTS_PER_IP: int(0, 1_000_000).default(16),
  /** Reverse proxies whose X-Forwarded-For is believed: comma-separated addresses, CIDRs or loopback/linklocal/uniquelocal. Unset: none. */
  TRUST_PROXY: optionalText,
  /** How long a 429 of the per-client rate limit is held before it is sent (0: at once). */
  RATE_LIMITED_REPLY_DELAY_MS: int(0, 10_000).default(250),
  LISTEN_BACKLOG: int(1, 65_535).default(2048),
  /** Console sign-in (docs/access.md "Console sign-in"): a session's absolute lifetime, and how long it lasts without a request. */
  CONSOLE_SESSION_TTL_SECONDS: int(300, 31_536_000).default(604_800),
  CONSOLE_SESSION_IDLE_SECONDS: int(60, 31_536_000).default(43_200),
  /** The plan of the console's API client when it is first made (an admin may change it later). */
  CONSOLE_PLAN: z.string().default('full'),
  /** Sign-in attempts without delay per email and address, per email, and (ten times as many) per address; then waits from 1 s, doubling up to the longest delay; counts are forgotten the window after the last attempt. */
  CONSOLE_LOGIN_MAX_FAILURES: int(1, 10_000).default(10),
  CONSOLE_LOGIN_FAILURE_WINDOW_SECONDS: int(1, 86_400).default(900),
  CONSOLE_LOGIN_MAX_DELAY_SECONDS: int(1, 3600).default(60),
  /** Operations (docs/operations.md): bearer token for /metrics; unset → /metrics answers loopback callers only. */
  METRICS_TOKEN: optionalText,
  /** Collectors (`stacklens detect --domains`, fetchSite): let requests reach private, loopback and link-local addresses. */
  DETECT_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  /** The rendered pass (`stacklens detect --render`): the Chromium executable (default /usr/bin/chromium); never downloaded. */
  DETECT_CHROMIUM_PATH: optionalText,
  /** Detection: days after its last observation a technology stays in use. */
  DETECT_STALE_AFTER_DAYS: int(1, 36_500).default(90),
  /** POST /api/detect: largest request body (artifacts), and the time limit of one detection (fetch and matching; past it the worker is terminated). */
  DETECT_BODY_LIMIT_BYTES: int(1024, 100 * 1024 * 1024).default(2 * 1024 * 1024),
  DETECT_TIMEOUT_MS: int(100, 600_000).default(15_000),
  /** Worker threads detections of requests run on (the event loop never matches a page); default half the cores. */
  DETECT_WORKERS: int(1, 64).optional(),
});

/** The variables the service reads (the configuration table of docs/operations.md lists exactly these). */
export const ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** The literal default of a variable, as text, or undefined when it has none (unset, or derived). */
export function envDefault(name: string): string | undefined {
  let schema: z.ZodType | undefined = (envSchema.shape as Record<string, z.ZodType>)[name];
  for (let depth = 0; schema && depth < 4; depth++) {
    const def = schema._zod.def as { type: string; defaultValue?: unknown; innerType?: z.ZodType; in?: z.ZodType };
    if (def.type === 'default') return String(def.defaultValue);
    schema = def.innerType ?? def.in;
  }
  return undefined;
}

export interface Config {
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** A read replica (serve only): search and company reads go there. */
  databaseReadUrl: string | undefined;
  databasePoolSize: number;
  databasePreparedStatements: boolean;
  /** Database time limits (docs/operations.md "Database faults"). */
  databaseTimeouts: {
    connectMs: number;
    acquireMs: number;
    /** All database work of a light read (the default class). */
    readMs: number;
    /** All database work of a search, a many-peer comparison, an AI call or an MCP call. */
    searchMs: number;
    /** Each statement of an export (CSV/JSONL stream): an export may run long, but not stall. */
    exportIdleMs: number;
  };
  /** Grace for exports in flight when the process is told to stop. */
  shutdownExportGraceMs: number;
  redisUrl: string | undefined;
  logLevel: string;
  /** Generate the demo world on first start (SEED_DEMO; default on the embedded database only). */
  seedDemo: boolean;
  /** demo: the demo world and its printed client; production: neither, and weak secrets refused (operations.ts). */
  mode: 'demo' | 'production';
  demoCompanies: number;
  demoSeed: string;
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** Validate every JSON reply with zod too (tests): see http/reply-serializer.ts. */
  checkReplies: boolean;
  auth: {
    issuer: string;
    audience: string;
    tokenTtlSeconds: number;
    /** Token-endpoint throttle: after maxFailures failed authentications of one client_id from one address, 429 for the rest of the window. */
    failedAttempts: { maxFailures: number; windowSeconds: number };
    /** Failed authentications per client address (auth/failed-auth.ts): past maxFailures in the window, a failure is answered 429. */
    addressFailures: { maxFailures: number; windowSeconds: number };
    external: { issuer: string; jwksUrl: string; audience: string } | undefined;
    /** The authorization server for people (auth/authorization-codes.ts, auth/person-tokens.ts); not served in external mode. */
    people: {
      /** Dynamic client registration (POST /oauth/register): anyone may register a client; a person still signs in and consents. */
      registration: boolean;
      maxClients: number;
      registrationsPerHour: number;
      refreshTtlSeconds: number;
    };
  };
  cursorSecret: string | undefined;
  /** Monitors (saved searches) one client may hold. */
  maxMonitorsPerClient: number;
  /** Large list uploads (services/list-uploads.ts): the rows from which an upload runs as a job, and rows per committed batch. */
  listJobs: { asyncRows: number; batchRows: number };
  /** Market sizing may count from an index read this long ago (FACETS_MAX_STALENESS_SECONDS). */
  facetsMaxStalenessMs: number;
  /** Webhook delivery (services/webhooks.ts). */
  webhooks: {
    maxPerClient: number;
    /** CIDR blocks a webhook URL may resolve to although not public (a receiver inside your network). */
    allowNetworks: string[];
    timeoutMs: number;
    /** Retries after the first attempt, and the first retry's delay: each later one doubles (with jitter). */
    retryLimit: number;
    retryDelaySeconds: number;
    /** An endpoint failing every delivery for this long is disabled until re-enabled. */
    disableAfterHours: number;
  };
  /** CRM write-back (services/crm): the token key and which addresses a CRM base URL may reach. */
  crm: { tokenKey: string | undefined; allowPrivateNetwork: boolean; allowNetworks: string[]; timeoutMs: number };
  /** The schema of the job queue (pg-boss). */
  jobsSchema: string;
  stdioApiKey: string | undefined;
  mcp: {
    /** The MCP server's resource identifier (RFC 8707/9728): PUBLIC_URL + /mcp. Tokens for /mcp must name it as audience. */
    resource: string;
    allowedOrigins: string[];
    /** Extra Host values; `'*'` turns the Host check off. */
    allowedHosts: string[] | '*';
    bodyLimitBytes: number;
    sessionTtlSeconds: number;
    maxSessionsPerClient: number;
    responseMode: 'sse' | 'json';
    sseRetryMs: number;
    toolList: 'core' | 'all';
  };
  ai: { baseUrl: string; model: string; apiKey: string | undefined; timeoutMs: number } | undefined;
  /** Concurrency, queue length and queue deadline of each bulkhead. */
  bulkheads: Record<BulkheadName, BulkheadLimits>;
  overload: {
    /** Mean event-loop delay (ms) above which the API sheds load with 503; 0: off. */
    maxEventLoopDelayMs: number;
    /** Statements waiting for a database connection above which the API sheds load; 0: off. */
    maxDbWaiting: number;
    retryAfterSeconds: number;
    /** Requests in flight per caller (client; console user), past which a request is a 429 at once; 0: unlimited. */
    maxConcurrentPerClient: number;
    /** The same per client address, for requests with no authenticated caller. */
    maxConcurrentPerIp: number;
    listenBacklog: number;
    /** A rate-limit refusal (429) is sent this long after it is decided: a flood of retries that ignore Retry-After slows to the client's own pace. */
    rateLimitedReplyDelayMs: number;
  };
  console: {
    /** Absolute lifetime of a console session; and its idle limit (no request for that long ends it). */
    sessionTtlSeconds: number;
    sessionIdleSeconds: number;
    /** Plan of the console's API client when it is created (afterwards the client's own plan counts). */
    plan: string;
    /** Sign-in throttle (auth/sign-in-throttle.ts): free attempts, forget window, longest wait between attempts. */
    login: { maxFailures: number; windowSeconds: number; maxDelaySeconds: number };
  };
  /** Bearer token that opens /metrics to any address; unset: loopback callers without proxy headers only. */
  metricsToken: string | undefined;
  /**
   * Reverse proxies trusted to name the client in X-Forwarded-For (Fastify's trustProxy, via
   * proxy-addr): addresses, CIDRs or proxy-addr's names. Empty: the socket's address is the client.
   */
  trustProxy: string[];
  /** Bounds of one streamed export's reader (services/export-bounds.ts); 0 turns a bound off. */
  exports: { minBytesPerSecond: number; rateWindowMs: number; maxDurationMs: number };
  /**
   * Detection: the collectors' network policy and the contact URL of their
   * User-Agent (PUBLIC_URL when set); the observation log's window; POST /api/detect's caps.
   */
  detect: {
    allowPrivateNetworks: boolean;
    chromiumPath: string;
    contactUrl: string | undefined;
    staleAfterDays: number;
    bodyLimitBytes: number;
    timeoutMs: number;
    workers: number;
  };
}

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError naming every bad variable. */
/** Settings of earlier versions: a start that sets one stops and says what replaced it, rather than running without the limit the operator meant. */
const REMOVED_VARIABLES: Record<string, string> = {
  MAX_CONNECTIONS_PER_IP:
    'connections are no longer parked per address; set MAX_CONCURRENT_REQUESTS_PER_CLIENT (per credential) and MAX_CONCURRENT_REQUESTS_PER_IP (requests without credentials) instead',
};

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty value is an unset one (`VAR=` in a unit file, `${VAR:-}` in a compose file).
  env = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const removed = Object.keys(REMOVED_VARIABLES).filter((name) => env[name] !== undefined);
  if (removed.length)
    throw new ConfigError(`Invalid configuration:\n${removed.map((name) => `  ${name} is no longer read: ${REMOVED_VARIABLES[name]}`).join('\n')}`);
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${issueMessage(i, env)}`);
    throw new ConfigError(`Invalid configuration:\n${[...new Set(lines)].join('\n')}`);
  }
  const e = parsed.data;
  const seedDemo = e.SEED_DEMO ?? !e.DATABASE_URL;
  const displayHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  const publicUrl = stripSlash(e.PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`);
  const externalParts = [e.AUTH_ISSUER, e.AUTH_JWKS_URL, e.AUTH_AUDIENCE];
  if (externalParts.some(Boolean) && !externalParts.every(Boolean)) {
    throw new ConfigError('Invalid configuration:\n  AUTH_ISSUER, AUTH_JWKS_URL and AUTH_AUDIENCE must be set together');
  }
  if ((e.AI_BASE_URL || e.AI_MODEL) && !(e.AI_BASE_URL && e.AI_MODEL)) {
    throw new ConfigError('Invalid configuration:\n  AI_BASE_URL and AI_MODEL must be set together');
  }
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_READ_URL needs DATABASE_URL: a read replica is of a PostgreSQL primary, not of the embedded database',
    );
  }
  const badOrigin = list(e.MCP_ALLOWED_ORIGINS).find((o) => !/^https?:\/\/[^/?#\s]+$/i.test(o));
  if (badOrigin) {
    throw new ConfigError(`Invalid configuration:\n  MCP_ALLOWED_ORIGINS: '${badOrigin}' is not an origin (scheme://host[:port], no path)`);
  }
  const trustProxy = list(e.TRUST_PROXY);
  const badProxy = trustProxy.find((entry) => !isProxyEntry(entry));
  if (badProxy !== undefined) {
    throw new ConfigError(
      `Invalid configuration:\n  TRUST_PROXY must be a comma-separated list of proxy addresses, CIDRs (10.0.0.0/8) or loopback, linklocal, uniquelocal; got "${badProxy}"`,
    );
  }
  return {
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    databaseTimeouts: {
      connectMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      acquireMs: e.DATABASE_ACQUIRE_TIMEOUT_MS,
      readMs: e.DATABASE_READ_TIMEOUT_MS,
      searchMs: e.DATABASE_SEARCH_TIMEOUT_MS,
      exportIdleMs: e.DATABASE_EXPORT_IDLE_TIMEOUT_MS,
    },
    shutdownExportGraceMs: e.SHUTDOWN_EXPORT_GRACE_SECONDS * 1000,
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    seedDemo,
    mode: seedDemo ? 'demo' : 'production',
    demoCompanies: e.DEMO_COMPANIES,
    demoSeed: e.DEMO_SEED,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    checkReplies: e.CHECK_REPLIES,
    auth: {
      issuer: stripSlash(e.ISSUER_URL ?? publicUrl),
      audience: e.API_AUDIENCE ?? publicUrl,
      tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
      failedAttempts: { maxFailures: e.TOKEN_MAX_FAILED_ATTEMPTS, windowSeconds: e.TOKEN_FAILURE_WINDOW_SECONDS },
      addressFailures: { maxFailures: e.AUTH_MAX_FAILURES_PER_ADDRESS, windowSeconds: e.AUTH_FAILURE_WINDOW_SECONDS },
      external:
        e.AUTH_ISSUER && e.AUTH_JWKS_URL && e.AUTH_AUDIENCE ? { issuer: e.AUTH_ISSUER, jwksUrl: e.AUTH_JWKS_URL, audience: e.AUTH_AUDIENCE } : undefined,
      people: {
        registration: e.OAUTH_DYNAMIC_REGISTRATION,
        maxClients: e.OAUTH_MAX_CLIENTS,
        registrationsPerHour: e.OAUTH_REGISTRATIONS_PER_HOUR,
        refreshTtlSeconds: e.OAUTH_REFRESH_TTL_SECONDS,
      },
    },
    cursorSecret: e.CURSOR_SECRET,
    maxMonitorsPerClient: e.MAX_MONITORS_PER_CLIENT,
    listJobs: { asyncRows: e.LIST_ASYNC_ROWS, batchRows: e.LIST_BATCH_ROWS },
    facetsMaxStalenessMs: e.FACETS_MAX_STALENESS_SECONDS * 1000,
    webhooks: {
      maxPerClient: e.MAX_WEBHOOKS_PER_CLIENT,
      allowNetworks: list(e.WEBHOOK_ALLOW_NETWORKS),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryLimit: e.WEBHOOK_RETRY_LIMIT,
      retryDelaySeconds: e.WEBHOOK_RETRY_DELAY_SECONDS,
      disableAfterHours: e.WEBHOOK_DISABLE_AFTER_HOURS,
    },
    crm: {
      tokenKey: e.CRM_TOKEN_KEY,
      allowPrivateNetwork: e.CRM_ALLOW_PRIVATE_NETWORK,
      allowNetworks: list(e.CRM_ALLOW_NETWORKS),
      timeoutMs: e.CRM_TIMEOUT_MS,
    },
    jobsSchema: e.JOBS_SCHEMA,
    stdioApiKey: e.STACKLENS_API_KEY,
    mcp: {
      resource: `${publicUrl}/mcp`,
      allowedOrigins: list(e.MCP_ALLOWED_ORIGINS),
      allowedHosts: e.MCP_ALLOWED_HOSTS === '*' ? '*' : list(e.MCP_ALLOWED_HOSTS),
      bodyLimitBytes: e.MCP_BODY_LIMIT_BYTES,
      sessionTtlSeconds: e.MCP_SESSION_TTL_SECONDS,
      maxSessionsPerClient: e.MCP_MAX_SESSIONS_PER_CLIENT,
      responseMode: e.MCP_RESPONSE_MODE,
      sseRetryMs: e.MCP_SSE_RETRY_MS,
      toolList: e.MCP_TOOL_LIST,
    },
    ai: e.AI_BASE_URL && e.AI_MODEL ? { baseUrl: stripSlash(e.AI_BASE_URL), model: e.AI_MODEL, apiKey: e.AI_API_KEY, timeoutMs: e.AI_TIMEOUT_MS } : undefined,
    bulkheads: bulkheadLimits(e),
    overload: {
      maxEventLoopDelayMs: e.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
      maxDbWaiting: e.OVERLOAD_MAX_DB_WAITING,
      retryAfterSeconds: e.OVERLOAD_RETRY_AFTER_SECONDS,
      maxConcurrentPerClient: e.MAX_CONCURRENT_REQUESTS_PER_CLIENT,
      maxConcurrentPerIp: e.MAX_CONCURRENT_REQUESTS_PER_IP,
      listenBacklog: e.LISTEN_BACKLOG,
      rateLimitedReplyDelayMs: e.RATE_LIMITED_REPLY_DELAY_MS,
    },
    console: {
      sessionTtlSeconds: e.CONSOLE_SESSION_TTL_SECONDS,
      sessionIdleSeconds: e.CONSOLE_SESSION_IDLE_SECONDS,
      plan: e.CONSOLE_PLAN,
      login: {
        maxFailures: e.CONSOLE_LOGIN_MAX_FAILURES,
        windowSeconds: e.CONSOLE_LOGIN_FAILURE_WINDOW_SECONDS,
        maxDelaySeconds: e.CONSOLE_LOGIN_MAX_DELAY_SECONDS,
      },
    },
    metricsToken: e.METRICS_TOKEN,
    trustProxy,
    exports: {
      minBytesPerSecond: e.EXPORT_MIN_BYTES_PER_SECOND,
      rateWindowMs: e.EXPORT_RATE_WINDOW_SECONDS * 1000,
      maxDurationMs: e.EXPORT_MAX_SECONDS * 1000,
    },
    detect: {
      allowPrivateNetworks: e.DETECT_ALLOW_PRIVATE_NETWORKS,
      chromiumPath: e.DETECT_CHROMIUM_PATH ?? '/usr/bin/chromium',
      contactUrl: e.PUBLIC_URL,
      staleAfterDays: e.DETECT_STALE_AFTER_DAYS,
      bodyLimitBytes: e.DETECT_BODY_LIMIT_BYTES,
      timeoutMs: e.DETECT_TIMEOUT_MS,
      workers: e.DETECT_WORKERS ?? HALF_THE_CORES,
    },
  };
}

/** `NAME must be RULE, got "value"`: the variable, the rule it breaks and what it was given. */
function issueMessage(issue: z.core.$ZodIssue, env: Record<string, string | undefined>): string {
  const name = String(issue.path[0] ?? '');
  let schema: z.ZodType | undefined = (envSchema.shape as Record<string, z.ZodType>)[name];
  let rule: string | undefined;
  for (let depth = 0; schema && !rule && depth < 4; depth++) {
    rule = rules.get(schema);
    const def = schema._zod.def as { innerType?: z.ZodType; in?: z.ZodType };
    schema = def.innerType ?? def.in;
  }
  if (!rule && issue.code === 'invalid_value') rule = `one of ${issue.values.map(String).join(', ')}`;
  const given = String(env[name] ?? '');
  return `${name} must be ${rule ?? issue.message}, got ${JSON.stringify(given.length > 80 ? `${given.slice(0, 80)}…` : given)}`;
}

function bulkheadLimits(e: z.output<typeof envSchema>): Record<BulkheadName, BulkheadLimits> {
  const expensive = (concurrency: number): BulkheadLimits => ({ concurrency, queue: e.BULKHEAD_QUEUE, queueTimeoutMs: e.BULKHEAD_QUEUE_TIMEOUT_MS });
  // PostgreSQL: twice the pool, so cheap calls keep the pool busy without queueing in it for
  // long. The embedded database runs one statement at a time: a few calls in flight keep it
  // busy; more only lengthen every call's wait behind the others' statements.
  const standard = e.BULKHEAD_STANDARD ?? (e.DATABASE_URL ? 2 * e.DATABASE_POOL_SIZE : 8);
  return {
    search: expensive(e.BULKHEAD_SEARCH ?? HALF_THE_CORES),
    peers: expensive(e.BULKHEAD_PEERS ?? HALF_THE_CORES),
    export: { ...expensive(e.BULKHEAD_EXPORT), perCaller: e.BULKHEAD_EXPORT_PER_CLIENT, perCallerSetting: 'BULKHEAD_EXPORT_PER_CLIENT' },
    ai: expensive(e.BULKHEAD_AI),
    standard: { concurrency: standard, queue: e.BULKHEAD_STANDARD_QUEUE, queueTimeoutMs: e.BULKHEAD_STANDARD_QUEUE_TIMEOUT_MS },
  };
}

/** An address, a CIDR, or a name proxy-addr (Fastify's trustProxy) knows. `true`/hop counts are refused: trust is given to named proxies only. */
function isProxyEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
