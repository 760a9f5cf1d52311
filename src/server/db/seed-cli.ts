import { loadConfig } from '../config.js';
import { migrateToLatest, openDatabase } from './database.js';
import { seedDemo } from './seed.js';

/** `npm run seed`: migrate and seed the demo data on demand (a second run changes nothing). */
const config = loadConfig();
const db = openDatabase(config.databaseUrl);
await migrateToLatest(db);
if (config.production)
  console.warn('WARNING: seeding demo accounts (password "password") under NODE_ENV=production.');
const seeded = await seedDemo(db);
console.log(seeded ? 'Demo data seeded.' : 'Demo data already present; nothing changed.');
await db.destroy();
