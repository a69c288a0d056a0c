// Console sign-in: the session contract of /console/api/session, and the Admin API
// operations on the console's people (/api/admin/users). Every admin record names role admin.
import { z } from 'zod';
import { idInput, textInput } from './text.ts';
import { errorBodySchema, pageQuery, pageSchema } from './common.ts';
import { defineOperation } from './operation.ts';
import { ROLES } from './roles.ts';

export const MAX_EMAIL_LENGTH = 254;
/** Longest password accepted (scrypt reads all of it, so it is capped), and the shortest. */
export const MAX_PASSWORD_LENGTH = 1024;
export const MIN_PASSWORD_LENGTH = 10;
const MAX_USER_NAME_LENGTH = 200;

const emailInput = z
  .email('must be an email address')
  .max(MAX_EMAIL_LENGTH)
  .describe('Email address (case does not matter)')
  .meta({ examples: ['ada@example.com'] });
const passwordInput = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`);
const roleInput = z
  .enum(ROLES)
  .describe('viewer: read; analyst: also exports, purchases and changes (lists, monitors); admin: also the Admin API (clients, keys, plans, credits, users)');

const sessionUserSchema = z
  .object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(ROLES) })
  .meta({ id: 'ConsoleSessionUser', description: 'The signed-in person' });

export const sessionSchema = z
  .object({
    user: sessionUserSchema,
    csrfToken: z.string().describe('Send as the X-CSRF-Token header on every request that is not GET or HEAD'),
    expiresAt: z.iso.datetime().describe('When the session ends at the latest (it also ends after CONSOLE_SESSION_IDLE_SECONDS without a request)'),
  })
  .meta({ id: 'ConsoleSession' });

export const signInBody = z.strictObject({
  email: z.string().max(MAX_EMAIL_LENGTH).describe('Email address of the person'),
  password: z.string().max(MAX_PASSWORD_LENGTH).describe('Their password'),
});

export const consoleUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    disabled: z.boolean(),
    disabledAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ConsoleUser', description: 'A person who signs in to the web console; never their password' });
export type ConsoleUser = z.output<typeof consoleUserSchema>;

const consoleUserPageSchema = pageSchema(consoleUserSchema).meta({ id: 'ConsoleUserPage' });

const createUserBody = z.strictObject({
  email: emailInput,
  name: textInput(MAX_USER_NAME_LENGTH)
    .min(1, 'must not be empty')
    .describe('Display name')
    .meta({ examples: ['Ada Lovelace'] }),
  role: roleInput,
  password: passwordInput.optional().describe('Absent: a random password is generated and shown in the reply, once'),
});

const createdUserSchema = z
  .object({
    user: consoleUserSchema,
    password: z.string().optional().describe('The generated password, when none was given: shown in this reply only'),
  })
  .meta({ id: 'CreatedConsoleUser' });

const updateUserBody = z
  .strictObject({
    name: textInput(MAX_USER_NAME_LENGTH).min(1, 'must not be empty').optional().describe('New display name'),
    role: roleInput.optional().describe('New role; an admin cannot change their own'),
    password: passwordInput.optional().describe("New password; the person's sessions end"),
  })
  .refine((o) => Object.keys(o).length > 0, 'name, role or password: give at least one field to change')
  .meta({ minProperties: 1, examples: [{ role: 'analyst' }] })
  .describe('The fields to change; absent ones keep their value. At least one');

const userIdParams = z.object({ userId: idInput('usr_4fK2x9Qa1bZ7').describe('Console user id (usr_…)') });
const pagedQuery = z.object({ page: pageQuery.page, size: pageQuery.size });
const conflict = errorBodySchema.describe('Conflict: the email is taken, or an admin changing their own role or disabling themselves');

// Operations -----------------------------------------------------------------------------------
const admin = { tag: 'Admin', role: 'admin', attributed: false } as const;

export const listAdminUsersOp = defineOperation({
  ...admin,
  id: 'listAdminUsers',
  summary: 'List console users',
  description: 'The people who sign in to the web console, with their role and state, oldest first; never a password.',
  input: pagedQuery,
  output: consoleUserPageSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/users', query: pagedQuery },
});

export const createAdminUserOp = defineOperation({
  ...admin,
  id: 'createAdminUser',
  summary: 'Create a console user (a generated password is shown once)',
  description:
    'Adds a person who may sign in to the web console with the given role. Without a password, one is generated and shown in the reply only. Audited.',
  input: createUserBody,
  output: createdUserSchema,
  readOnly: false,
  http: { method: 'POST', path: '/admin/users', body: createUserBody, errors: { 409: conflict } },
});

export const getAdminUserOp = defineOperation({
  ...admin,
  id: 'getAdminUser',
  summary: 'One console user',
  description: 'The person with their role and state; never their password.',
  input: userIdParams,
  output: consoleUserSchema,
  readOnly: true,
  http: { method: 'GET', path: '/admin/users/:userId', params: userIdParams },
});

export const updateAdminUserOp = defineOperation({
  ...admin,
  id: 'updateAdminUser',
  summary: "Change a console user's name, role or password",
  description:
    "Changes only the given fields; a new role counts from the person's next request, a new password ends their sessions. An admin cannot change their own role. Audited.",
  input: userIdParams.extend(updateUserBody.shape),
  output: consoleUserSchema,
  readOnly: false,
  idempotent: true,
  http: { method: 'POST', path: '/admin/users/:userId', params: userIdParams, body: updateUserBody, errors: { 409: conflict } },
});

export const disableAdminUserOp = defineOperation({
  ...admin,
  id: 'disableAdminUser',
  summary: 'Disable a console user',
  description:
    'The person can no longer sign in and their sessions end at once. Nothing is deleted (the audit log keeps their name). An admin cannot disable themselves. Audited.',
  input: userIdParams,
  output: consoleUserSchema,
  readOnly: false,
  idempotent: true,
  http: { method: 'POST', path: '/admin/users/:userId/disable', params: userIdParams, body: z.strictObject({}).optional(), errors: { 409: conflict } },
});

export const enableAdminUserOp = defineOperation({
  ...admin,
  id: 'enableAdminUser',
  summary: 'Enable a disabled console user again',
  description: 'The person may sign in again with their password. Audited.',
  input: userIdParams,
  output: consoleUserSchema,
  readOnly: false,
  idempotent: true,
  http: { method: 'POST', path: '/admin/users/:userId/enable', params: userIdParams, body: z.strictObject({}).optional() },
});

export const adminUserOperations = [listAdminUsersOp, createAdminUserOp, getAdminUserOp, updateAdminUserOp, disableAdminUserOp, enableAdminUserOp];
