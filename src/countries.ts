// Country codes: ISO 3166-1 alpha-2 codes and their English names, from the ICU data
// Node ships (Intl.DisplayNames), so no table to maintain.

const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const NAME_TO_CODE = new Map<string, string>();
const CODES = new Set<string>();
for (let a = 65; a <= 90; a++) {
  for (let b = 65; b <= 90; b++) {
    const code = String.fromCharCode(a, b);
    let name: string | undefined;
    try {
      name = names.of(code);
    } catch {
      name = undefined;
    }
    // Skip unassigned and private-use codes (ICU answers "Unknown Region" or echoes the code).
    // Also skip ICU's non-country codes (EU, EZ, UN) and UK (exceptionally reserved for GB).
    if (!name || name === code || /^(AA|Q[M-Z]|X[A-Z]|ZZ|EU|EZ|UN|UK)$/.test(code)) continue;
    CODES.add(code);
    NAME_TO_CODE.set(name.toLowerCase(), code);
  }
}
// Names clients commonly send that differ from ICU's English display names.
for (const [alias, code] of [['usa', 'US'], ['united states of america', 'US'], ['uk', 'GB'], ['great britain', 'GB'], ['england', 'GB'], ['south korea', 'KR'], ['russia', 'RU'], ['czech republic', 'CZ']] as const) {
  NAME_TO_CODE.set(alias, code);
}

/** ISO-2 code for an ISO-2 code (any case) or an English country name; null when unknown. */
export function countryCode(input: string): string | null {
  const s = input.trim();
  if (/^[A-Za-z]{2}$/.test(s)) {
    const code = s.toUpperCase() === 'UK' ? 'GB' : s.toUpperCase();
    return CODES.has(code) ? code : null;
  }
  return NAME_TO_CODE.get(s.toLowerCase().replace(/\s+/g, ' ')) ?? null;
}

export function countryName(code: string): string | null {
  return CODES.has(code) ? (names.of(code) ?? null) : null;
}
