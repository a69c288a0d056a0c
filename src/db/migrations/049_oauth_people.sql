-- Sign-in for people over OAuth 2.1 (authorization code + PKCE): the clients that ask for it
-- (registered by an operator or dynamically, RFC 7591), the codes a person's consent gives,
-- and the refresh tokens of each grant. Codes, refresh tokens and client secrets are kept as
-- SHA-256 hashes only (256-bit random values): a copy of these tables lets nobody act.

CREATE TABLE oauth_clients (
  id               text PRIMARY KEY,
  name             text NOT NULL,
  redirect_uris    text[] NOT NULL,
  -- NULL for a public client (token_endpoint_auth_method none: PKCE is its proof).
  secret_hash      text,
  auth_method      text NOT NULL CHECK (auth_method IN ('none', 'client_secret_basic', 'client_secret_post')),
  created_at       timestamptz NOT NULL DEFAULT now()
);

-- One row per code; `used_at` makes it single-use (an update that finds it unused wins).
CREATE TABLE oauth_codes (
  code_hash        text PRIMARY KEY,
  client_id        text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  user_id          text NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  redirect_uri     text NOT NULL,
  code_challenge   text NOT NULL,
  resource         text NOT NULL,
  scope            text NOT NULL,
  expires_at       timestamptz NOT NULL,
  used_at          timestamptz,
  -- The grant the code's exchange started: a second exchange of the code revokes it.
  family_id        text
);
CREATE INDEX oauth_codes_expires_idx ON oauth_codes (expires_at);

-- A grant (a "family"): what one consent gave one client for one person. Revoked as a whole
-- when a rotated refresh token comes back (reuse), at revocation (RFC 7009), or when a code is
-- exchanged twice. Access tokens name their family (claim sid) and die with it.
CREATE TABLE oauth_grants (
  id               text PRIMARY KEY,
  client_id        text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  user_id          text NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  resource         text NOT NULL,
  scope            text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  revoked_at       timestamptz
);
CREATE INDEX oauth_grants_user_idx ON oauth_grants (user_id);

-- Each refresh token of a grant; rotation marks the old one used and adds the next.
CREATE TABLE oauth_refresh_tokens (
  token_hash       text PRIMARY KEY,
  grant_id         text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  expires_at       timestamptz NOT NULL,
  used_at          timestamptz
);
CREATE INDEX oauth_refresh_tokens_grant_idx ON oauth_refresh_tokens (grant_id);
