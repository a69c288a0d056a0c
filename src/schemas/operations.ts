// Every operation record of the API, in the order of the reference. Both doors serve
// exactly this list; the security tests walk it.
import type { Operation } from './operation.ts';
import { accountOperations } from './account.ts';
import { companyOperations } from './companies.ts';
import { companyProductOperations } from './company-products.ts';
import { evidenceOperations } from './evidence.ts';
import { firmographicsOperations } from './firmographics.ts';
import { feedOperations } from './feed.ts';
import { intelligenceOperations } from './intelligence.ts';
import { vendorOperations } from './vendors.ts';
import { categoryOperations } from './categories.ts';
import { industryOperations } from './industries.ts';
import { profileOperations } from './profiles.ts';
import { aiOperations } from './ai.ts';
import { adminAccessOperations } from './admin.ts';
import { adminActivityOperations } from './admin-activity.ts';

export const OPERATIONS: readonly Operation[] = [
  ...accountOperations,
  ...companyOperations,
  ...companyProductOperations,
  ...evidenceOperations,
  ...firmographicsOperations,
  ...feedOperations,
  ...intelligenceOperations,
  ...vendorOperations,
  ...categoryOperations,
  ...industryOperations,
  ...profileOperations,
  ...aiOperations,
  ...adminAccessOperations,
  ...adminActivityOperations,
];
