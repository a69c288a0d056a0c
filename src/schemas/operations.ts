// Every operation record of the API, in the order of the reference: the one list of
// operations. Both doors are derived from it: the REST routes are registered by walking it
// (http/routes/api.ts) and the MCP tool list is its operations with an `mcp` binding, in
// this order (mcp/tools/index.ts); the compiler refuses a door that lacks a handler for one.
import type { McpBinding, Operation } from './operation.ts';
import { accountOperations } from './account.ts';
import { companyOperations } from './companies.ts';
import { facetOperations } from './facets.ts';
import { enrichmentOperations } from './enrichment.ts';
import { lookalikeOperations } from './lookalikes.ts';
import { companyProductOperations } from './company-products.ts';
import { evidenceOperations } from './evidence.ts';
import { detectOperations } from './detect.ts';
import { firmographicsOperations } from './firmographics.ts';
import { feedOperations } from './feed.ts';
import { eventOperations } from './events.ts';
import { monitorOperations } from './monitors.ts';
import { listOperations } from './lists.ts';
import { crmOperations } from './crm.ts';
import { webhookOperations } from './webhooks.ts';
import { adoptionOperations } from './adoption.ts';
import { intelligenceOperations } from './intelligence.ts';
import { vendorOperations } from './vendors.ts';
import { categoryOperations } from './categories.ts';
import { industryOperations } from './industries.ts';
import { lookupOperations } from './lookup.ts';
import { adminFeedbackOperations, feedbackOperations } from './feedback.ts';
import { profileOperations } from './profiles.ts';
import { aiOperations } from './ai.ts';
import { adminAccessOperations } from './admin.ts';
import { adminActivityOperations } from './admin-activity.ts';
import { adminUserOperations } from './console.ts';

const LISTED = [
  ...accountOperations,
  ...companyOperations,
  ...facetOperations,
  ...enrichmentOperations,
  ...lookalikeOperations,
  ...companyProductOperations,
  ...evidenceOperations,
  ...firmographicsOperations,
  ...feedOperations,
  ...eventOperations,
  ...monitorOperations,
  ...listOperations,
  ...crmOperations,
  ...webhookOperations,
  ...adoptionOperations,
  ...intelligenceOperations,
  ...vendorOperations,
  ...categoryOperations,
  ...industryOperations,
  ...lookupOperations,
  ...feedbackOperations,
  ...profileOperations,
  ...aiOperations,
  ...detectOperations,
  ...adminAccessOperations,
  ...adminActivityOperations,
  ...adminUserOperations,
  ...adminFeedbackOperations,
] as const satisfies readonly Operation[];

/** The list as code that walks it reads it: every record with the whole Operation interface. */
export const OPERATIONS: readonly Operation[] = LISTED;

/** Any one record of the list, with its literal id. */
export type ListedOperation = (typeof LISTED)[number];
export type OperationId = ListedOperation['id'];
/** The operations that are MCP tools (an `mcp` binding), by id. */
export type ToolOperationId = Extract<ListedOperation, { readonly mcp: McpBinding }>['id'];

/**
 * The ids of `wanted` that no handler in `handled` covers: `never` when every one has a
 * handler. A door declares a constant of type `Covers<…>` equal to true, so a missing
 * handler is a compile error naming the operation.
 */
export type Covers<Wanted extends string, Handled extends string> = [Exclude<Wanted, Handled>] extends [never] ? true : { missing: Exclude<Wanted, Handled> };
