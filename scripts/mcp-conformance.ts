// CI: the real server's MCP door checked by the official tools. Starts `stacklens serve` on
// a free port with the embedded database and a small demo world, then runs
//   1. the MCP conformance suite's server scenarios that apply to a product server
//      (@modelcontextprotocol/conformance: initialize, ping, tools-list, the two SSE stream
//      scenarios, DNS-rebinding protection), through a proxy that adds the API key (the
//      suite cannot send headers) and maps its own address to the server's in Host and
//      Origin, as a reverse proxy does, leaving any other Host or Origin as sent;
//   2. the MCP Inspector in CLI mode (@modelcontextprotocol/inspector): tools/list of every
//      tool (?tools=all) with --strict (tool-schema portability), then one call of each read-only tool;
//   3. the suite's authorization-server scenarios (a newer release of the same package: the
//      metadata endpoint, and the authorization code grant with PKCE), against the server's
//      sign-in for people: a client registered dynamically, and headless Chromium as the
//      person's browser signing in as the demo admin and allowing the client on the consent page.
// Any FAILURE, any WARNING not listed in ALLOWED_WARNINGS, a failed Inspector command or a
// tool call answered with isError fails the run (exit 1).
//
// Both tools need Node >= 22 while the server runs on the machine's Node 20: a Node 22 is
// taken from the npm registry (the `node` package) into MCP_TOOLS_DIR (default
// $TMPDIR/stacklens-mcp-tools) with the two tools, at pinned versions; later runs reuse it.
//
//   node --import tsx scripts/mcp-conformance.ts
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const NODE_VERSION = '22.23.3';
const CONFORMANCE = { name: '@modelcontextprotocol/conformance', version: '0.1.16' };
const INSPECTOR = { name: '@modelcontextprotocol/inspector', version: '2.12.0' };
/** The first release with authorization-server scenarios (`conformance authorization`), pinned. */
const AUTH_CONFORMANCE = { name: '@modelcontextprotocol/conformance', version: '0.2.0-alpha.12' };
/**
 * Authorization warnings accepted, each for a stated reason: Client ID Metadata Documents (a
 * client_id that is a URL to its metadata, MCP 2025-11-25) are not supported yet — clients
 * register dynamically (RFC 7591) — so the metadata does not claim them.
 */
const ALLOWED_AUTH_WARNINGS = new Set(['authorization-server-metadata-cimd']);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The suite's server scenarios that apply: the others test features a product server does not have (sampling, elicitation, demo prompts and resources). */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'server-sse-polling', 'server-sse-multiple-streams', 'dns-rebinding-protection'];

/**
 * Warnings accepted, each for a stated reason. `server-sse-polling` asks for a
 * `test_reconnection` tool (a conformance fixture, not ours) and, without it, for
 * resumption of a closed POST reply through GET with its priming event's id as
 * Last-Event-ID: GET /mcp resumes the session's own stream (docs/mcp.md), whose messages are
 * kept, but a POST reply is one message that is not kept, so its id is unknown there (400).
 *
 * The suite's auth/* scenarios are client scenarios (an MCP client against the suite's own
 * authorization server); its authorization-server scenarios run in part 3.
 */
const ALLOWED_WARNINGS = new Set(['server-sse-test-reconnection-tool', 'server-sse-disconnect-resume']);

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const log = (line: string) => console.log(`[mcp-conformance] ${line}`);

interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
}

/** Installs and version checks: nothing else runs meanwhile. */
function run(cmd: string, args: string[], options: RunOptions = {}) {
  const res = spawnSync(cmd, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 180_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: res.status, stdout: res.stdout ?? '', stderr: res.stderr ?? '' };
}

