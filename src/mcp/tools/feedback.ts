// submit_feedback: an agent reports wrong or missing data it found, for an operator to review.
import { defineTool } from '../registry.ts';
import { feedbackSchema, submitFeedbackOp } from '../../schemas/feedback.ts';
import { submitFeedback } from '../../services/feedback.ts';

export const feedbackTools = [
  defineTool(submitFeedbackOp, {
    output: feedbackSchema,
    run: async (input, ctx) => {
      const report = await submitFeedback(
        ctx.db,
        { clientId: ctx.principal.clientId, onBehalfOf: ctx.onBehalfOf ?? ctx.principal.person?.email ?? null },
        input,
      );
      const about = report.productId ?? report.field ?? 'the record';
      return { structured: report, summary: `Report ${report.id} (${report.kind}, ${about} of ${report.companyDomain}) is in the operators' review queue.` };
    },
  }),
];
