// What every browser test shares: headless Debian Chromium driven by playwright-core (no
// browser download), accessibility checks with axe-core, and same-origin API calls with a
// console page's session. A machine without Chromium fails these tests loudly, never skips.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Chromium from the system (apt-get install -y chromium, or CHROMIUM_PATH). */
export async function launchChromium(): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: install it with apt-get install -y chromium (or set CHROMIUM_PATH)`);
  // As root (CI containers) Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
}

/** Fills the console's sign-in form (the page shows it) and waits until the person is signed in. */
export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('button', { name: 'Sign out' })
    .waitFor()
    .catch(async (err: Error) => {
      const alert = await page.getByRole('alert').allInnerTexts();
      throw new Error(`${email} could not sign in${alert.length ? `: ${alert.join(' / ')}` : ''} (${err.message})`);
    });
}

/** axe-core in the page: no serious or critical violation. */
export async function checkA11y(page: Page, screen: string): Promise<void> {
  // Injected through the DevTools protocol: the page's own CSP (rightly) refuses inline scripts.
  if (!(await page.evaluate('"axe" in window'))) await page.evaluate(AXE);
  // Browser-side code as text: this project's TypeScript has no DOM types.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((res) => res.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`)) as {
    id: string;
    impact: string;
    help: string;
    targets: string[];
  }[];
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${screen}: accessibility violations ${JSON.stringify(bad, null, 2)}`);
}

/** A same-origin API call with the page's console session (cookie) and CSRF token. */
export async function consoleApi<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const call = `(async () => {
    const s = await (await fetch('/console/api/session')).json();
    const res = await fetch(${JSON.stringify(path)}, { method: ${JSON.stringify(method)}, headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrfToken },
      body: ${body === undefined ? 'undefined' : JSON.stringify(JSON.stringify(body))} });
    return { status: res.status, body: await res.json().catch(() => null) };
  })()`;
  return (await page.evaluate(call)) as { status: number; body: T };
}
