-- Console sign-in: the people who use the web console, and their sessions. Sessions
-- live in the database so that every instance on it knows them (like mcp_sessions, 021).

-- A person: email unique whatever its case (stored lowercased, and the index is on lower()),
-- a role, and a password hash in the self-describing scrypt format of auth/passwords.ts.
-- Disabling keeps the row (the audit log names people by email); a disabled person cannot
-- sign in and their sessions end.
CREATE TABLE console_users (
  id             text PRIMARY KEY,
  email          text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  name           text NOT NULL,
  role           text NOT NULL CHECK (role IN ('viewer', 'analyst', 'admin')),
  password_hash  text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  disabled_at    timestamptz
);
CREATE UNIQUE INDEX console_users_email_idx ON console_users (lower(email));

-- A signed-in browser. `id_hash` is the SHA-256 of the cookie's token: a copy of this table
-- does not let anyone act as its people. The CSRF token is derived from the cookie's token
-- (HMAC, auth/console-sessions.ts), so nothing about it is stored. A session ends at
-- `expires_at` (absolute) or after CONSOLE_SESSION_IDLE_SECONDS without a request
-- (`last_seen_at`, stamped at most once a minute).
CREATE TABLE console_sessions (
  id_hash       text PRIMARY KEY,
  user_id       text NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX console_sessions_user_idx ON console_sessions (user_id);
CREATE INDEX console_sessions_expires_idx ON console_sessions (expires_at);
