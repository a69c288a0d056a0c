// The one clock: "now" for token issuing and verification, the auth caches, rate-limit
// windows, and the date ranges and as-of dates of the services. Tests freeze or advance
// it (setClock) instead of waiting; production reads Date.now(). Durations that only
// measure elapsed work (progress lines, timings) read Date.now() directly.
let current: () => number = () => Date.now();

/** Milliseconds since the epoch. */
export function now(): number {
  return current();
}

/** The current time as a Date. */
export function nowDate(): Date {
  return new Date(current());
}

/** Replaces the clock (tests); call with no argument to restore the real one. */
export function setClock(fn?: () => number): void {
  current = fn ?? (() => Date.now());
}
