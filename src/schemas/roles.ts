// Roles: what a caller may administer, beside what its plan allows it to read and buy. Owned
// here, below auth and store (like plans.ts), so operation records can name the role they
// need. Ordered: a role includes every role before it (an admin may do what an analyst may).
// API clients have no role unless an operator grants one (`stacklens clients create --admin`,
// `stacklens clients set-role`); the console's people get viewer, analyst or admin.

export const ROLES = ['viewer', 'analyst', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `held` is `required` or a higher role; no role holds nothing. */
export function roleAtLeast(held: Role | null | undefined, required: Role): boolean {
  if (!held) return false;
  return ROLES.indexOf(held) >= ROLES.indexOf(required);
}
