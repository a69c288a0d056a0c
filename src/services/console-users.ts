// The console's people: create (with a password given or generated, shown once), list, change
// name/role/password, disable/enable — for the Admin API, the CLI and the tests — and signing
// in, throttled per email and address. Admin changes are audited under their actor.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../store/db.ts';
import type { CounterStore } from '../store/counters.ts';
import {
  countConsoleUsers, deleteConsoleSessionsOfUser, findConsoleUser, findConsoleUserByEmail, insertConsoleUser, listConsoleUsersPage,
  setConsoleUserDisabled, updateConsoleUser, type ConsoleUserRow,
} from '../store/console-users.ts';
import { DUMMY_PASSWORD_HASH, generatePassword, hashPassword, passwordProblem, verifyPassword } from '../auth/passwords.ts';
import { personOf, startSession, type NewSession } from '../auth/console-sessions.ts';
import type { ConsolePerson } from '../auth/principal.ts';
import { adminAction, audit, type AdminActor } from './audit.ts';
import { BadRequestError, ConflictError, NotFoundError, RateLimitedError, UnauthorizedError } from '../errors.ts';
import { isRole, ROLES, type Role } from '../schemas/roles.ts';
import { MAX_EMAIL_LENGTH, type ConsoleUser } from '../schemas/console.ts';
import { toPage, type Page } from '../schemas/common.ts';
import { rateLimitRejections } from '../telemetry/metrics.ts';

export function toConsoleUser(u: ConsoleUserRow): ConsoleUser {
  return {
    id: u.id, email: u.email, name: u.name, role: u.role, disabled: u.disabledAt !== null,
    disabledAt: u.disabledAt ? u.disabledAt.toISOString() : null, createdAt: u.createdAt.toISOString(),
  };
}

const emailRule = z.email();

function checkedEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > MAX_EMAIL_LENGTH || !emailRule.safeParse(e).success) throw new BadRequestError(`email: '${email.slice(0, 80)}' is not a valid email address`);
  return e;
}

export interface NewConsoleUser {
  email: string;
  name: string;
  role: Role | string;
  /** Absent: a random one is generated and returned (shown once). */
  password?: string | undefined;
}

/**
 * Creates a person who may sign in to the console. Returns the person and, when none was
 * given, the generated password. 400 for a bad field, 409 when the email is taken.
 * (Not audited by itself: the Admin API and the CLI go through createAdminUser.)
 */
export async function createUser(db: Db, input: NewConsoleUser): Promise<{ user: ConsoleUser; password?: string }> {
  const email = checkedEmail(input.email);
  const name = input.name.trim();
  if (!name) throw new BadRequestError('name: must not be empty');
  if (!isRole(input.role)) throw new BadRequestError(`role: must be one of ${ROLES.join(', ')}`);
  const generated = input.password === undefined ? generatePassword() : undefined;
  const password = input.password ?? generated!;
  const problem = passwordProblem(password);
  if (problem) throw new BadRequestError(problem);
  const id = `usr_${randomBytes(9).toString('base64url')}`;
  const inserted = await insertConsoleUser(db, { id, email, name, role: input.role, passwordHash: await hashPassword(password) });
  if (!inserted) throw new ConflictError(`email: a console user with the email '${email}' exists already`);
  const user = toConsoleUser((await findConsoleUser(db, id))!);
  return generated ? { user, password: generated } : { user };
}

/** createUser, audited under its actor (never the password). */
export async function createAdminUser(db: Db, actor: AdminActor, input: NewConsoleUser) {
  return adminAction(
    db, actor, 'admin.users.create', { email: input.email.trim().toLowerCase(), name: input.name, role: input.role, passwordGenerated: input.password === undefined },
    () => createUser(db, input),
    (r) => ({ userId: r.user.id }),
  );
}

export async function listUsers(db: Db, page: number, size: number): Promise<Page<ConsoleUser>> {
  const { rows, total } = await listConsoleUsersPage(db, page * size, size);
  return toPage(rows.map(toConsoleUser), total, size);
}

