// Progressive disclosure of the tools: tools/list answers a short list — the tools of the
// public specification, lookup and submit_feedback — plus more_tools, which lists the others,
// describes one (its input and output schemas) and calls one. A model that needs a list
// upload or a lookalike search learns of it on demand instead of carrying every schema in
// its context (the full list is about 40 KB; the short one stays under 25 KB). Every tool
// is callable by its own name as well; `MCP_TOOL_LIST=all` (or `?tools=all` on the /mcp URL,
// `stacklens mcp --tools all`) lists them all for clients that prefer that.

/** The tools listed by default: the specification's, and the two every agent should see. */
export const CORE_TOOLS: ReadonlySet<string> = new Set([
  'companies_search',
  'company_cohort',
  'company_feed',
  'company_products_paged',
  'products_related_in_cohort',
  'usage_metrics',
  'find_customers_of_products',
  'find_techstacks_for_company',
  'vendor_products',
  'vendors_search',
  'profiles_purchase',
  'products_in_use',
  'categories_list',
  'industries_list',
  'lookup',
  'submit_feedback',
]);

export type ToolList = 'core' | 'all';

export const MORE_TOOLS = 'more_tools';

/** The listing of more_tools itself. */
export const moreToolsListing = {
  name: MORE_TOOLS,
  title: 'More tools',
  description:
    'Further tools beyond this list (account lists, enrichment, lookalikes, people search, change events, firmographics, competitors, detection, credits). ' +
    "No arguments: their names and descriptions. describe: one tool's input and output schemas. call + arguments: run it.",
  inputSchema: {
    type: 'object',
    properties: {
      describe: { type: 'string', description: 'A tool name: answers its description, input schema and output schema' },
      call: { type: 'string', description: 'A tool name: runs it with `arguments` and answers its result' },
      arguments: { type: 'object', description: 'The arguments of the tool named in call' },
    },
    additionalProperties: false,
  },
  outputSchema: { type: 'object', description: "The list, a tool's description, or the called tool's structured answer" },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const;
