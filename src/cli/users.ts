// `stacklens users …`: the people who sign in to the web console. create prints a
// generated password once (when --password is not given); list, set-role, set-password,
// disable and enable go through the same audited services as /api/admin/users (actor: cli).
// Works while the server runs: on the embedded database through the server (cli/context.ts).
import type { Command } from 'commander';
import { withContext } from './context.ts';
import { output } from './options.ts';
import { createAdminUser, findUser, listUsers, setAdminUserEnabled, updateAdminUser } from '../services/console-users.ts';
import { CLI_ACTOR } from '../services/audit.ts';
import { BadRequestError } from '../errors.ts';
import { isRole, ROLES } from '../schemas/roles.ts';
import type { ConsoleUser } from '../schemas/console.ts';
import { generatePassword } from '../auth/passwords.ts';
import { servedEndpoints } from '../auth/public-endpoints.ts';

const line = (u: ConsoleUser) =>
  `${u.id}  ${u.email}  "${u.name}"  role=${u.role}  ${u.disabled ? `DISABLED since ${u.disabledAt}` : 'enabled'}  created=${u.createdAt}`;

function checkedRole(role: string) {
  if (!isRole(role)) throw new BadRequestError(`role: must be one of ${ROLES.join(', ')}`);
  return role;
}

export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('Web console users: create, list, set-role, set-password, disable, enable');

  users
    .command('create')
    .description('Create a person who signs in to the web console; prints a generated password once unless --password is given')
    .requiredOption('--email <email>', 'their email address (the sign-in name)')
    .requiredOption('--name <name>', 'display name')
    .requiredOption(
      '--role <role>',
      `${ROLES.join(', ')} (viewer: read; analyst: also exports, purchases and changes such as lists and monitors; admin: also the Admin API)`,
    )
    .option('--password <password>', 'their password (at least 10 characters); default: a random one, printed once')
    .option('--json', 'print JSON (for scripts)')
    .action(async (opts: { email: string; name: string; role: string; password?: string; json?: boolean }) => {
      const role = checkedRole(opts.role);
      await withContext(async ({ db, config }) => {
        const { user, password } = await createAdminUser(db, CLI_ACTOR, { email: opts.email, name: opts.name, role, password: opts.password });
        // The console of the server on this database (its address recorded at its start), not this shell's guess.
        const signInUrl = `${(await servedEndpoints(db, config)).publicUrl}/console`;
        output(opts.json, { ...user, ...(password ? { password } : {}), signInUrl }, () => [
          `Console user created: ${user.email} (${user.name}, role ${user.role}), id ${user.id}`,
          ...(password ? [`  password: ${password}`, 'Give it to them now: it is not shown again (stacklens users set-password makes a new one).'] : []),
          `Sign in at ${signInUrl}`,
        ]);
      });
    });

  users
    .command('list')
    .description('List console users with role and state')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withContext(async ({ db }) => {
        const all: ConsoleUser[] = [];
        for (let page = 0; ; page++) {
          const p = await listUsers(db, page, 200);
          all.push(...p.content);
          if (page + 1 >= p.totalPages) break;
        }
        output(opts.json, all, () =>
          all.length === 0 ? ['No console users. Create one: stacklens users create --email E --name N --role admin'] : all.map(line),
        );
      });
    });

  users
    .command('set-role <user> <role>')
    .description(`Change a person's role (${ROLES.join(', ')}); <user> is their id or email; audited`)
    .action(async (who: string, roleText: string) => {
      const role = checkedRole(roleText);
      await withContext(async ({ db }) => {
        const u = await updateAdminUser(db, CLI_ACTOR, (await findUser(db, who)).id, { role });
        console.log(`${u.email} has role ${u.role} from their next request.`);
      });
    });

  users
    .command('set-password <user>')
    .description('Give a person a new password (printed once unless --password is given); their sessions end; audited')
    .option('--password <password>', 'the new password (at least 10 characters); default: a random one, printed once')
    .action(async (who: string, opts: { password?: string }) => {
      const password = opts.password ?? generatePassword();
      await withContext(async ({ db }) => {
        const u = await updateAdminUser(db, CLI_ACTOR, (await findUser(db, who)).id, { password });
        console.log(`New password for ${u.email}${opts.password ? ' set' : `: ${password}`}. Their open sessions have ended.`);
      });
    });

  for (const [name, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    users
      .command(`${name} <user>`)
      .description(enabled ? 'Let a disabled person sign in again; audited' : 'Stop a person signing in; their sessions end at once; audited')
      .action(async (who: string) => {
        await withContext(async ({ db }) => {
          const u = await setAdminUserEnabled(db, CLI_ACTOR, (await findUser(db, who)).id, enabled);
          console.log(`${u.email} is ${u.disabled ? 'disabled' : 'enabled'}.`);
        });
      });
  }
}
