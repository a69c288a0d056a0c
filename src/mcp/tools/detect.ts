// The detect_technologies tool: POST /api/detect for a model — a site's technologies from a
// URL or uploaded artifacts, each with its strongest evidence.
import { z } from 'zod';
import { defineTool } from '../registry.ts';
import { detectOp } from '../../schemas/detect.ts';
import { detectDepsOf, detectTechnologies } from '../../services/detect.ts';

const output = z.object({ domain: z.string(), technologies: z.array(z.looseObject({ name: z.string() })) });

export const detectTools = [
  defineTool(detectOp, {
    output,
    run: async (input, ctx) => {
      const result = await detectTechnologies(input, detectDepsOf(ctx.config.detect, ctx.detector));
      // Two evidence items per technology keep the answer short; the API gives all.
      const technologies = result.technologies.map((t) => ({ ...t, evidence: t.evidence.slice(0, 2) }));
      const list = technologies.map((t) => `${t.name}${t.version ? ` ${t.version}` : ''} (${t.confidence.toFixed(2)})`).join(', ');
      return { structured: { domain: result.domain, technologies }, summary: `${result.domain}: ${technologies.length ? list : 'no technologies detected'}.` };
    },
  }),
];
