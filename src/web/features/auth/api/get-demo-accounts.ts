import type { DemoAccount } from '../../../lib/api.js';
import { ApiError, type ApiClient } from '../../../lib/api-client.js';
import { apiPaths } from '../../../lib/contract.js';

/** `GET /api/demo-accounts` → `{accounts}`; outside demo mode the call answers 404: no accounts. */
export const getDemoAccounts = async (client: ApiClient): Promise<DemoAccount[]> => {
  try {
    const response = await client.get<{ accounts?: DemoAccount[] }>(apiPaths.demoAccounts);
    return Array.isArray(response?.accounts) ? response.accounts : [];
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
};

/** Every demo account's password (contract: "Demo data"). */
export const DEMO_PASSWORD = 'password';
