// Sign-in for people, end to end, as a hosted MCP client does it: the MCP SDK's own OAuth
// client (an OAuthClientProvider on StreamableHTTPClientTransport) against a real server on a
// real port — discovery from the 401 (RFC 9728 → RFC 8414), dynamic registration, PKCE — with
// headless Debian Chromium (playwright-core) as the person's browser: the console's sign-in,
// the consent screen, Allow and Deny; then tools called as the person, within their role.
// Without Chromium this file fails loudly (apt-get install -y chromium), never skips.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../../src/services/console-users.ts';

const PASSWORD = 'oauth-browser-password-1';
// The client's redirect URI: nothing listens there; the browser's request to it is caught.
const CALLBACK = 'http://127.0.0.1:7799/callback';
const USERS = {
  analyst: { email: 'ana@oauth.test', name: 'Ana Analyst', role: 'analyst' },
  viewer: { email: 'vic@oauth.test', name: 'Vic Viewer', role: 'viewer' },
} as const;

let t: TestApp;
let browser: Browser;
let base: string;

before(async () => {
  // PUBLIC_URL must be the address the client reaches (the resource and issuer are built from it).
  let lastError: unknown;
  for (let attempt = 0; attempt < 20 && !base; attempt++) {
    const port = 7700 + Math.floor(Math.random() * 90);
    const url = `http://127.0.0.1:${port}`;
    t = await createTestApp({ env: { PUBLIC_URL: url, MCP_ALLOWED_HOSTS: `127.0.0.1:${port}` } });
    try {
      await t.app.listen({ port, host: '127.0.0.1' });
      base = url;
    } catch (err) {
      lastError = err;
      await t.close();
    }
  }
  assert.ok(base, `no free port in 7700-7789: ${String(lastError)}`);
  for (const u of Object.values(USERS)) await createUser(t.db, { ...u, password: PASSWORD });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await t?.close();
});

/** An MCP client application's OAuth state, in memory, as the SDK asks for it. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  get redirectUrl() {
    return CALLBACK;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK Test Agent',
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext();
  context.setDefaultTimeout(60_000);
  return context;
}

/**
 * Opens the authorization URL the SDK produced and answers the consent screen; returns the
 * callback URL the browser was sent to (nothing listens there: the request is caught).
 */
async function authorizeInBrowser(context: BrowserContext, url: URL, who: keyof typeof USERS | null, decision: 'Allow' | 'Deny') {
  const page = await context.newPage();
  page.on('pageerror', (err) => assert.fail(`page error: ${err.message}`));
  let callback: URL | undefined;
  await page.route(`${CALLBACK}**`, (route) => {
    callback = new URL(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' });
  });
  await page.goto(url.toString());
  if (who) {
    // Not signed in: the console's sign-in page, which continues to the consent screen.
    await page.getByLabel('Email').fill(USERS[who].email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('heading', { name: /Allow SDK Test Agent to use Stacklens as you\?/ }).waitFor();
  const scopes = await page.locator('#scopes li').allInnerTexts();
  assert.equal(scopes.length, 2);
  assert.match(scopes[0]!, /^read: /);
  assert.match(scopes[1]!, /^write: /);
  await page.getByRole('button', { name: decision }).click();
  await page.waitForURL(`${CALLBACK}**`);
  await page.close();
  assert.ok(callback, 'the browser was sent back to the client');
  return callback;
}

/** Connects the SDK client: the first attempt asks for authorization; the browser gives it. */
async function signedInClient(context: BrowserContext, who: keyof typeof USERS | null) {
  const provider = new MemoryProvider();
  const first = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
  await assert.rejects(new Client({ name: 'agent', version: '1' }).connect(first), UnauthorizedError);
  assert.ok(provider.info?.client_id.startsWith('oac_'), 'the SDK registered itself (RFC 7591)');
  const url = provider.authorizationUrl!;
  assert.equal(url.origin + url.pathname, `${base}/oauth/authorize`);
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(url.searchParams.get('resource'), `${base}/mcp`);
  const callback = await authorizeInBrowser(context, url, who, 'Allow');
  assert.equal(callback.searchParams.get('iss'), base);
  await first.finishAuth(callback.searchParams.get('code')!);
  assert.ok(provider.saved?.refresh_token, 'a refresh token came with the access token');
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
  return { client, provider };
}

test('the MCP SDK OAuth client signs an analyst in through the console and consent; tools run as the person', async () => {
  const context = await newContext();
  const { client, provider } = await signedInClient(context, 'analyst');
  const tools = await client.listTools();
  // The short list (lists_upload is reached by name or through more_tools).
  assert.ok(tools.tools.some((tool) => tool.name === 'more_tools'));
  const balance = await client.callTool({ name: 'credits_balance', arguments: {} });
  assert.equal(balance.isError, undefined, JSON.stringify(balance.content));
  const upload = await client.callTool({ name: 'lists_upload', arguments: { name: 'From the agent', rows: [{ domain: 'example.com' }] } });
  assert.equal(upload.isError, undefined, JSON.stringify(upload.content));
  await client.close();

  // The SDK refreshes with the refresh token when the access token is refused: here, an
  // access token made unusable leaves the client to refresh and go on.
  const refreshToken = provider.saved!.refresh_token;
  provider.saved = { ...provider.saved!, access_token: 'a.b.c' };
  const again = new Client({ name: 'agent', version: '1' });
  await again.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
  assert.notEqual(provider.saved!.refresh_token, refreshToken, 'the refresh token rotated');
  assert.equal((await again.callTool({ name: 'credits_balance', arguments: {} })).isError, undefined);
  await again.close();
  await context.close();
});

test('a viewer already signed in goes straight to consent; Deny answers access_denied; Allow gives read-only tools', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await page.goto(`${base}/console`);
  await page.getByLabel('Email').fill(USERS.viewer.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await page.close();

  const provider = new MemoryProvider();
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
  await assert.rejects(new Client({ name: 'agent', version: '1' }).connect(transport), UnauthorizedError);
  const denied = await authorizeInBrowser(context, provider.authorizationUrl!, null, 'Deny');
  assert.equal(denied.searchParams.get('error'), 'access_denied');
  assert.equal(denied.searchParams.get('code'), null);

  const { client } = await signedInClient(context, null);
  assert.equal((await client.callTool({ name: 'credits_balance', arguments: {} })).isError, undefined);
  const upload = await client.callTool({ name: 'lists_upload', arguments: { name: 'Not mine to make', rows: [{ domain: 'example.com' }] } });
  assert.equal(upload.isError, true);
  assert.match(JSON.stringify(upload.content), /Role 'analyst' is required for createList.*your role is 'viewer'/);
  await client.close();
  await context.close();
});
