// Every MCP tool, one module per resource; each calls the same service as its REST route.
import type { ToolDef } from '../registry.ts';
import { profileTools } from './profiles.ts';
import { intelligenceTools } from './intelligence.ts';
import { catalogTools } from './catalog.ts';
import { companyTools } from './companies.ts';
import { aiTools } from './ai.ts';
import { detectTools } from './detect.ts';

export const allTools: ToolDef[] = [...companyTools, ...catalogTools, ...profileTools, ...intelligenceTools, ...aiTools, ...detectTools];
