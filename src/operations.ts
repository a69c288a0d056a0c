// Safe production defaults (docs/operations.md): which configured secrets are too weak to
// run with, and how the start-up log names the database without its password.
//
// What is a secret here, and where it comes from:
// - token signing keys (ES256) are generated in the database on first use and rotated with
//   `stacklens keys rotate-signing`: never configured, so never a default;
// - the feed-cursor key is CURSOR_SECRET when set, else 32 random bytes generated once and
//   kept in the database (service_secrets);
// - METRICS_TOKEN, when set, opens /metrics to any address.
// Only the configured ones can be weak or copied from an example: those are checked.
import type { Config } from './config.ts';

/** Configured secrets, by variable: the value the service runs with (undefined when unset). */
const CONFIGURED_SECRETS: Record<string, (config: Config) => string | undefined> = {
  CURSOR_SECRET: (c) => c.cursorSecret,
  METRICS_TOKEN: (c) => c.metricsToken,
  CRM_TOKEN_KEY: (c) => c.crm.tokenKey,
};

/** Shortest secret accepted outside demo mode: 32 characters (`openssl rand -base64 32` gives 44). */
const MIN_SECRET_LENGTH = 32;
/** Fewest distinct characters: a long run of one character or a short pattern repeated is no secret. */
const MIN_DISTINCT_CHARACTERS = 10;
/** Words of example and placeholder values ("change-me", "my-secret", "password123", "stacklens-default"). */
const PLACEHOLDER = /change.?me|replace|example|placeholder|default|secret|password|passw0rd|stacklens|letmein|qwerty|12345|xxxx/i;

/** Why a secret value is weak, or undefined when it is acceptable. */
export function weakSecretReason(value: string): string | undefined {
  if (value.length < MIN_SECRET_LENGTH) return `it has ${value.length} characters; at least ${MIN_SECRET_LENGTH} are required`;
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) return `it has fewer than ${MIN_DISTINCT_CHARACTERS} distinct characters`;
  const word = PLACEHOLDER.exec(value);
  if (word) return `it contains "${word[0]}", a placeholder or default value`;
  return undefined;
}

/** One line per weak configured secret, naming the variable and the rule (never the value). */
export function weakSecrets(config: Config): string[] {
  const problems: string[] = [];
  for (const [name, read] of Object.entries(CONFIGURED_SECRETS)) {
    const value = read(config);
    const reason = value === undefined ? undefined : weakSecretReason(value);
    if (reason) problems.push(`${name} is too weak: ${reason}. Generate one with: openssl rand -base64 32`);
  }
  return problems;
}

/** `postgres://user:secret@host/db` → `postgres://user:***@host/db`, anywhere in a text. */
export function redactUrlPasswords(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):[^\s@/]*@/gi, '$1:***@');
}

/** The database as the start-up log names it: engine and where, never the password. */
export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'> & { databaseReadUrl?: string | undefined }): string {
  if (!config.databaseUrl) return `embedded PGlite in ${config.dataDir}/pglite`;
  const primary = describePostgres(config.databaseUrl);
  return config.databaseReadUrl
    ? `${primary}; reads that may lag from the replica ${describePostgres(config.databaseReadUrl).replace(/^PostgreSQL /, '')}`
    : primary;
}

function describePostgres(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const host = url.hostname || url.searchParams.get('host') || 'localhost';
    const where = `${host}${url.port ? `:${url.port}` : ''}${url.pathname && url.pathname !== '/' ? url.pathname : ''}`;
    return `PostgreSQL at ${where}${url.username ? ` (user ${decodeURIComponent(url.username)})` : ''}`;
  } catch {
    // A key=value connection string: say only which engine, it may hold a password anywhere.
    return 'PostgreSQL (connection string not a URL)';
  }
}
