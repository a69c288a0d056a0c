// The console's people: create (with a password given or generated, shown once), list, change
// name/role/password, disable/enable — for the Admin API, the CLI and the tests — and signing
// in (throttled: auth/sign-in-throttle.ts). Admin changes are audited under their actor.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { CounterStore } from '../auth/counters.ts';
import {
  countConsoleUsers,
  deleteConsoleSessionsOfUser,
  findConsoleUser,
  findConsoleUserByEmail,
  insertConsoleUser,
  listConsoleUsersPage,
  replaceConsoleUserPasswordHash,
  setConsoleUserDisabled,
  updateConsoleUser,
  type ConsoleUserRow,
} from '../store/console-users.ts';
import { DUMMY_PASSWORD_HASH, generatePassword, hashPassword, needsRehash, passwordProblem, verifyPassword } from '../auth/passwords.ts';
import { takeSignInSlot } from '../auth/sign-in-throttle.ts';
import { personOf, startSession, type NewSession } from '../auth/console-sessions.ts';
import type { ConsolePerson } from '../auth/principal.ts';
import { adminAction, audit, type AdminActor } from './audit.ts';
import { BadRequestError, ConflictError, NotFoundError, UnauthorizedError } from '../errors.ts';
import { isRole, ROLES, type Role } from '../schemas/roles.ts';
import { MAX_EMAIL_LENGTH, type ConsoleUser } from '../schemas/console.ts';
import { toPage, type Page } from '../schemas/common.ts';
import { currentQueryLimits, withQueryLimits } from '../db/query-limits.ts';

function toConsoleUser(u: ConsoleUserRow): ConsoleUser {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    disabled: u.disabledAt !== null,
    disabledAt: u.disabledAt ? u.disabledAt.toISOString() : null,
    createdAt: u.createdAt.toISOString(),
  };
}

const emailRule = z.email();

function checkedEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > MAX_EMAIL_LENGTH || !emailRule.safeParse(e).success) throw new BadRequestError(`email: '${email.slice(0, 80)}' is not a valid email address`);
  return e;
}

/**
 * Password hashing is CPU work (scrypt: tens of ms, more on a busy machine), not database time:
 * the database work after it runs with the request's deadline (http/plugins/query-limits.ts)
 * moved on by the time hashing took, so a slow hash on a loaded machine does not turn the
 * statements after it into 503s.
 */
async function afterHashing<H, T>(hash: () => Promise<H>, next: (hashed: H) => Promise<T>): Promise<T> {
  const started = Date.now();
  const hashed = await hash();
  const limits = currentQueryLimits();
  if (limits?.deadline === undefined) return next(hashed);
  return withQueryLimits({ ...limits, deadline: limits.deadline + (Date.now() - started) }, () => next(hashed));
}

/** A password made ready to store: generated when absent; hashed only when it meets the rule (else `problem`). */
interface PreparedPassword {
  generated?: string;
  hash?: string;
  problem?: string;
}

async function preparePassword(given: string | undefined): Promise<PreparedPassword> {
  const generated = given === undefined ? generatePassword() : undefined;
  const password = given ?? generated!;
  const problem = passwordProblem(password);
  if (problem) return { problem };
  return { ...(generated ? { generated } : {}), hash: await hashPassword(password) };
}

interface NewConsoleUser {
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
  return afterHashing(
    () => preparePassword(input.password),
    (prepared) => insertUser(db, input, prepared),
  );
}

async function insertUser(db: Db, input: NewConsoleUser, prepared: PreparedPassword): Promise<{ user: ConsoleUser; password?: string }> {
  const email = checkedEmail(input.email);
  const name = input.name.trim();
  if (!name) throw new BadRequestError('name: must not be empty');
  if (!isRole(input.role)) throw new BadRequestError(`role: must be one of ${ROLES.join(', ')}`);
  if (prepared.problem) throw new BadRequestError(prepared.problem);
  const id = `usr_${randomBytes(9).toString('base64url')}`;
  const inserted = await insertConsoleUser(db, { id, email, name, role: input.role, passwordHash: prepared.hash! });
  if (!inserted) throw new ConflictError(`email: a console user with the email '${email}' exists already`);
  const user = toConsoleUser((await findConsoleUser(db, id))!);
  return prepared.generated ? { user, password: prepared.generated } : { user };
}

