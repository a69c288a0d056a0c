// Credit commands: `stacklens credits show <clientId>` and
// `stacklens credits grant <clientId> <amount>` (or `--client ID --amount N`).
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { withContext } from './context.ts';
import { BadRequestError } from '../errors.ts';
import { getCredits } from '../services/purchases.ts';
import { grantAdminClientCredits } from '../services/admin.ts';
import { CLI_ACTOR } from '../services/audit.ts';

function wholeNumber(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

export function registerCreditsCommands(program: Command): void {
  const credits = program.command('credits').description("Show or change a client's credit balance (used to buy contact details)");

  credits
    .command('show')
    .description('Print the balance and the most recent ledger entries')
    .argument('<clientId>', 'API client id (cli_...)')
    .option('-n, --limit <n>', 'ledger entries to show (1-200)', wholeNumber, 20)
    .action(async (clientId: string, opts: { limit: number }) => {
      await withContext(async ({ db }) => {
        const c = await getCredits(db, clientId, { limit: Math.min(200, Math.max(1, opts.limit)) });
        console.log(`${c.clientId}: ${c.balance} credit(s)`);
        for (const e of c.ledger) console.log(`  ${e.createdAt}  ${String(e.delta).padStart(6)}  ${e.reason}${e.reference ? `  ${e.reference}` : ''}`);
      });
    });

  credits
    .command('grant')
    .description('Add credits (a negative amount removes them); writes a ledger entry')
    .argument('[clientId]', 'API client id (cli_...); or --client')
    .argument('[amount]', 'credits to add, e.g. 500 or -20; or --amount', wholeNumber)
    .option('--client <clientId>', 'API client id (same as the clientId argument)')
    .option('--amount <n>', 'credits to add (same as the amount argument)', wholeNumber)
    .option('-r, --reason <text>', 'ledger reason', 'grant')
    .option('--reference <text>', 'ledger reference, e.g. an invoice number')
    .option('--json', 'print { client_id, amount, balance } as JSON (for scripts)')
    .action(
      async (
        clientIdArg: string | undefined,
        amountArg: number | undefined,
        opts: { client?: string; amount?: number; reason: string; reference?: string; json?: boolean },
      ) => {
        const clientId = opts.client ?? clientIdArg;
        const amount = opts.amount ?? amountArg;
        if (!clientId || amount === undefined)
          throw new BadRequestError('Name the client and the amount: credits grant <clientId> <amount>, or --client ID --amount N');
        await withContext(async ({ db }) => {
          const { balance } = await grantAdminClientCredits(db, CLI_ACTOR, clientId, { amount, reason: opts.reason, reference: opts.reference });
          if (opts.json) console.log(JSON.stringify({ client_id: clientId, amount, balance }));
          else console.log(`${clientId}: ${amount > 0 ? '+' : ''}${amount} → ${balance} credit(s)`);
        });
      },
    );
}
