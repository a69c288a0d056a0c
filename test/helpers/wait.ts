// Waits for a condition the test cannot await directly (a request reaching a queue, a lock
// being waited on): polls it, and fails after a generous bound instead of hanging the suite.
// It asserts that something happens, never how fast.
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, boundMs = 30_000): Promise<void> {
  const until = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