export async function hasConsoleUsers(db: Db): Promise<boolean> {
  return (await countConsoleUsers(db)) > 0;
}

async function userOrNotFound(db: Db, userId: string): Promise<ConsoleUserRow> {
  const user = await findConsoleUser(db, userId);
  if (!user) throw new NotFoundError(`userId: no console user '${userId}'`);
  return user;
}

/** The person by id, or by email (the CLI accepts either). */
export async function findUser(db: Db, idOrEmail: string): Promise<ConsoleUser> {
  const row = idOrEmail.includes('@') ? await findConsoleUserByEmail(db, idOrEmail.trim()) : await findConsoleUser(db, idOrEmail);
  if (!row) throw new NotFoundError(`user: no console user '${idOrEmail}'`);
  return toConsoleUser(row);
}

export async function getUser(db: Db, userId: string): Promise<ConsoleUser> {
  return toConsoleUser(await userOrNotFound(db, userId));
}

const selfOf = (actor: AdminActor) => (actor === 'cli' ? undefined : actor.person?.userId);

/** Name, role or password (a new password ends the person's sessions); an admin cannot change their own role. */
export async function updateAdminUser(
  db: Db,
  actor: AdminActor,
  userId: string,
  changes: { name?: string | undefined; role?: Role | undefined; password?: string | undefined },
): Promise<ConsoleUser> {
  const { password, ...shown } = changes;
  await adminAction(db, actor, 'admin.users.update', { userId, ...shown, ...(password !== undefined ? { passwordChanged: true } : {}) }, async () => {
    const current = await userOrNotFound(db, userId);
    if (selfOf(actor) === userId && changes.role !== undefined && changes.role !== current.role) {
      throw new ConflictError('role: an admin cannot change their own role; another admin (or the command line) can');
    }
    const name = changes.name?.trim();
    if (changes.name !== undefined && !name) throw new BadRequestError('name: must not be empty');
    if (changes.role !== undefined && !isRole(changes.role)) throw new BadRequestError(`role: must be one of ${ROLES.join(', ')}`);
    const problem = password !== undefined ? passwordProblem(password) : undefined;
    if (problem) throw new BadRequestError(problem);
    await updateConsoleUser(db, userId, { name, role: changes.role, passwordHash: password !== undefined ? await hashPassword(password) : undefined });
    if (password !== undefined) await deleteConsoleSessionsOfUser(db, userId);
  });
  return getUser(db, userId);
}

/** Disabling ends the person's sessions at once; an admin cannot disable themselves. */
export async function setAdminUserEnabled(db: Db, actor: AdminActor, userId: string, enabled: boolean): Promise<ConsoleUser> {
  await adminAction(db, actor, enabled ? 'admin.users.enable' : 'admin.users.disable', { userId }, async () => {
    if (!enabled && selfOf(actor) === userId) throw new ConflictError('userId: an admin cannot disable themselves');
    if (!(await setConsoleUserDisabled(db, userId, !enabled))) throw new NotFoundError(`userId: no console user '${userId}'`);
  });
  return getUser(db, userId);
}

// Signing in -------------------------------------------------------------------------------------

export const BAD_CREDENTIALS = 'Sign-in failed: unknown email or wrong password';
/** An address may fail this many times the per-email limit, over all emails, in one window. */
export const ADDRESS_FACTOR = 10;

/**
 * Checks email and password and starts a session. Failures are counted per email and client
 * address (CONSOLE_LOGIN_MAX_FAILURES in CONSOLE_LOGIN_FAILURE_WINDOW_SECONDS, then 429 until
 * the window ends; a success clears that count), and per address over all emails (ten times
 * as many). An unknown email costs the same scrypt work
 * as a known one, and gets the same answer as a wrong password.
 */