/** The tools under test: asynchronous, since this process also runs the proxy they talk to. */
function runAsync(cmd: string, args: string[], options: RunOptions = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${(options.timeoutMs ?? 120_000) / 1000} s)`;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** A Node 22 binary from the npm registry, installed once into `dir`. */
function ensureNode22(dir: string): string {
  const nodeDir = path.join(dir, `node-${NODE_VERSION}`);
  const candidates = [
    path.join(nodeDir, 'node_modules', 'node', 'bin', 'node'),
    path.join(nodeDir, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node'),
  ];
  const working = () => candidates.find((bin) => fs.existsSync(bin) && run(bin, ['--version']).stdout.trim() === `v${NODE_VERSION}`);
  let bin = working();
  if (bin) return bin;
  fs.mkdirSync(nodeDir, { recursive: true });
  log(`installing Node ${NODE_VERSION} from the npm registry into ${nodeDir}`);
  // The `node` package fetches its platform binary in a preinstall script; where scripts
  // are not run, the platform package (the same binary) is installed directly.
  run('npm', ['install', '--prefix', nodeDir, '--no-save', '--no-audit', '--no-fund', `node@${NODE_VERSION}`]);
  bin = working();
  if (!bin) run('npm', ['install', '--prefix', nodeDir, '--no-save', '--no-audit', '--no-fund', `node-${process.platform}-${process.arch}@${NODE_VERSION}`]);
  bin = working();
  if (!bin) throw new Error(`could not install Node ${NODE_VERSION} from the npm registry into ${nodeDir}`);
  return bin;
}

/** The two tools, installed once into `dir` by npm running on Node 22 (so their engines resolve for it). */
function ensureTools(dir: string, node22: string): { conformance: string; inspector: string } {
  const toolsDir = path.join(dir, `tools-${CONFORMANCE.version}-${INSPECTOR.version}`);
  const conformance = path.join(toolsDir, 'node_modules', CONFORMANCE.name, 'dist', 'index.js');
  const inspector = path.join(toolsDir, 'node_modules', INSPECTOR.name, 'clients', 'launcher', 'build', 'index.js');
  if (fs.existsSync(conformance) && fs.existsSync(inspector)) return { conformance, inspector };
  fs.mkdirSync(toolsDir, { recursive: true });
  log(`installing ${CONFORMANCE.name}@${CONFORMANCE.version} and ${INSPECTOR.name}@${INSPECTOR.version} into ${toolsDir}`);
  const env = { ...process.env, PATH: `${path.dirname(node22)}${path.delimiter}${process.env.PATH}` };
  const res = run(
    'npm',
    [
      'install',
      '--prefix',
      toolsDir,
      '--no-save',
      '--no-audit',
      '--no-fund',
      `${CONFORMANCE.name}@${CONFORMANCE.version}`,
      `${INSPECTOR.name}@${INSPECTOR.version}`,
    ],
    { env, timeoutMs: 300_000 },
  );
  if (!fs.existsSync(conformance) || !fs.existsSync(inspector)) throw new Error(`npm install of the MCP tools failed:\n${res.stderr}`);
  return { conformance, inspector };
}

/** The conformance release with authorization-server scenarios, installed once into `dir`. */
function ensureAuthConformance(dir: string, node22: string): string {
  const toolsDir = path.join(dir, `auth-${AUTH_CONFORMANCE.version}`);
  const bin = path.join(toolsDir, 'node_modules', AUTH_CONFORMANCE.name, 'dist', 'index.js');
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(toolsDir, { recursive: true });
  log(`installing ${AUTH_CONFORMANCE.name}@${AUTH_CONFORMANCE.version} into ${toolsDir}`);
  const env = { ...process.env, PATH: `${path.dirname(node22)}${path.delimiter}${process.env.PATH}` };
  const res = run('npm', ['install', '--prefix', toolsDir, '--no-save', '--no-audit', '--no-fund', `${AUTH_CONFORMANCE.name}@${AUTH_CONFORMANCE.version}`], {
    env,
    timeoutMs: 300_000,
  });
  if (!fs.existsSync(bin)) throw new Error(`npm install of ${AUTH_CONFORMANCE.name}@${AUTH_CONFORMANCE.version} failed:\n${res.stderr}`);
  return bin;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitReady(url: string, server: ReturnType<typeof spawn>, output: () => string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server was not ready within ${timeoutMs / 1000} s:\n${output()}`);
}

/**
 * A reverse proxy in front of the server: adds the API key, and rewrites its own authority
 * (any loopback name with its port) to the server's in Host and Origin, as a proxy set to
 * forward the backend's host does. Other Host and Origin values pass unchanged, so the
 * server's DNS-rebinding check sees what the suite sent.
 */
