// Every MCP tool, one module per resource; each calls the same service as its REST route.
// The list itself is the operation list's (schemas/operations.ts): its operations with an
// `mcp` binding, in its order; the compiler refuses a listed tool operation without a tool here.
import { toolsOf, type ToolDef } from '../registry.ts';
import { OPERATIONS, type Covers, type ToolOperationId } from '../../schemas/operations.ts';
import { profileTools } from './profiles.ts';
import { intelligenceTools } from './intelligence.ts';
import { catalogTools } from './catalog.ts';
import { companyTools } from './companies.ts';
import { lookalikeTools } from './lookalikes.ts';
import { aiTools } from './ai.ts';
import { detectTools } from './detect.ts';
import { eventTools } from './events.ts';
import { enrichmentTools } from './enrichment.ts';
import { listTools } from './lists.ts';
import { feedbackTools } from './feedback.ts';

const defined = [
  ...companyTools,
  ...lookalikeTools,
  ...catalogTools,
  ...profileTools,
  ...intelligenceTools,
  ...aiTools,
  ...detectTools,
  ...eventTools,
  ...enrichmentTools,
  ...listTools,
  ...feedbackTools,
];
const everyToolOperationHasATool: Covers<ToolOperationId, (typeof defined)[number]['operation']['id']> = true;
void everyToolOperationHasATool;

export const allTools: ToolDef[] = toolsOf(OPERATIONS, defined);
