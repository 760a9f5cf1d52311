import { randomBytes } from 'node:crypto';
import type { Executor } from './database.js';

export const SETTING = {
  /** The embedded broadcaster's secret when PUSHER_SECRET is not set. */
  pusherSecret: 'pusher_secret',
  /** Present when this database was seeded with the demo data (demo mode). */
  demo: 'demo',
  /** The key unsubscribe links in notification e-mails are signed with. */
  unsubscribeSecret: 'unsubscribe_secret',
} as const;

export const readSetting = async (db: Executor, name: string): Promise<string | undefined> =>
  (await db.selectFrom('app_settings').select('value').where('name', '=', name).executeTakeFirst())
    ?.value;

/** Stores `value` unless the setting exists; either way returns the stored value (first writer wins). */
export const settingOrInsert = async (
  db: Executor,
  name: string,
  value: string,
): Promise<string> => {
  await db
    .insertInto('app_settings')
    .values({ name, value, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const stored = await readSetting(db, name);
  if (stored === undefined) throw new Error(`app setting ${name} could not be stored`);
  return stored;
};

/**
 * The broadcaster secret of a deployment without PUSHER_SECRET: random on the first start, then kept
 * in the database, so that every instance of one database signs and verifies with the same secret.
 */
export const broadcasterSecret = (db: Executor): Promise<string> =>
  settingOrInsert(db, SETTING.pusherSecret, randomBytes(32).toString('base64url'));

/** The key of unsubscribe links: random on first use, then kept, so old e-mails' links keep working. */
export const unsubscribeSecret = (db: Executor): Promise<string> =>
  settingOrInsert(db, SETTING.unsubscribeSecret, randomBytes(32).toString('base64url'));