export async function signIn(
  deps: { db: Db; config: Config; counters: CounterStore },
  input: { email: string; password: string; address: string },
): Promise<{ person: ConsolePerson; session: NewSession }> {
  const { db, config, counters } = deps;
  const email = input.email.trim().toLowerCase();
  const { maxFailures, windowSeconds } = config.console.login;
  // {email} is a Redis hash tag; the address keeps one guesser from locking others out. An
  // address that fails across many emails (spraying) is stopped at ADDRESS_FACTOR times the limit.
  const address = input.address.slice(0, 64);
  const throttleKey = `lf:{${email.slice(0, MAX_EMAIL_LENGTH)}}:${address}`;
  const addressKey = `lfa:{${address}}`;
  const [failures, fromAddress] = await Promise.all([counters.peek(throttleKey), counters.peek(addressKey)]);
  const blocked = failures.count >= maxFailures ? { state: failures, what: 'this email from this address' }
    : fromAddress.count >= maxFailures * ADDRESS_FACTOR ? { state: fromAddress, what: 'this address' } : undefined;
  if (blocked) {
    rateLimitRejections.inc({ policy: 'console_login_failures' });
    const retry = Math.max(1, Math.ceil(blocked.state.resetMs / 1000));
    throw new RateLimitedError(`Too many failed sign-ins for ${blocked.what}; retry after ${retry} s`, retry);
  }
  const user = email.length <= MAX_EMAIL_LENGTH ? await findConsoleUserByEmail(db, email) : undefined;
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  // Audited: who signed in, and each refusal (the attempted email, lowercased, and why).
  const signInAudit = (outcome: 'success' | 'failure', reason?: string) =>
    audit(db, { clientId: null, onBehalfOf: email.slice(0, MAX_EMAIL_LENGTH), action: 'console.sign_in', params: { address, ...(reason ? { reason } : {}) }, resultCount: null, outcome });
  if (!user || !ok) {
    await counters.consume([{ key: throttleKey, limit: Infinity }], windowSeconds * 1000);
    await counters.consume([{ key: addressKey, limit: Infinity }], windowSeconds * 1000);
    await signInAudit('failure', user ? 'wrong password' : 'unknown email');
    throw new UnauthorizedError(BAD_CREDENTIALS, {});
  }
  if (user.disabledAt) {
    await signInAudit('failure', 'disabled');
    throw new UnauthorizedError('Sign-in refused: this account is disabled; ask an admin to enable it', {});
  }
  if (failures.count > 0) await counters.reset(throttleKey);
  const session = await startSession(db, config, user.id);
  await signInAudit('success');
  return { person: personOf(user), session };
}

// The first admin --------------------------------------------------------------------------------

export const DEMO_ADMIN_EMAIL = 'admin@demo.stacklens.local';

/**
 * In demo mode, when the console has no user yet (the first start), creates the demo admin
 * with a random password and returns it, to be printed once; undefined otherwise. Without the
 * demo world the operator makes the first admin: stacklens users create --role admin.
 */
export async function ensureDemoAdmin(db: Db, config: Config): Promise<{ email: string; password: string } | undefined> {
  if (config.mode !== 'demo' || (await hasConsoleUsers(db))) return undefined;
  try {
    const { password } = await createAdminUser(db, 'cli', { email: DEMO_ADMIN_EMAIL, name: 'Demo admin', role: 'admin' });
    return { email: DEMO_ADMIN_EMAIL, password: password! };
  } catch (err) {
    if (err instanceof ConflictError) return undefined; // another instance on the database made it first
    throw err;
  }
}

/** The startup report's lines about the console's people. */
export async function consoleStartupLines(db: Db, config: Config, firstAdmin: { email: string; password: string } | undefined): Promise<string[]> {
  const url = `${config.publicUrl}/console`;
  if (firstAdmin) {
    return [
      `Console: sign in at ${url} as ${firstAdmin.email} with password ${firstAdmin.password}`,
      `  (shown this once; a new one: stacklens users set-password ${firstAdmin.email}; more people: stacklens users create)`,
    ];
  }
  if (await hasConsoleUsers(db)) return [`Console: ${url} (people: stacklens users list)`];
  return [`Console: ${url} has no users yet; create the first admin: stacklens users create --email EMAIL --name NAME --role admin`];
}
