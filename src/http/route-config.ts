// Route config for the rate limiter (declared in http/plugins/rate-limit.ts): routes whose
// every request is an export (CSV/JSONL-only) spend the export quota. Routes that export
// only with `?export=true` need nothing: the limiter detects that query itself.
export const EXPORT_ROUTE = { rateClass: 'export' } as const;
