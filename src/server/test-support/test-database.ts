import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../config.js';
import { migrateToLatest, openDatabase, type Db, type DialectName } from '../db/database.js';

export interface TestDatabase {
  db: Db;
  /** A DATABASE_URL that reaches the same database (for child processes). */
  url: string;
  searchPath?: string;
  drop: () => Promise<void>;
}

const postgresUrl = () => loadConfig().test.postgresUrl;

/** A fresh, migrated database: a temporary SQLite file, or a new PostgreSQL schema. */
export const createTestDatabase = async (dialect: DialectName): Promise<TestDatabase> => {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'messenger-test-'));
    const url = `sqlite:${join(dir, 'test.db')}`;
    const db = openDatabase(url);
    await migrateToLatest(db);
    return {
      db,
      url,
      drop: async () => {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: postgresUrl() });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const db = openDatabase(postgresUrl(), { searchPath: schema, poolSize: 12 });
  await migrateToLatest(db);
  return {
    db,
    url: postgresUrl(),
    searchPath: schema,
    drop: async () => {
      await db.destroy();
      const cleanup = new pg.Client({ connectionString: postgresUrl() });
      await cleanup.connect();
      await cleanup.query(`drop schema if exists ${schema} cascade`);
      await cleanup.end();
    },
  };
};
