// The clock used by token issuing, verification and the auth caches. Tests freeze or
// advance it (setClock) instead of waiting; production reads Date.now().
let current: () => number = () => Date.now();

/** Milliseconds since the epoch. */
export function now(): number {
  return current();
}

/** Replaces the clock (tests); call with no argument to restore the real one. */
export function setClock(fn?: () => number): void {
  current = fn ?? (() => Date.now());
}
