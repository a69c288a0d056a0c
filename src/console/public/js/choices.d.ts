// The types of ./choices.js, a module with no file here: the server writes it from the lists
// the API validates with (consoleChoicesModule in src/http/routes/console.ts), so the console
// never spells a band, a cohort or a role. Its types are the API contract's (./contract.js).
import type { CohortType, EmployeeBand, RevenueBand, Role } from './contract.js';

export declare const EMPLOYEE_BANDS: readonly EmployeeBand[];
export declare const REVENUE_BANDS: readonly RevenueBand[];
export declare const COHORTS: readonly CohortType[];
export declare const ROLES: readonly Role[];
