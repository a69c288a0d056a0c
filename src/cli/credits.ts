// `stacklens credits grant`: adds credits to a client (one transaction with its ledger row).
import type { Command } from 'commander';
import { withContext } from './context.ts';
import { output, wholeNumber } from './options.ts';
import { grantClientCredits } from '../auth/clients.ts';

export function registerCreditCommands(program: Command): void {
  const credits = program.command('credits').description('Client credits (spent on profile purchases)');

  credits
    .command('grant')
    .description('Add credits to a client (a negative amount takes them back); recorded in the credit ledger')
    .requiredOption('--client <clientId>', 'the client')
    .requiredOption('--amount <n>', 'credits to add', wholeNumber(Number.MIN_SAFE_INTEGER))
    .option('--reason <text>', 'ledger reason', 'grant')
    .option('--json', 'print JSON')
    .action(async (opts: { client: string; amount: number; reason: string; json?: boolean }) => {
      await withContext(async ({ db }) => {
        const r = await grantClientCredits(db, { clientId: opts.client, amount: opts.amount, reason: opts.reason });
        output(opts.json, { client_id: r.clientId, balance: r.balance }, () => [`${opts.amount > 0 ? 'Granted' : 'Took back'} ${Math.abs(opts.amount)} credits: ${r.clientId} now has ${r.balance}.`]);
      });
    });
}
