// enrich_companies: the enriched rows of up to 1,000 domains, inline as structured content
// (the same service and audit as POST /companies/enrich; rows count against enrichRowsPerDay).
import { z } from 'zod';
import { defineTool, onBehalfOf } from '../registry.ts';
import { enrichCompaniesOp } from '../../schemas/enrichment.ts';
import { enrichCompanies } from '../../services/enrichment.ts';
import { detectDepsOf } from '../../services/detect.ts';
import type { EnrichedRow } from '../../schemas/enrichment.ts';

// Kept small: tools/list has a byte budget. The rows are EnrichedCompany records (the REST
// JSON Lines record, documented in the API reference).
const enrichAnswer = z.object({
  // The detection job (observeMissing): its id, or null when nothing is missing; the summary says how many domains.
  observeJob: z.string().nullable().optional(),
  found: z.number().int(),
  notFound: z.array(z.string()),
  rows: z.array(z.looseObject({ input: z.string(), found: z.boolean() })),
});

export const enrichmentTools = [
  defineTool(enrichCompaniesOp, {
    output: enrichAnswer,
    run: async ({ domains, columns, observeMissing }, ctx) => {
      const actor = { clientId: ctx.principal.clientId, onBehalfOf: onBehalfOf(ctx) };
      const rows: EnrichedRow[] = [];
      const observe = observeMissing ? { deps: detectDepsOf(ctx.config.detect, ctx.detector), staleAfterDays: ctx.config.detect.staleAfterDays } : undefined;
      const enriched = await enrichCompanies(
        ctx.db,
        { targets: { domains }, columns },
        { actor, format: 'mcp', ...(observe ? { observeMissing: observe } : {}) },
      );
      for await (const row of enriched.rows) rows.push(row);
      const { observeJob } = enriched;
      const notFound = rows.filter((r) => !r.found).map((r) => r.input);
      const found = rows.length - notFound.length;
      const observed = rows.filter((r) => r.observed).length;
      return {
        structured: { found, notFound, rows, ...(observeMissing ? { observeJob: observeJob?.id ?? null } : {}) },
        summary: `${found} of ${rows.length} domains found (${observed} observed, ${found - observed} never observed)${observeJob ? `; job ${observeJob.id} detects the ${observeJob.domains} never observed` : ''}${notFound.length ? `; not found: ${notFound.slice(0, 10).join(', ')}${notFound.length > 10 ? ', …' : ''}` : ''}.`,
      };
    },
  }),
];