function startProxy(proxyPort: number, serverPort: number, apiKey: string): Promise<http.Server> {
  const own = new RegExp(`^(127\\.0\\.0\\.1|localhost|\\[::1\\]):${proxyPort}$`, 'i');
  const mapAuthority = (value: string) => value.replace(own, `$1:${serverPort}`);
  const proxy = http.createServer((req, res) => {
    const headers = { ...req.headers, 'x-api-key': apiKey };
    if (typeof headers.host === 'string') headers.host = mapAuthority(headers.host);
    if (typeof headers.origin === 'string')
      headers.origin = headers.origin.replace(/^(https?:\/\/)(.*)$/i, (_m, scheme: string, rest: string) => scheme + mapAuthority(rest));
    const upstream = http.request({ host: '127.0.0.1', port: serverPort, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(proxyPort, '127.0.0.1', () => resolve(proxy)));
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  description?: string;
  errorMessage?: string;
}

function collectChecks(dir: string): Check[] {
  const checks: Check[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name === 'checks.json') checks.push(...(JSON.parse(fs.readFileSync(p, 'utf8')) as Check[]));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return checks;
}

async function runConformance(node22: string, conformance: string, mcpUrl: string, work: string): Promise<string[]> {
  const problems: string[] = [];
  for (const scenario of SCENARIOS) {
    const out = path.join(work, 'conformance', scenario);
    const res = await runAsync(node22, [conformance, 'server', '--url', mcpUrl, '--scenario', scenario, '-o', out], { timeoutMs: 120_000 });
    const checks = collectChecks(out);
    const counts = new Map<string, number>();
    for (const c of checks) counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
    log(`conformance ${scenario}: ${[...counts].map(([s, n]) => `${n} ${s}`).join(', ') || 'no checks'} (exit ${res.status})`);
    for (const c of checks) {
      if (c.status === 'FAILURE') problems.push(`conformance ${scenario}: FAILURE ${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
      else if (c.status === 'WARNING' && !ALLOWED_WARNINGS.has(c.id))
        problems.push(`conformance ${scenario}: WARNING ${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
      else if (c.status === 'WARNING') log(`  accepted warning ${c.id}: ${c.errorMessage ?? ''}`);
    }
    if (checks.length === 0)
      problems.push(`conformance ${scenario}: no checks recorded (exit ${res.status}): ${res.stderr.slice(-2000)}${res.stdout.slice(-2000)}`);
    else if (res.status !== 0 && !problems.some((p) => p.startsWith(`conformance ${scenario}:`)))
      problems.push(`conformance ${scenario}: exit ${res.status}: ${res.stdout.slice(-2000)}`);
  }
  return problems;
}

/** Arguments for one call of a tool: real values of the demo world by parameter name, else the schema's examples, enums or defaults. */
function argumentsFor(schema: { properties?: Record<string, any>; required?: string[] }, world: Record<string, string>): Record<string, string> | undefined {
  const args: Record<string, string> = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const required = schema.required?.includes(name) ?? false;
    let value: unknown = world[name];
    if (value === undefined && name === 'onBehalfOfUser') value = 'ci@example.com';
    if (value === undefined && required) value = prop?.examples?.[0] ?? prop?.enum?.[0] ?? prop?.default;
    if (value === undefined) {
      if (required) return undefined;
      continue;
    }
    args[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return args;
}

/** The first value of a property with this name, anywhere in a JSON document. */
function firstValue(doc: unknown, key: string): string | undefined {
  if (Array.isArray(doc)) {
    for (const item of doc) {
      const v = firstValue(item, key);
      if (v !== undefined) return v;
    }
  } else if (doc && typeof doc === 'object') {
    const record = doc as Record<string, unknown>;
    if (typeof record[key] === 'string') return record[key] as string;
    for (const v of Object.values(record)) {
      const found = firstValue(v, key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

async function demoWorldValues(baseUrl: string, apiKey: string): Promise<Record<string, string>> {
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api${p}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} /api${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const companies = await api('POST', '/companies/search', { size: 2 });
  const [companyDomain, peerDomain] = [firstValue(companies, 'domain'), firstValue((companies as { content?: unknown[] }).content?.slice(1), 'domain')];
  if (!companyDomain || !peerDomain) throw new Error('the demo world has fewer than two companies');
  const products = await api('GET', `/companies/${encodeURIComponent(companyDomain)}/products`);
  const productId = firstValue(products, 'productId') ?? firstValue(products, 'id');
  const productName = firstValue(products, 'product') ?? firstValue(products, 'productName');
  const vendorDomain = firstValue(await api('GET', '/vendors'), 'domain');
  const profileId = firstValue(await api('POST', '/profiles/search', { companyDomains: [companyDomain] }), 'id');
  if (!productId || !productName || !vendorDomain || !profileId) throw new Error(`the demo world lacks a product, vendor or profile of ${companyDomain}`);
  // An account list of the two companies, for the tools that read one.
  const listId = firstValue(await api('POST', '/lists', { name: 'CI accounts', rows: [{ domain: companyDomain }, { domain: peerDomain }] }), 'id');
  if (!listId) throw new Error('POST /api/lists answered no list id');
  const values: Record<string, string> = {
    companyDomain,
    domain: companyDomain,
    companyDomains: JSON.stringify([companyDomain]),
    cohortCompanyDomain: JSON.stringify([peerDomain]),
    productId,
    productIds: JSON.stringify([productId]),
    vendorDomain,
    profileId,
    listId,
    // Domains to enrich and lookalike seeds (find_lookalikes takes exactly one kind of seed: not the list).
    domains: JSON.stringify([companyDomain]),
    seedDomains: JSON.stringify([companyDomain, peerDomain]),
    q: productName,
    // One prompt for the three AI tools: a title for the people helper (a product alone names
    // no people: 404), a product for the customers and tech-stack helpers.
    prompt: `Managers at companies using ${productName}`,
  };
  return values;
}

async function runInspector(
  node22: string,
  inspector: string,
  mcpUrl: string,
  baseUrl: string,
  apiKey: string,
  work: string,
  siteUrl: string,
): Promise<string[]> {
  const problems: string[] = [];
  // The Inspector keeps a catalog and secrets under HOME; a scratch HOME keeps CI's clean.
  const env = { ...process.env, HOME: path.join(work, 'inspector-home') };
  // `?tools=all`: every tool listed (the default list is the short one, with more_tools), so every schema is checked.
  const cli = (...args: string[]) =>
    runAsync(node22, [inspector, '--cli', `${mcpUrl}?tools=all`, '--transport', 'http', '--header', `X-API-Key: ${apiKey}`, ...args], {
      env,
      timeoutMs: 60_000,
    });

  const list = await cli('--method', 'tools/list', '--strict');
  if (list.status !== 0) return [`inspector tools/list --strict: exit ${list.status}: ${list.stderr.slice(-3000)}`];
  const tools = (JSON.parse(list.stdout) as { tools: { name: string; inputSchema: any; annotations?: { readOnlyHint?: boolean } }[] }).tools;
  log(`inspector tools/list --strict: ${tools.length} tools, no portability error`);
  const world = { ...(await demoWorldValues(baseUrl, apiKey)), url: siteUrl };
  for (const tool of tools.filter((t) => t.annotations?.readOnlyHint === true)) {
    const args = argumentsFor(tool.inputSchema, world);
    if (!args) {
      problems.push(`inspector tools/call ${tool.name}: no value for a required argument (add it to demoWorldValues)`);
      continue;
    }
    const pairs = Object.entries(args).map(([k, v]) => `${k}=${v}`);
    const call = await cli('--method', 'tools/call', '--tool-name', tool.name, ...(pairs.length > 0 ? ['--tool-arg', ...pairs] : []));
    let result: { isError?: boolean; content?: { text?: string }[] } | undefined;
    try {
      result = JSON.parse(call.stdout);
    } catch {
      result = undefined;
    }
    if (call.status !== 0 || !result)
      problems.push(`inspector tools/call ${tool.name} ${pairs.join(' ')}: exit ${call.status}: ${(call.stderr || call.stdout).slice(-2000)}`);
    else if (result.isError) problems.push(`inspector tools/call ${tool.name} ${pairs.join(' ')}: isError: ${result.content?.[0]?.text?.slice(0, 500)}`);
    else log(`inspector tools/call ${tool.name}: ok (${call.stdout.length} characters)`);
  }
  return problems;
}

/**
 * The authorization-server scenarios: a public client registered with the server (RFC 7591)
 * for the suite's callback, then the suite run with it. The code grant prints the authorization
 * URL and waits for its callback: headless Chromium opens it, signs in as the demo admin on the
 * console's sign-in page and allows the client on the consent page, which sends the browser to
 * the suite's callback with the code; the suite exchanges it (PKCE) and checks the token.
 */
async function runAuthorization(node22: string, bin: string, baseUrl: string, admin: { email: string; password: string }, work: string): Promise<string[]> {
  const problems: string[] = [];
  const callbackPort = await freePort();
  const registered = await fetch(`${baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'MCP conformance suite',
      redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`],
      token_endpoint_auth_method: 'none',
    }),
  });
  if (registered.status !== 201) return [`authorization: registering the suite's client answered ${registered.status}: ${await registered.text()}`];
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  try {
    // Every authorization scenario in one run: the code grant reads the metadata scenario's result.
    const out = path.join(work, 'authorization');
    const args = [bin, 'authorization', '--url', baseUrl, '--client-id', clientId, '--resource', `${baseUrl}/mcp`, '-p', String(callbackPort), '-o', out];
    const child = spawn(node22, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let browsed: Promise<void> | undefined;
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      const url = stdout.match(new RegExp(`${baseUrl.replace(/[.]/g, '\\.')}/oauth/authorize\\?\\S+`))?.[0];
      if (url && !browsed)
        browsed = consentInBrowser(browser, url, admin).catch((err: unknown) => void problems.push(`authorization: the browser: ${String(err)}`));
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    await browsed;
    const checks = collectChecks(out);
    log(`authorization: ${checks.map((c) => `${c.id} ${c.status}`).join(', ') || 'no checks'} (exit ${status})`);
    for (const c of checks) {
      if (c.status === 'FAILURE' || (c.status === 'WARNING' && !ALLOWED_AUTH_WARNINGS.has(c.id)))
        problems.push(`authorization: ${c.status} ${c.id}: ${c.errorMessage ?? ''}`);
      else if (c.status === 'WARNING') log(`  accepted warning ${c.id}: ${c.errorMessage ?? ''}`);
    }
    if (!checks.some((c) => c.id === 'authorization-code-grant' && c.status === 'SUCCESS'))
      problems.push(`authorization: the code grant did not succeed (exit ${status}): ${stderr.slice(-2000)}${stdout.slice(-2000)}`);
  } finally {
    await browser.close();
  }
  return problems;
}

/** The person's part of the code grant: sign in on the console's page, then Allow. */
async function consentInBrowser(browser: import('playwright-core').Browser, url: string, admin: { email: string; password: string }): Promise<void> {
  const context = await browser.newContext();
  context.setDefaultTimeout(60_000);
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/\/callback\?/);
  } finally {
    await context.close();
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  const toolsDir = process.env.MCP_TOOLS_DIR || path.join(os.tmpdir(), 'stacklens-mcp-tools');
  const node22 = ensureNode22(toolsDir);
  const { conformance, inspector } = ensureTools(toolsDir, node22);
  const authConformance = ensureAuthConformance(toolsDir, node22);
  log(`Node ${NODE_VERSION} at ${node22}; tools ready (${Math.round((Date.now() - started) / 1000)} s)`);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stacklens-mcp-conformance-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      DATA_DIR: path.join(work, 'data'),
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      DEMO_COMPANIES: '200',
      MCP_MAX_SESSIONS_PER_CLIENT: '1000',
      // detect_technologies fetches a page: the local one below, since nothing leaves the machine.
      DETECT_ALLOW_PRIVATE_NETWORKS: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));
  let proxy: http.Server | undefined;
  // The site detect_technologies is called on: a page with a WordPress generator tag.
  const site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><head><meta name="generator" content="WordPress 6.5.2"></head><body>CI</body></html>');
  });
  const sitePort = await freePort();
  await new Promise<void>((resolve) => site.listen(sitePort, '127.0.0.1', resolve));
  try {
    await waitReady(baseUrl, server, () => output);
    log(`server ready on ${baseUrl} (embedded database, 200-company demo world)`);
    const apiKey = (JSON.parse(fs.readFileSync(path.join(work, 'data', 'demo-client.json'), 'utf8')) as { api_key: string }).api_key;
    const proxyPort = await freePort();
    proxy = await startProxy(proxyPort, port, apiKey);

    // The demo world's first admin, as the first start prints it.
    const admin = output.match(/as (\S+@\S+) with password (\S+)/);
    const problems = [
      ...(await runConformance(node22, conformance, `http://127.0.0.1:${proxyPort}/mcp`, work)),
      ...(await runInspector(node22, inspector, `${baseUrl}/mcp`, baseUrl, apiKey, work, `http://127.0.0.1:${sitePort}/`)),
      ...(admin
        ? await runAuthorization(node22, authConformance, baseUrl, { email: admin[1]!, password: admin[2]! }, work)
        : ['authorization: the server did not print the first admin (demo mode, first start)']),
    ];
    log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
    if (problems.length > 0) {
      console.error(`[mcp-conformance] ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
      return 1;
    }
    log('all conformance scenarios and Inspector calls passed');
    return 0;
  } finally {
    proxy?.close();
    site.close();
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('[mcp-conformance] error:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
