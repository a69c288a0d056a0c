// A one-line, human-readable account of what a prompt was understood as, for a response
// header or a log line: "products=HubSpot CRM (typo 'hubspt'); countries=DE; ...".
import type { ParsedQuery } from './schema.ts';

const MAX_CHARS = 1000;

export function describeQuery(q: ParsedQuery): string {
  const parts: string[] = [];
  const entity = (label: string, list: ParsedQuery['products']) => {
    if (list.length === 0) return;
    parts.push(`${label}=${list.map((m) => (m.kind === 'fuzzy' ? `${m.name} (typo '${m.text}')` : m.name)).join(', ')}`);
  };
  entity('products', q.products);
  entity('vendors', q.vendors);
  entity('categories', q.categories);
  entity('industries', q.industries);
  if (q.countries.length) parts.push(`countries=${q.countries.map((c) => c.code).join(', ')}`);
  if (q.employeeRanges.length) parts.push(`employees=${q.employeeRanges.join(' | ')}`);
  if (q.revenueRanges.length) parts.push(`revenue=${q.revenueRanges.join(' | ')}`);
  if (q.timeWindow) {
    const t = q.timeWindow;
    const when = t.withinDays !== undefined ? `within ${t.withinDays} days` : `since ${t.since}${t.until ? ` until ${t.until}` : ''}`;
    parts.push(`time=${t.field} ${when}`);
  }
  if (q.titles.length) parts.push(`titles=${q.titles.join(', ')}`);
  if (q.seniority.length) parts.push(`seniority=${q.seniority.join(', ')}`);
  if (q.functions.length) parts.push(`functions=${q.functions.join(', ')}`);
  if (q.companies.length) parts.push(`companies=${q.companies.map((c) => c.domain ?? c.name).join(', ')}`);
  if (q.terms.length) parts.push(`terms=${q.terms.join(' ')}`);
  const line = parts.length ? parts.join('; ') : 'nothing recognized';
  return line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS - 3)}...` : line;
}
