// Every MCP tool, one module per resource; each calls the same service as its REST route.
import type { ToolDef } from '../registry.ts';
import { profileTools } from './profiles.ts';
import { intelligenceTools } from './intelligence.ts';

export const allTools: ToolDef[] = [...profileTools, ...intelligenceTools];
