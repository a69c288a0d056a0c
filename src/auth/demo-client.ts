// The demo world's ready-to-use credentials: a `full` client and an API key, created on the
// start that seeds the demo world, printed, and written to DATA_DIR/demo-client.json
// (mode 600) so a new user can call the API at once.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { createClient, listClients } from './clients.ts';
import { createApiKey } from './api-keys.ts';

const DEMO_CLIENT_FILE = 'demo-client.json';

interface DemoClientFile {
  client_id: string;
  client_secret: string;
  api_key: string;
  audience: string;
  /** The audience (RFC 8707 `resource`) of a token for /mcp. */
  mcp_resource: string;
  token_url: string;
  base_url: string;
  mcp_url: string;
}

export async function createDemoClient(db: Db, config: Config, say: (line: string) => void): Promise<DemoClientFile> {
  const client = await createClient(db, { name: 'demo', plan: 'full' });
  const key = await createApiKey(db, client.clientId, 'demo');
  const demo: DemoClientFile = {
    client_id: client.clientId,
    client_secret: client.clientSecret,
    api_key: key.apiKey,
    audience: config.auth.audience,
    mcp_resource: config.mcp.resource,
    token_url: `${config.auth.issuer}/oauth/token`,
    base_url: `${config.publicUrl}/api`,
    mcp_url: `${config.publicUrl}/mcp`,
  };
  const file = path.join(config.dataDir, DEMO_CLIENT_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600); // the mode above applies only when the file is new
  say(`Demo client (plan full) written to ${file}:`);
  say(`  client_id ${demo.client_id}   client_secret ${demo.client_secret}`);
  say(`  api_key   ${demo.api_key}`);
  say(`  Try: curl -s ${demo.base_url}/me -H 'X-API-Key: ${demo.api_key}'`);
  return demo;
}

/**
 * The start-up line saying where the demo client's credentials are, judged by the database and
 * the file together: a restored or moved database holds the demo client while its data folder
 * has no demo-client.json (or one of another database). The secret is stored hashed, so the
 * line says how to make new credentials rather than that there is no demo client.
 */
export async function demoCredentialsLine(db: Db, dataDir: string): Promise<string> {
  const demos = (await listClients(db)).filter((c) => c.name === 'demo' && !c.disabledAt).map((c) => c.id);
  const file = path.join(dataDir, DEMO_CLIENT_FILE);
  let fileClient: string | undefined;
  try {
    fileClient = (JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<DemoClientFile>).client_id;
  } catch {
    fileClient = undefined; // missing or unreadable: judged by the database alone
  }
  if (fileClient !== undefined && demos.includes(fileClient)) return `Credentials: the demo client (plan full) is in ${file}`;
  if (demos.length === 0)
    return 'Credentials: no demo client (the database held data before its first start); create one: stacklens clients create --name NAME --plan full';
  const id = demos[0]!;
  return (
    `Credentials: the demo client ${id} (plan full) exists, but ${file} ${fileClient === undefined ? 'is missing' : 'names another client'} (a restored or moved database) and its secret is not stored; ` +
    `make new credentials: stacklens clients rotate-secret ${id}, stacklens keys create --client ${id}`
  );
}
