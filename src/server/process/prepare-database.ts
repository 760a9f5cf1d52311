import type { Config } from '../config.js';
import { migrateToLatest, type Db } from '../db/database.js';
import { decideDemoSeed, isDemoMode } from '../db/demo-mode.js';

/**
 * What a start does to the database before serving, once per deployment unit (the only process,
 * or a cluster's primary): migrate to the latest schema, seed the demo when DEMO_SEED asks for it.
 * Says whether this is a demo and, when it was not seeded though it could have been, why not.
 */
export const prepareDatabase = async (
  config: Config,
  db: Db,
): Promise<{ demo: boolean; notSeeded: string | undefined }> => {
  await migrateToLatest(db);
  const decision = await decideDemoSeed(config, db);
  if (decision.seed) {
    if (decision.warning) console.warn(`\n*** WARNING: ${decision.warning} ***\n`);
    // the seeder and its data are loaded only when they are used
    const { seedDemo } = await import('../db/seed.js');
    await seedDemo(db);
  }
  return {
    demo: await isDemoMode(config, db),
    notSeeded: !decision.seed && config.demoSeed !== 'off' ? decision.reason : undefined,
  };
};
