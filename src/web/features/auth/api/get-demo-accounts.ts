import { useEffect, useState } from 'react';
import type { DemoAccountsResponse } from '../../../../shared/auth.js';
import { ApiError, type ApiClient } from '../../../lib/api-client.js';
import { useApiClient } from '../../../lib/api-provider.js';
import { apiPaths } from '../../../lib/contract.js';

export type DemoAccount = DemoAccountsResponse['accounts'][number];

/** `GET /api/demo-accounts` → `{accounts}`; outside demo mode the call answers 404: no accounts. */
export const getDemoAccounts = async (client: ApiClient): Promise<DemoAccount[]> => {
  try {
    const response = await client.get<Partial<DemoAccountsResponse> | undefined>(
      apiPaths.demoAccounts,
    );
    return Array.isArray(response?.accounts) ? response.accounts : [];
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
};

/** The demo accounts the sign-in page offers (none until they are there, or outside demo mode). */
export const useDemoAccounts = (): DemoAccount[] => {
  const client = useApiClient();
  const [accounts, setAccounts] = useState<DemoAccount[]>([]);
  useEffect(() => {
    let cancelled = false;
    getDemoAccounts(client)
      .then((found) => {
        if (!cancelled) setAccounts(found);
      })
      .catch((failure: unknown) => console.error(failure));
    return () => {
      cancelled = true;
    };
  }, [client]);
  return accounts;
};

/** Every demo account's password (contract: "Demo data"). */
export const DEMO_PASSWORD = 'password';
