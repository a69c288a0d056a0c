// Route-level config read by plugins: `rateClass` tells the rate limiter which budget a
// route draws from (exports and JSONL streams: 'export'; AI helpers: 'ai').
declare module 'fastify' {
  interface FastifyContextConfig {
    rateClass?: 'default' | 'export' | 'ai';
  }
}

export const EXPORT_ROUTE = { rateClass: 'export' } as const;
