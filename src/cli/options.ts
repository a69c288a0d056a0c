// Small helpers shared by the access CLI commands: whole-number options and output.
import { InvalidArgumentError } from 'commander';

export function wholeNumber(min: number) {
  return (value: string): number => {
    const n = /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number ≥ ${min}`);
    return n;
  };
}

/** Prints `data` as JSON with --json, otherwise the human lines. */
export function output(json: boolean | undefined, data: unknown, lines: () => string[]): void {
  console.log(json ? JSON.stringify(data, null, 2) : lines().join('\n'));
}

export function isoOrDash(d: Date | null | undefined): string {
  return d ? d.toISOString() : '-';
}
