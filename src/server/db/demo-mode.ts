import type { Config } from '../config.js';
import { readSetting, SETTING } from './app-settings.js';
import type { Db } from './database.js';

/**
 * What a running server knows of the demo: its accounts and password (the sign-in page and the
 * start-up lines list them), whether this database is a demo, and whether a start should seed it.
 * The seeder itself (`seed.ts`, `demo-data.ts`) is loaded only when a start does seed, or by
 * `npm run seed`.
 */

export const DEMO_PASSWORD = 'password';

export type DemoRole = 'candidate' | 'company' | 'owner';
export interface DemoUser {
  key: string;
  email: string;
  role: DemoRole;
  name: string;
}

/** The accounts the sign-in page offers (demo-data.ts adds more users, for search and the job filter). */
export const DEMO_ACCOUNTS: DemoUser[] = [
  { key: 'sara', email: 'candidate@example.com', role: 'candidate', name: 'Sara Haddad' },
  { key: 'omar', email: 'candidate2@example.com', role: 'candidate', name: 'Omar Khalil' },
  { key: 'acme', email: 'company@example.com', role: 'company', name: 'Acme Robotics' },
  { key: 'nile', email: 'company2@example.com', role: 'company', name: 'Nile Software' },
  { key: 'harbor', email: 'owner@example.com', role: 'owner', name: 'Blue Harbor Logistics' },
];

/**
 * Demo mode: this database holds the demo data (it was seeded), and the configuration allows it.
 * `auto` never counts under NODE_ENV=production; `off` never does.
 */
export const isDemoMode = async (config: Config, db: Db): Promise<boolean> => {
  if (config.demoSeed === 'off') return false;
  if (config.demoSeed === 'auto' && config.production) return false;
  return (await readSetting(db.kysely, SETTING.demo)) !== undefined;
};

export type DemoDecision = { seed: false; reason: string } | { seed: true; warning?: string };

/**
 * Whether to seed the demo now. `auto` seeds only an empty database (no user at all) and never under
 * NODE_ENV=production; a database seeded before (the demo marker) is topped up idempotently. `on`
 * always seeds, and says loudly when that happens in production.
 */
export const decideDemoSeed = async (config: Config, db: Db): Promise<DemoDecision> => {
  if (config.demoSeed === 'off') return { seed: false, reason: 'DEMO_SEED=off' };
  if (config.demoSeed === 'on') {
    return config.production
      ? {
          seed: true,
          warning:
            'DEMO_SEED=on under NODE_ENV=production: demo accounts with the password "password" are in this database and listed on the sign-in page. Never do this with real users.',
        }
      : { seed: true };
  }
  if (config.production) return { seed: false, reason: 'NODE_ENV=production' };
  if ((await readSetting(db.kysely, SETTING.demo)) !== undefined) return { seed: true };
  const anyUser = await db.kysely.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return anyUser ? { seed: false, reason: 'the database already holds users' } : { seed: true };
};

export const listDemoAccounts = async (db: Db) => {
  const rows = await db.kysely
    .selectFrom('users')
    .select(['email', 'name', 'role'])
    .where(
      'email',
      'in',
      DEMO_ACCOUNTS.map((account) => account.email),
    )
    .where('erased_at', 'is', null)
    .execute();
  const order = DEMO_ACCOUNTS.map((account) => account.email);
  return rows
    .flatMap((row) => (row.email === null ? [] : [{ ...row, email: row.email }]))
    .sort((a, b) => order.indexOf(a.email) - order.indexOf(b.email));
};

/**
 * The demo accounts to offer on the sign-in page (undefined: not a demo). Demo mode is read once,
 * when first asked (the database may still be unreachable at start); a failed read is tried again.
 */
export const demoAccountsOffered = (config: Config, db: Db) => {
  let demoMode: Promise<boolean> | undefined;
  return async () => {
    demoMode ??= isDemoMode(config, db).catch((error: unknown) => {
      demoMode = undefined;
      throw error;
    });
    return (await demoMode) ? listDemoAccounts(db) : undefined;
  };
};
