import type { Role } from '../../../../shared/models.js';
import type { ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

export interface DemoAccount {
  email: string;
  name: string;
  role: Role;
}

/** `GET /api/demo-accounts` → `{accounts}` (empty when demo mode is off). */
export const getDemoAccounts = async (client: ApiClient): Promise<DemoAccount[]> => {
  const response = await client.get<{ accounts?: DemoAccount[] }>(apiPaths.demoAccounts);
  return Array.isArray(response?.accounts) ? response.accounts : [];
};

/** Every demo account's password (contract: "Demo data"). */
export const DEMO_PASSWORD = 'password';
