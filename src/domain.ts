// Domain normalization and validation: the one place that decides what a domain is.
// Domains are the join key across the API, so every door uses this: the API and MCP through
// the contract's domain schema (schemas/params.ts), importers and prompt parsing directly.
import { domainToASCII } from 'node:url';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Normalizes a user-supplied domain: lowercase; strips scheme, credentials, `www.`, path,
 * query, port and trailing dot; converts IDN to punycode. Returns null when the result is
 * not a DNS name with at least two labels and an alphabetic (or punycode) top-level label.
 */
export function normalizeDomain(input: string): string | null {
  let s = input.trim().toLowerCase();
  if (s === '' || s.length > 2048) return null;
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, ''); // scheme
  s = s.replace(/^[^/@]*@/, ''); // credentials
  s = s.split(/[/?#]/, 1)[0] ?? '';
  s = s.replace(/:\d*$/, ''); // port
  s = s.replace(/\.$/, ''); // trailing dot of a fully-qualified name
  if (s.startsWith('www.')) s = s.slice(4);
  if (s === '' || /\s/.test(s)) return null;
  const ascii = domainToASCII(s);
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  const tld = labels[labels.length - 1]!;
  if (!/^[a-z]{2,63}$/.test(tld) && !tld.startsWith('xn--')) return null;
  return ascii;
}
