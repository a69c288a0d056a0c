// Employee and revenue band labels, in order (docs/enumerations: the labels clients send).
export const EMPLOYEE_BANDS = [
  'Less than 10', '10 - 49', '50 - 199', '200 - 499', '500 - 999', '1,000 - 4,999', '5,000 - 9,999', 'Above 10,000',
] as const;
export type EmployeeBand = (typeof EMPLOYEE_BANDS)[number];

export const REVENUE_BANDS = [
  'Less than 1M', '1M - 2M', '2M - 5M', '5M - 10M', '10M - 50M', '50M - 100M', '100M - 500M', '500M - 1B', 'More than 1B',
] as const;
export type RevenueBand = (typeof REVENUE_BANDS)[number];
