/** The demo accounts the contract promises (all with the password `password`). */
export const DEMO_PASSWORD = 'password';

export interface DemoAccount {
  email: string;
  name: string;
  role: 'candidate' | 'company' | 'owner';
}

export const SARA: DemoAccount = {
  email: 'candidate@example.com',
  name: 'Sara Haddad',
  role: 'candidate',
};
export const OMAR: DemoAccount = {
  email: 'candidate2@example.com',
  name: 'Omar Khalil',
  role: 'candidate',
};
export const ACME: DemoAccount = {
  email: 'company@example.com',
  name: 'Acme Robotics',
  role: 'company',
};
export const NILE: DemoAccount = {
  email: 'company2@example.com',
  name: 'Nile Software',
  role: 'company',
};
export const HARBOR: DemoAccount = {
  email: 'owner@example.com',
  name: 'Blue Harbor Logistics',
  role: 'owner',
};
