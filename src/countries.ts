// Country normalization: ISO 3166-1 alpha-2 codes or English country names → the code.
// Names come from the runtime's ICU data (Intl.DisplayNames), so no table to maintain.

const ALIASES: Record<string, string> = {
  usa: 'US',
  'united states of america': 'US',
  america: 'US',
  'great britain': 'GB',
  england: 'GB',
  'south korea': 'KR',
  'korea, republic of': 'KR',
  russia: 'RU',
  'czech republic': 'CZ',
  holland: 'NL',
  uae: 'AE',
  'hong kong': 'HK',
  macao: 'MO',
  macau: 'MO',
  palestine: 'PS',
};

// Region subtags ICU names that are not countries.
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);

let byName: Map<string, string> | undefined;
/** Every accepted code → its current code (deprecated ones such as UK → GB). */
let byCode: Map<string, string> | undefined;

function tables(): { byName: Map<string, string>; byCode: Map<string, string> } {
  if (!byName || !byCode) {
    const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    byName = new Map(Object.entries(ALIASES));
    byCode = new Map();
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        const name = names.of(code);
        // Unassigned codes come back as the code itself.
        if (!name || name === code || NOT_COUNTRIES.has(code)) continue;
        const current = new Intl.Locale('en', { region: code }).region ?? code;
        byCode.set(code, current);
        // "Myanmar (Burma)" is also found as "Myanmar" and as "Burma".
        const paren = /^(.*?)\s*\((.*)\)$/.exec(name);
        for (const n of paren ? [name, paren[1]!, paren[2]!] : [name]) {
          if (!byName.has(fold(n))) byName.set(fold(n), current);
        }
      }
    }
  }
  return { byName, byCode };
}

function fold(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

/** 'de', 'DE', 'Germany', 'germany ' → 'DE'; anything else → null. */
export function normalizeCountry(input: string): string | null {
  const s = input.trim();
  if (s === '') return null;
  const t = tables();
  if (/^[A-Za-z]{2}$/.test(s)) return t.byCode.get(s.toUpperCase()) ?? null;
  return t.byName.get(fold(s)) ?? null;
}

/** Every country: its code and English name (the runtime's ICU names), for lookups by name. */
export function countryList(): { code: string; name: string }[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  const codes = new Set(tables().byCode.values());
  return [...codes].sort().map((code) => ({ code, name: names.of(code) ?? code }));
}
