import { loadConfig } from '../config.js';
import { migrateToLatest, openDatabase } from './database.js';

const config = loadConfig();
const db = openDatabase(config.databaseUrl);
await migrateToLatest(db);
console.log('Database is up to date.');
await db.destroy();
