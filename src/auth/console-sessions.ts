// Console sessions: the cookie a signed-in browser holds, its row in the database (shared by
// every instance), its CSRF token, and the principal a live session stands for — the person
// acting through the console's API client (auth/console-client.ts).
//
// The cookie holds a 256-bit random token; the database keeps only its SHA-256. The CSRF
// token is HMAC-SHA256(token, "stacklens-csrf-v1"): derived, so nothing more is stored, a
// reload can get it back (GET /console/api/session), and knowing it reveals nothing of the
// token. A session ends at its absolute expiry (CONSOLE_SESSION_TTL_SECONDS), after
// CONSOLE_SESSION_IDLE_SECONDS without a request, at sign-out, or when its person is disabled.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import {
  deleteConsoleSession,
  deleteEndedConsoleSessions,
  findLiveConsoleSession,
  insertConsoleSession,
  touchConsoleSession,
  type ConsoleUserRow,
} from '../store/console-users.ts';
import { hashSecret, randomToken } from './secrets.ts';
import { now } from '../clock.ts';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import type { ConsolePerson, Principal } from './principal.ts';
import { consoleClient } from './console-client.ts';

/** The session cookie's name over http (local use), and over https: see sessionCookieName. */
const SESSION_COOKIE = 'stacklens_session';
const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
export const CSRF_HEADER = 'x-csrf-token';
/** last_seen_at is stamped at most this often per session (not a write per request). */
const TOUCH_EVERY_MS = 60_000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('stacklens-csrf-v1').digest('base64url');
}

export function personOf(user: Pick<ConsoleUserRow, 'id' | 'email' | 'name' | 'role'>): ConsolePerson {
  return { userId: user.id, email: user.email, name: user.name, role: user.role };
}

export interface NewSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

export async function startSession(db: Db, config: Config, userId: string): Promise<NewSession> {
  const token = randomToken(32);
  const at = now();
  const expiresAt = new Date(at + config.console.sessionTtlSeconds * 1000);
  // The person's ended sessions go as a new one starts: rows never pile up past one per sign-in.
  await deleteEndedConsoleSessions(db, userId, new Date(at), new Date(at - config.console.sessionIdleSeconds * 1000));
  await insertConsoleSession(db, { idHash: hashSecret(token), userId, now: new Date(at), expiresAt });
  return { token, csrfToken: csrfTokenOf(token), expiresAt };
}

export async function endSession(db: Db, token: string): Promise<void> {
  if (TOKEN_PATTERN.test(token)) await deleteConsoleSession(db, hashSecret(token));
}

/** The person of a live session, or undefined (unknown, expired, idle too long, person disabled). */
export async function liveSession(db: Db, config: Config, token: string): Promise<{ person: ConsolePerson; expiresAt: Date } | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const idHash = hashSecret(token);
  const at = now();
  const found = await findLiveConsoleSession(db, idHash, new Date(at), new Date(at - config.console.sessionIdleSeconds * 1000));
  if (!found) return undefined;
  if (at - found.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await touchConsoleSession(db, idHash, new Date(at));
  return { person: personOf(found.user), expiresAt: found.expiresAt };
}

export const SESSION_ENDED = 'Your console session has ended (signed out, expired, or your account was disabled); sign in again at POST /console/api/session';

/**
 * The principal of a request carrying the session cookie: the person acting through the
 * console's API client, with the person's role. 401 when the session is not live or the
 * console client is disabled.
 */
export async function authenticateSession(db: Db, config: Config, token: string): Promise<Principal> {
  const session = await liveSession(db, config, token);
  if (!session) throw new UnauthorizedError(SESSION_ENDED, {});
  const client = await consoleClient(db, config);
  if (client.disabledAt) {
    throw new UnauthorizedError(
      `The console's API client ${client.id} is disabled, so no one can work through the console; an admin enables it: stacklens clients enable ${client.id}`,
      {},
    );
  }
  return { clientId: client.id, clientName: client.name, plan: client.plan, role: session.person.role, via: 'console_session', person: session.person };
}

/** Methods that change nothing: the only ones a cookie-authenticated request may make without the CSRF header. */
function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/** 403 unless a state-changing request carries the session's CSRF token. */
export function requireCsrf(method: string, sessionToken: string, header: string | string[] | undefined): void {
  if (isSafeMethod(method)) return;
  const sent = Array.isArray(header) ? header[0] : header;
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const actual = Buffer.from(sent ?? '');
  if (actual.length === expected.length && timingSafeEqual(actual, expected)) return;
  throw new ForbiddenError(
    `X-CSRF-Token: ${sent ? 'does not match this session' : 'missing'}. A ${method} request signed in with the console's session cookie must send the header X-CSRF-Token with the csrfToken of GET /console/api/session`,
  );
}

// Cookies ----------------------------------------------------------------------------------------

/**
 * `__Host-stacklens_session` when the service is published over https: browsers then accept
 * the cookie only with Secure, Path=/ and no Domain, from a secure origin, so neither a sibling
 * subdomain nor a plain-http page can set or shadow it. Over http (local use) browsers refuse
 * that prefix, so the plain name is used. Only the name of the service's scheme is read.
 */
export function sessionCookieName(config: Config): string {
  return config.publicUrl.startsWith('https:') ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}

/** The session token of a Cookie header (the cookie named `name`), if it holds one. */
export function sessionTokenOf(cookieHeader: string | string[] | undefined, name: string): string | undefined {
  const header = Array.isArray(cookieHeader) ? cookieHeader.join('; ') : cookieHeader;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value || undefined;
  }
  return undefined;
}

/** Secure when the service is published over https, or this request came over https. */
export function cookieIsSecure(config: Config, requestProtocol: string): boolean {
  return config.publicUrl.startsWith('https:') || requestProtocol === 'https';
}

/** The Set-Cookie value; never a Domain attribute (a `__Host-` cookie may not have one), always Secure with that prefix. */
export function sessionCookie(name: string, token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${name}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure || name === HOST_SESSION_COOKIE ? '; Secure' : ''}`;
}

export function clearedSessionCookie(name: string, secure: boolean): string {
  return sessionCookie(name, '', 0, secure);
}
