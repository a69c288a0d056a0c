// The console's account-list screens in a real browser (headless Debian Chromium driven by
// playwright-core, as console.browser.test.ts) against a real server on PGlite with a small demo
// world: a CSV uploaded through the file picker shows the match rate and the miss reasons the
// API reports; a row in review accepted from the keyboard leaves the queue; a re-upload shows
// its diff; the enrichment of the list downloads as CSV; lookalikes of the list show their
// reasons ("… of 5 seeds"); and a console whose plan has no export permission sees the
// enrichment refused in a sentence. axe-core on each screen. Without Chromium it fails loudly.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { checkA11y, consoleApi as api, fillSignIn, launchChromium } from '../helpers/browser.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listenInRange } from '../helpers/ports.ts';
import { insertWorld } from '../helpers/fixtures.ts';
import { ensureDemoWorld } from '../../src/ingest/demo.ts';
import { createUser } from '../../src/services/console-users.ts';
import { CONSOLE_CLIENT_ID } from '../../src/auth/console-client.ts';
import type { AccountList, ListRow } from '../../src/schemas/lists.ts';

const SHOTS = process.env.SCREENSHOTS_DIR ? resolve(process.env.SCREENSHOTS_DIR) : join(tmpdir(), 'stacklens-console-shots');
const PASSWORD = 'console-test-password-1';
const USERS = {
  admin: { email: 'admin@lists.test', name: 'Ada Admin', role: 'admin' },
  analyst: { email: 'analyst@lists.test', name: 'Ana Analyst', role: 'analyst' },
} as const;

