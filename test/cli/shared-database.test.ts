// One owner of the embedded database: while a real `stacklens serve` process runs on a PGlite
// data folder, the CLI (clients, keys, credits, import with its refresh, refresh, backup) and
// the stdio MCP server work through it, say so on stderr, and the server keeps answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { freePort, startServe, waitReady } from '../helpers/serve-process.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(dataDir: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const THROUGH_SERVER = /working through the running server \(process \d+\)/;

test(
  'CLI commands and stdio MCP work through a running server on PGlite, with a relative data folder as the default ./data is',
  { timeout: 600_000 },
  async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-shared-'));
    // The server and every command get the folder as a relative path, as `npm start` with the
    // default DATA_DIR=./data does; a socket path built from it once reached the driver as a host name.
    const relativeDir = path.relative(process.cwd(), dataDir);
    assert.ok(!path.isAbsolute(relativeDir));
    const port = await freePort();
    // Shedding on event-loop delay off: it follows the machine's load, not this test (as in test/helpers/app.ts).
    const server = startServe(relativeDir, port, { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' });
    try {
      await waitReady(server);
      const base = `http://127.0.0.1:${port}`;
      const runDir = path.join(dataDir, 'run');
      assert.equal(fs.statSync(runDir).mode & 0o777, 0o700, 'only the owner may reach the socket folder');
      assert.equal(fs.statSync(path.join(runDir, '.s.PGSQL.5432')).mode & 0o777, 0o600);

      // clients, keys, credits
      const created = await cli(relativeDir, ['clients', 'create', '--name', 'Shared test', '--plan', 'full', '--json']);
      assert.equal(created.code, 0, created.stderr);
      assert.match(created.stderr, THROUGH_SERVER);
      const clientId = JSON.parse(created.stdout).client_id as string;
      const key = await cli(relativeDir, ['keys', 'create', '--client', clientId, '--json']);
      assert.equal(key.code, 0, key.stderr);
      const apiKey = JSON.parse(key.stdout).api_key as string;
      const me = await fetch(`${base}/api/me`, { headers: { 'X-API-Key': apiKey } });
      assert.equal(me.status, 200, 'the server sees the key created through it at once');
      const granted = await cli(relativeDir, ['credits', 'grant', clientId, '25']);
      assert.equal(granted.code, 0, granted.stderr);
      const shown = await cli(relativeDir, ['credits', 'show', clientId]);
      assert.match(shown.stdout, new RegExp(`${clientId}: \\d+ credit`));

      // Import installs for a cohort member: its cohort's usage shares change after the import's refresh.
      const visitor = new pg.Client({ host: runDir, port: 5432, user: 'postgres', database: 'postgres' });
      await visitor.connect();
      const [pick] = (
        await visitor.query(
          `SELECT h.company_id, c.domain, h.member_id, m.domain AS member_domain, p.id AS product,
              (SELECT max(last_verified) FROM installs)::text AS newest
         FROM cohorts h JOIN companies c ON c.id = h.company_id JOIN companies m ON m.id = h.member_id
         CROSS JOIN LATERAL (SELECT id FROM products p WHERE NOT EXISTS (SELECT 1 FROM installs i WHERE i.product_id = p.id) ORDER BY id LIMIT 1) p
        WHERE h.kind = 'default' ORDER BY h.company_id, h.rank LIMIT 1`,
        )
      ).rows;
      await visitor.end();
      assert.ok(pick, 'a company with a Default cohort and a product nobody uses');
      const usage = async () => {
        const res = await fetch(`${base}/api/companies/${pick.domain}/cohort/Default/metrics/usage?productId=${pick.product}`, {
          headers: { 'X-API-Key': apiKey },
        });
        assert.equal(res.status, 200);
        return (await res.json()) as { companiesUsing: number }[];
      };
      assert.deepEqual(await usage(), []);
      const file = path.join(dataDir, 'installs.csv');
      fs.writeFileSync(
        file,
        `companyDomain,productId,firstVerified,lastVerified,hitCount,intensity,sources\n${pick.member_domain},${pick.product},2024-01-01,${new Date(pick.newest).toISOString()},40,80,website|jobs\n`,
      );
      const imported = await cli(relativeDir, ['import', 'installs', file]);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stderr, THROUGH_SERVER);
      assert.match(imported.stderr, /Refreshed derived data after the installs import: 1 of \d+ companies \(incremental\)/);
      assert.equal((await usage())[0]?.companiesUsing, 1, 'the member now counts in its cohort’s shares');

      const refreshed = await cli(relativeDir, ['refresh']);
      assert.equal(refreshed.code, 0, refreshed.stderr);
      assert.match(refreshed.stdout, /Refresh incremental .*: 0 of \d+ companies/);

      // A backup through the server while requests run; the file verifies.
      const backupFile = path.join(dataDir, 'backup.gz');
      let stop = false;
      const statuses: number[] = [];
      const refusals: string[] = [];
      const load = (async () => {
        // Light load, paced under the plan's rate limit.
        while (!stop) {
          const res = await fetch(`${base}/api/companies/${pick.domain}/firmographics`, { headers: { 'X-API-Key': apiKey } });
          statuses.push(res.status);
          if (res.status !== 200) refusals.push(`${res.status} ${res.headers.get('retry-after')} ${await res.text()}`);
          await new Promise((r) => setTimeout(r, 150));
        }
      })();
      const backup = await cli(relativeDir, ['backup', backupFile]);
      stop = true;
      await load;
      assert.equal(backup.code, 0, backup.stderr);
      assert.match(backup.stderr, /taking a snapshot/);
      // The server serves throughout; the only refusals allowed are the bounded waits for the
      // database while the snapshot is copied, on a loaded machine: 503 with Retry-After when no
      // connection became free in time, or when the read did not finish within its time limit.
      assert.ok(statuses.filter((x) => x === 200).length > 0, 'requests were answered during the backup');
      assert.ok(
        refusals.every((r) => /^503 \d+ .*(No database connection became free|The database did not answer within the time limit)/.test(r)),
        refusals.join('\n'),
      );
      const verified = await cli(relativeDir, ['backup', '--verify', backupFile]);
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stdout, /every checksum matches/);
      // Restore needs the server stopped.
      const refused = await cli(relativeDir, ['restore', '--force', backupFile]);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /stop it, then restore/);

      // The stdio MCP server through the running server: initialize, tools/list, one call.
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'src/main.ts', 'mcp', '--api-key', apiKey],
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: relativeDir, LOG_LEVEL: 'silent' } as Record<string, string>,
        stderr: 'pipe',
      });
      let mcpErr = '';
      transport.stderr?.on('data', (d) => (mcpErr += d));
      const mcp = new Client({ name: 'shared-test', version: '1.0.0' });
      await mcp.connect(transport);
      const { tools } = await mcp.listTools();
      assert.ok(tools.some((t) => t.name === 'industries_list'));
      const result = await mcp.callTool({ name: 'industries_list', arguments: {} });
      assert.notEqual(result.isError, true, JSON.stringify(result));
      await mcp.close();
      assert.match(mcpErr, THROUGH_SERVER);

      assert.equal((await fetch(`${base}/readyz`)).status, 200, 'the server is still ready');
    } finally {
      server.child.kill('SIGTERM');
      const code = await server.exited;
      assert.equal(code, 0, server.output());
      assert.equal(fs.existsSync(path.join(dataDir, 'run', '.s.PGSQL.5432')), false, 'the socket is removed on shutdown');
      // With no server, a command opens the folder itself and says so.
      const direct = await cli(relativeDir, ['migrate']);
      assert.equal(direct.code, 0, direct.stderr);
      assert.match(direct.stderr, /opened the embedded database in .* directly/);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
