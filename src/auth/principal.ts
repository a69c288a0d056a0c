// Who is calling: the authenticated API client and its plan. Shared by REST and MCP.

/** Plan permissions and limits; plans are rows of the `plans` table, not code. */
export interface Plan {
  id: string;
  canExport: boolean;
  canAi: boolean;
  canPurchase: boolean;
  requestsPerMinute: number;
  aiRequestsPerMinute: number;
  exportRequestsPerMinute: number;
}

export type Permission = 'export' | 'ai' | 'purchase';

export interface Principal {
  clientId: string;
  clientName: string;
  plan: Plan;
  /** How the caller proved who it is. */
  via: 'api_key' | 'access_token';
}

export function hasPermission(plan: Plan, permission: Permission): boolean {
  switch (permission) {
    case 'export':
      return plan.canExport;
    case 'ai':
      return plan.canAi;
    case 'purchase':
      return plan.canPurchase;
  }
}
