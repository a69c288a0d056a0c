// Who is calling: the authenticated API client and its plan. Shared by REST and MCP.
import type { Plan } from '../schemas/plans.ts';

export interface Principal {
  clientId: string;
  clientName: string;
  plan: Plan;
  /** How the caller proved who it is. */
  via: 'api_key' | 'access_token';
}
