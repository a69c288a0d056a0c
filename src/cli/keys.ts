// `stacklens keys …`: API keys (create prints the key once; list; revoke) and token signing
// keys (rotate-signing, list-signing).
import type { Command } from 'commander';
import { withContext } from './context.ts';
import { isoOrDash, output } from './options.ts';
import { listKeys } from '../auth/api-keys.ts';
import { createAdminClientKey, revokeAdminKey } from '../services/admin.ts';
import { CLI_ACTOR } from '../services/audit.ts';
import { rotateSigningKey } from '../auth/signing-keys.ts';
import { listSigningKeys } from '../store/signing-keys.ts';
import { servedEndpoints } from '../auth/public-endpoints.ts';

export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('API keys (create, list, revoke) and token signing keys (rotate-signing, list-signing)');

  keys
    .command('create')
    .description('Create an API key for a client; prints it once')
    .requiredOption('--client <clientId>', 'the client the key acts as')
    .option('--name <name>', 'a label, e.g. where the key is used')
    .option('--json', 'print JSON')
    .action(async (opts: { client: string; name?: string; json?: boolean }) => {
      await withContext(async ({ db, config }) => {
        // The same audited service as POST /api/admin/clients/{clientId}/keys (actor: cli).
        const { key, apiKey } = await createAdminClientKey(db, CLI_ACTOR, opts.client, opts.name ?? null);
        const k = { ...key, apiKey };
        const served = await servedEndpoints(db, config);
        if (served.note) console.error(served.note);
        output(opts.json, { id: k.id, prefix: k.prefix, api_key: k.apiKey, client_id: k.clientId, base_url: `${served.publicUrl}/api` }, () => [
          `API key for ${k.clientId} (id ${k.id}):`,
          `  ${k.apiKey}`,
          'Store it now: only its hash is kept.',
          `Use: curl -s ${served.publicUrl}/api/me -H 'X-API-Key: ${k.apiKey}'`,
        ]);
      });
    });

  keys
    .command('list')
    .description('List API keys (prefix only, never the key)')
    .option('--client <clientId>', 'only this client’s keys')
    .option('--json', 'print JSON')
    .action(async (opts: { client?: string; json?: boolean }) => {
      await withContext(async ({ db }) => {
        const rows = await listKeys(db, opts.client);
        const data = rows.map((k) => ({
          id: k.id,
          prefix: k.prefix,
          client_id: k.clientId,
          name: k.name,
          created_at: k.createdAt,
          revoked_at: k.revokedAt,
          last_used_at: k.lastUsedAt,
        }));
        output(opts.json, data, () =>
          rows.length === 0
            ? ['No API keys.']
            : rows.map(
                (k) =>
                  `${k.id}  sl_${k.prefix}_…  client=${k.clientId}  ${k.revokedAt ? `REVOKED ${k.revokedAt.toISOString()}` : 'active'}  name=${k.name ?? '-'}  created=${isoOrDash(k.createdAt)}  last-used=${isoOrDash(k.lastUsedAt)}`,
              ),
        );
      });
    });

  keys
    .command('revoke <keyIdOrPrefix>')
    .description('Revoke an API key (by id key_… or prefix); refused from the next request')
    .action(async (idOrPrefix: string) => {
      await withContext(async ({ db }) => {
        const k = await revokeAdminKey(db, CLI_ACTOR, idOrPrefix);
        console.log(`API key ${k.id} (client ${k.clientId}) revoked.`);
      });
    });

  keys
    .command('rotate-signing')
    .description('Add a new token signing key; old public keys stay published until their tokens expire')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withContext(async ({ db, config }) => {
        const r = await rotateSigningKey(db, config.auth.tokenTtlSeconds);
        output(opts.json, { kid: r.kid, retired: r.retired, published_for_seconds: r.publishedForSeconds }, () => [
          `New signing key ${r.kid}; running servers switch to it within 30 s.`,
          r.retired.length
            ? `Retired ${r.retired.join(', ')}: still published in the JWKS for ${r.publishedForSeconds} s, so tokens it signed stay valid until they expire.`
            : 'There was no previous key.',
        ]);
      });
    });

  keys
    .command('list-signing')
    .description('List token signing keys (public data only)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withContext(async ({ db }) => {
        const rows = await listSigningKeys(db);
        const data = rows.map((k) => ({ kid: k.kid, alg: k.alg, created_at: k.createdAt, retired_at: k.retiredAt, published_until: k.publishedUntil }));
        output(opts.json, data, () =>
          rows.length === 0
            ? ['No signing key yet (the first token request creates one).']
            : rows.map(
                (k) =>
                  `${k.kid}  ${k.alg}  ${k.retiredAt ? `retired ${k.retiredAt.toISOString()}, published until ${isoOrDash(k.publishedUntil)}` : 'ACTIVE'}  created=${k.createdAt.toISOString()}`,
              ),
        );
      });
    });
}
