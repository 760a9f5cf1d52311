import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../src/server/db/seed.js';

/** The demo accounts the contract promises, as the seed creates them (all with DEMO_PASSWORD). */
export { DEMO_PASSWORD };

export interface DemoAccount {
  email: string;
  name: string;
  role: 'candidate' | 'company' | 'owner';
}

const account = (email: string): DemoAccount => {
  const found = DEMO_ACCOUNTS.find((item) => item.email === email);
  if (!found) throw new Error(`no demo account ${email}`);
  return { email: found.email, name: found.name, role: found.role };
};

export const SARA = account('candidate@example.com');
export const OMAR = account('candidate2@example.com');
export const ACME = account('company@example.com');
export const NILE = account('company2@example.com');
export const HARBOR = account('owner@example.com');
