// The token audience and URLs the server really serves, recorded by `serve` at start so that
// credentials the CLI prints (`clients create`, `keys create`) work as printed: a CLI run in
// a shell without the server's PORT or PUBLIC_URL would otherwise compute another origin
// (http://127.0.0.1:8080) and the token endpoint would refuse its audience (invalid_target).
import type { Config } from '../config.ts';
import type { Queryable } from '../db/db.ts';
import { readSetting, writeSetting } from '../store/service-settings.ts';

const SETTING = 'public_endpoints';

interface PublicEndpoints {
  /** The `audience` token requests must name. */
  audience: string;
  issuer: string;
  publicUrl: string;
  tokenUrl: string;
}

function endpointsOf(config: Config): PublicEndpoints {
  return { audience: config.auth.audience, issuer: config.auth.issuer, publicUrl: config.publicUrl, tokenUrl: `${config.auth.issuer}/oauth/token` };
}

/** Called by `serve` once listening: later CLI runs on this database print these. */
export async function recordPublicEndpoints(db: Queryable, config: Config): Promise<void> {
  await writeSetting(db, SETTING, endpointsOf(config));
}

/**
 * What the CLI prints: the endpoints the last server on this database started with, when
 * one has; otherwise this process's configuration (the same rule the server applies:
 * PUBLIC_URL, else http://HOST:PORT). `note` says when the two differ.
 */
export async function servedEndpoints(db: Queryable, config: Config): Promise<PublicEndpoints & { note?: string }> {
  const own = endpointsOf(config);
  const recorded = await readSetting<PublicEndpoints>(db, SETTING);
  if (!recorded) return own;
  const served = recorded.value;
  if (served.audience === own.audience && served.issuer === own.issuer) return served;
  return {
    ...served,
    note: `Audience ${served.audience} is the one the server started on ${recorded.updatedAt.toISOString()} serves; this shell's configuration (PUBLIC_URL, HOST, PORT) would give ${own.audience}.`,
  };
}
