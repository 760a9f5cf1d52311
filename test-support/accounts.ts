import { EXTRA_USERS } from '../src/server/db/demo-data.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/server/db/demo-mode.js';

/** The demo accounts as the seed creates them (all with DEMO_PASSWORD): the seed is the source. */
export { DEMO_ACCOUNTS, DEMO_PASSWORD };

export type DemoAccount = (typeof DEMO_ACCOUNTS)[number];

const account = (key: string): DemoAccount => {
  const found = [...DEMO_ACCOUNTS, ...EXTRA_USERS].find((item) => item.key === key);
  if (!found) throw new Error(`no demo account "${key}" in the seed`);
  return found;
};

export const SARA = account('sara');
export const OMAR = account('omar');
export const ACME = account('acme');
export const NILE = account('nile');
export const HARBOR = account('harbor');
/** The seed's further accounts (not offered on the sign-in page, same password). */
export const ORBIT = account('orbit');
export const LINA = account('lina');
export const YOUSSEF = account('youssef');
export const MAYA = account('maya');
export const DANIEL = account('daniel');

/** The demo accounts' emails by the part each plays in a scenario. */
export const DEMO = {
  candidate: SARA.email,
  candidate2: OMAR.email,
  company: ACME.email,
  company2: NILE.email,
  owner: HARBOR.email,
} as const;
export type DemoUser = keyof typeof DEMO;
/** Every part, for signing everyone in. */
export const DEMO_USERS = Object.keys(DEMO) as DemoUser[];