/** createUser, audited under its actor (never the password). */
export async function createAdminUser(db: Db, actor: AdminActor, input: NewConsoleUser) {
  return afterHashing(
    () => preparePassword(input.password),
    (prepared) =>
      adminAction(
        db,
        actor,
        'admin.users.create',
        { email: input.email.trim().toLowerCase(), name: input.name, role: input.role, passwordGenerated: input.password === undefined },
        () => insertUser(db, input, prepared),
        (r) => ({ userId: r.user.id }),
      ),
  );
}

export async function listUsers(db: Db, page: number, size: number): Promise<Page<ConsoleUser>> {
  const { rows, total } = await listConsoleUsersPage(db, page * size, size);
  return toPage(rows.map(toConsoleUser), total, size);
}

async function hasConsoleUsers(db: Db): Promise<boolean> {
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
  const update = async (prepared: PreparedPassword | undefined) => {
    await adminAction(db, actor, 'admin.users.update', { userId, ...shown, ...(prepared ? { passwordChanged: true } : {}) }, async () => {
      const current = await userOrNotFound(db, userId);
      if (selfOf(actor) === userId && changes.role !== undefined && changes.role !== current.role) {
        throw new ConflictError('role: an admin cannot change their own role; another admin (or the command line) can');
      }
      const name = changes.name?.trim();
      if (changes.name !== undefined && !name) throw new BadRequestError('name: must not be empty');
      if (changes.role !== undefined && !isRole(changes.role)) throw new BadRequestError(`role: must be one of ${ROLES.join(', ')}`);
      if (prepared?.problem) throw new BadRequestError(prepared.problem);
      await updateConsoleUser(db, userId, { name, role: changes.role, passwordHash: prepared?.hash });
      if (prepared) await deleteConsoleSessionsOfUser(db, userId);
    });
    return getUser(db, userId);
  };
  return password === undefined ? update(undefined) : afterHashing(() => preparePassword(password), update);
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

const BAD_CREDENTIALS = 'Sign-in failed: unknown email or wrong password';

/**
 * Checks email and password and starts a session. The attempt takes its throttle slots first
 * (auth/sign-in-throttle.ts: per email and address, per email, per address; waits that grow,
 * never a lockout). An unknown email costs the same scrypt work as a known one, and gets the
 * same answer as a wrong password. A hash made with weaker scrypt parameters than today's is
 * replaced after a successful check.
 */
export async function signIn(
  deps: { db: Db; config: Config; counters: CounterStore },
  input: { email: string; password: string; address: string },
): Promise<{ person: ConsolePerson; session: NewSession }> {
  const { db, config, counters } = deps;
  const email = input.email.trim().toLowerCase();
  const slot = await takeSignInSlot(counters, config, email, input.address);
  const user = email.length <= MAX_EMAIL_LENGTH ? await findConsoleUserByEmail(db, email) : undefined;
  return afterHashing(
    () => verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH),
    async (ok) => {
      // Audited: who signed in, and each refusal (the attempted email, lowercased, and why).
      const address = input.address.slice(0, 64);
      const signInAudit = (outcome: 'success' | 'failure', reason?: string) =>
        audit(db, {
          clientId: null,
          onBehalfOf: email.slice(0, MAX_EMAIL_LENGTH),
          action: 'console.sign_in',
          params: { address, ...(reason ? { reason } : {}) },
          resultCount: null,
          outcome,
        });
      if (!user || !ok) {
        await signInAudit('failure', user ? 'wrong password' : 'unknown email');
        throw new UnauthorizedError(BAD_CREDENTIALS, {});
      }
      if (user.disabledAt) {
        await signInAudit('failure', 'disabled');
        throw new UnauthorizedError('Sign-in refused: this account is disabled; ask an admin to enable it', {});
      }
      await slot.succeeded();
      if (needsRehash(user.passwordHash)) {
        // Best effort: a rehash that fails (a database hiccup) is tried again at the next sign-in
        // and must not refuse this one.
        await afterHashing(
          () => hashPassword(input.password),
          (stronger) => replaceConsoleUserPasswordHash(db, user.id, user.passwordHash, stronger),
        ).catch(() => false);
      }
      const session = await startSession(db, config, user.id);
      await signInAudit('success');
      return { person: personOf(user), session };
    },
  );
}

// The first admin --------------------------------------------------------------------------------

const DEMO_ADMIN_EMAIL = 'admin@demo.stacklens.local';

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