let t: TestApp;
let browser: Browser;
let base: string;
/** Four companies of the demo world, by domain. */
let known: string[];

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  t = await createTestApp({ env: { SEED_DEMO: 'true', DEMO_COMPANIES: '60' } });
  await ensureDemoWorld(t.db, t.app.config, () => {});
  // Two companies of one name in two countries: a row naming it without a country is ambiguous.
  await insertWorld(t.db, {
    companies: [
      { id: 'cmp_umbrella_fr', domain: 'umbrella.fr', name: 'Umbrella Pharma', country: 'FR' },
      { id: 'cmp_umbrella_it', domain: 'umbrella-pharma.it', name: 'Umbrella Pharma', country: 'IT' },
    ],
  });
  const rows = await t.db.query<{ domain: string }>(`SELECT domain FROM companies WHERE id NOT LIKE 'cmp_umbrella%' ORDER BY id LIMIT 4`);
  known = rows.map((r) => r.domain);
  for (const u of Object.values(USERS)) await createUser(t.db, { ...u, password: PASSWORD });
  const port = await listenInRange((p) => t.app.listen({ port: p, host: '127.0.0.1' }));
  base = `http://127.0.0.1:${port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await t?.close();
});

async function signIn(who: keyof typeof USERS): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  // Generous waits: the suite shares 2 cores with other work (no timing is asserted here).
  context.setDefaultTimeout(90_000);
  const page = await context.newPage();
  page.on('pageerror', (err) => assert.fail(`page error: ${err.message}`));
  await page.goto(`${base}/console`, { waitUntil: 'domcontentloaded' });
  await fillSignIn(page, USERS[who].email, PASSWORD);
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

const csvFile = (name: string, lines: string[]) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });

let listId: string;

test("upload a CSV: the match rate and miss reasons shown are the API's; rows by status; the review queue; a new version and its diff", async () => {
  const page = await signIn('analyst');
  await page.getByRole('link', { name: 'Lists', exact: true }).click();
  await page.locator('#upload-list-title').waitFor();
  await page.getByText('No list yet').waitFor();
  await checkA11y(page, 'lists');
  await page
    .getByLabel('File')
    .setInputFiles(
      csvFile('won.csv', [
        'domain,name,country,owner',
        `www.${known[0]},,,kim`,
        `https://${known[1]}/about,,,lee`,
        `${known[2]},,,max`,
        `${known[3]},,,ann`,
        'no-such-company.example,,,zoe',
        ',Umbrella Pharma,,sam',
        ',,,nil',
      ]),
    );
  await page.getByLabel('Name', { exact: true }).fill('Won customers');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.waitForURL(/#\/lists\/lst_/u);
  listId = /#\/lists\/(lst_[^/?]+)/u.exec(page.url())![1]!;
  const list = (await api<AccountList>(page, 'GET', `/api/lists/${listId}`)).body;
  assert.deepEqual([list.rows, list.matched, list.review, list.unmatched], [7, 4, 1, 2], JSON.stringify(list));
  assert.match(await page.locator('.match-rate').innerText(), new RegExp(`^${Math.round(list.matchRate * 1000) / 10} %\\s+matched`, 'u'));
  const reasons = await page.locator('table.miss-reasons tbody tr').allInnerTexts();
  assert.deepEqual(reasons.map((r) => r.replace(/\s+/gu, ' ').trim()).sort(), ['Ambiguous (in review) 1', 'Domain not on record 1', 'No domain or name 1']);
  await checkA11y(page, 'list');
  await shot(page, 'list');

  // Rows by status.
  await page.getByRole('navigation', { name: 'Rows by status' }).getByRole('link', { name: 'Unmatched' }).click();
  await page.waitForURL(/status=unmatched/u);
  // The rows of the last view stay until the new ones are in (busy until then).
  await page.locator('.list-rows[aria-busy="false"] table tbody tr', { hasText: 'no-such-company.example' }).waitFor();
  assert.equal(await page.locator('.list-rows table tbody tr').count(), 2);

  // The review queue: accept the best candidate from the keyboard; the row leaves the queue.
  await page.getByRole('link', { name: 'Review (1)' }).click();
  const item = page.locator('li.review-item', { hasText: 'Umbrella Pharma' });
  await item.waitFor();
  assert.equal(await item.locator('tbody tr').count(), 2, 'both companies are candidates');
  await checkA11y(page, 'review queue');
  await shot(page, 'list-review');
  const accept = item.getByRole('button', { name: /^Accept/u });
  await accept.focus();
  await page.keyboard.press('Enter');
  await page.getByText('Nothing waits for review.').waitFor();
  await page.getByRole('link', { name: 'Review (0)' }).waitFor();
  const rows = (await api<{ content: ListRow[] }>(page, 'GET', `/api/lists/${listId}/rows?status=matched&size=50`)).body.content;
  const decided = rows.find((r) => r.name === 'Umbrella Pharma');
  assert.equal(decided?.method, 'review', JSON.stringify(rows));
  assert.match(await page.locator('.match-rate').innerText(), /^71\.4 %\s+matched/u);

  // A new version: one row dropped, one added; the diff says so.
  await page.getByRole('link', { name: 'Versions (1)' }).click();
  await page.locator('.diff-summary', { hasText: 'Version 1, the first upload' }).waitFor();
  await page
    .getByLabel('File')
    .setInputFiles(
      csvFile('won-v2.csv', [
        'domain,name,country,owner',
        `${known[0]},,,kim`,
        `${known[1]},,,lee`,
        `${known[2]},,,max`,
        `${known[3]},,,bob`,
        'umbrella.fr,,,sam',
      ]),
    );
  await page.getByRole('button', { name: 'Upload version' }).click();
  await page.waitForURL(/versions\?v=2/u);
  const summary = page.locator('.diff-summary', { hasText: 'Version 2 against version 1' });
  await summary.waitFor();
  const diff = (await api<{ added: number; removed: number; changed: number }>(page, 'GET', `/api/lists/${listId}/versions/2/diff`)).body;
  assert.match(await summary.innerText(), new RegExp(`${diff.added} added, ${diff.removed} removed, ${diff.changed} changed`, 'u'));
  assert.ok(diff.changed >= 1 && diff.removed >= 1, JSON.stringify(diff));
  await page.locator('table tbody tr', { hasText: 'no-such-company.example' }).first().waitFor();
  await checkA11y(page, 'versions');
  await page.context().close();
});

