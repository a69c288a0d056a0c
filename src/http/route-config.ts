// Route-level config read by plugins: `rateClass` tells the rate limiter which budget a
// route draws from (exports and JSONL streams: 'export'; AI helpers: 'ai');
// `exportByQuery` marks routes whose `?export=true` calls are exports.
declare module 'fastify' {
  interface FastifyContextConfig {
    rateClass?: 'default' | 'export' | 'ai';
    /**
     * The route serves both reads and exports: a call with `?export=true` is an export and
     * should draw from the 'export' budget (rateClass applies otherwise).
     */
    exportByQuery?: boolean;
  }
}

export const EXPORT_ROUTE = { rateClass: 'export' } as const;
/** Reads that become exports with `?export=true`. */
export const EXPORT_BY_QUERY = { rateClass: 'default', exportByQuery: true } as const;