test('enrich the list: the download starts and holds one row per matched company', async () => {
  const page = await signIn('analyst');
  await page.goto(`${base}/console#/lists/${listId}/enrich`);
  await page.locator('#enrich-title').waitFor();
  await page.getByLabel('City').check();
  await checkA11y(page, 'enrich');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Enrich and download' }).click()]);
  assert.equal(download.suggestedFilename(), 'won-customers-enriched.csv');
  const rows = parse(readFileSync((await download.path())!, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const list = (await api<AccountList>(page, 'GET', `/api/lists/${listId}`)).body;
  assert.equal(rows.length, list.matched);
  assert.ok('city' in rows[0]!, 'the column picked is in the file');
  assert.deepEqual(rows.map((r) => r.domain).sort(), [...known, 'umbrella.fr'].sort());
  await page.getByText('won-customers-enriched.csv downloaded').waitFor();
  await page.context().close();
});

test('lookalikes of the list: ranked companies, each with the signals it shares with the seeds', async () => {
  const page = await signIn('analyst');
  await page.goto(`${base}/console#/lists/${listId}`);
  await page.getByRole('link', { name: 'Find lookalikes' }).click();
  await page.waitForURL(/#\/lookalikes\?seedList=lst_/u);
  const first = page.locator('ol.lookalike-list > li').first();
  await first.waitFor();
  const answer = (
    await api<{ seeds: { count: number }; content: { domain: string; matches: unknown[]; sharedSignals: unknown[] }[] }>(
      page,
      'POST',
      '/api/companies/lookalikes',
      {
        seedListId: listId,
        size: 20,
      },
    )
  ).body;
  assert.equal(answer.seeds.count, 5);
  assert.match(await first.locator('h3').innerText(), new RegExp(answer.content[0]!.domain.replace(/\./gu, '\\.'), 'u'));
  const reasons = await first.locator('ul.explanation li').allInnerTexts();
  assert.equal(reasons.length, answer.content[0]!.sharedSignals.length + answer.content[0]!.matches.length);
  assert.ok(
    reasons.every((r) => / of 5 seeds$/u.test(r)),
    reasons.join(' | '),
  );
  assert.ok((await page.locator('ol.lookalike-list > li').count()) > 0);
  for (const seed of known) assert.equal(await page.locator('ol.lookalike-list h3', { hasText: seed }).count(), 0, `the seed ${seed} is left out`);
  await checkA11y(page, 'lookalikes');
  await shot(page, 'lookalikes');

  // By domains instead, from the same form.
  await page.getByLabel('Company domains').check();
  await page.getByLabel('Seed domains').fill(`${known[0]}, ${known[1]}`);
  await page.getByRole('button', { name: 'Find lookalikes' }).click();
  await page.waitForURL(/#\/lookalikes\?domains=/u);
  await page.locator('.seeds-summary', { hasText: /^2 seeds/u }).waitFor();
  await page.context().close();
});

test('a console whose plan has no export permission, or too few rows per day, sees the enrichment refused in words', async () => {
  const admin = await signIn('admin');
  const setPlan = async (plan: string) => assert.equal((await api(admin, 'POST', `/api/admin/clients/${CONSOLE_CLIENT_ID}`, { plan })).status, 200);
  /** Enrich from the list's Enrich tab; the alert's text, and no file saved. */
  const refusal = async () => {
    const page = await signIn('analyst');
    await page.goto(`${base}/console#/lists/${listId}/enrich`);
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByRole('button', { name: 'Enrich and download' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = await alert.innerText();
    assert.doesNotMatch(text, /\{|stack|Error:/u, 'a sentence, not a dump');
    assert.equal(downloads, 0, 'no file');
    await page.context().close();
    return text;
  };
  try {
    await setPlan('basic');
    assert.match(await refusal(), /^Not allowed for this account\.\s+Permission 'export' is required: the 'basic' plan/u);
    // Exports allowed, but fewer rows a day than the list's 5 matched companies: 409. The
    // earlier test spent 5 today, so an allowance of 6 leaves 1: 429.
    const plan = { canExport: true, requestsPerMinute: 600, aiRequestsPerMinute: 10, exportRequestsPerMinute: 30, enrichRowsPerDay: 2 };
    assert.equal((await api(admin, 'POST', '/api/admin/plans/few_rows', plan)).status, 200);
    await setPlan('few_rows');
    assert.match(await refusal(), /^More rows than the plan's daily allowance\.\s+.*\b2\b/u);
    assert.equal((await api(admin, 'POST', '/api/admin/plans/few_rows', { enrichRowsPerDay: 6 })).status, 200);
    assert.match(await refusal(), /^Today's allowance is used up\.\s+.*\b1\b/u);
  } finally {
    await setPlan('full');
    await admin.context().close();
  }
});
