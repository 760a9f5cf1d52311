import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  migrateToLatest,
  openDatabase,
  type Db,
  type DialectName,
} from '../src/server/db/database.js';
import { settings } from './settings.js';

/**
 * Fresh databases: empty ones for server processes (which migrate them), and migrated ones for the
 * app in this process. PostgreSQL ones live in TEST_POSTGRES_URL's server.
 */

/** An empty database for server processes: what they get as DATABASE_URL. */
export interface ServerDatabase {
  dialect: DialectName;
  url: string;
  /** SQLite: the file; PostgreSQL: the database name. */
  location: string;
  /** Deletes it (PostgreSQL: WITH (FORCE), whoever is still connected). */
  drop: () => Promise<void>;
}

/** Runs `work` with one connection to `url` (the admin URL unless told otherwise). */
export const withPostgres = async <T>(
  work: (client: pg.Client) => Promise<T>,
  url: string = settings.postgresUrl,
): Promise<T> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
};

/** The admin URL with another database name (and port, to go through a proxy). */
export const postgresUrlFor = (database: string, port?: number): string => {
  const url = new URL(settings.postgresUrl);
  url.pathname = `/${database}`;
  if (port !== undefined) url.port = String(port);
  return url.toString();
};

/** A SQLite file in a temporary folder of its own (the folder goes with `drop`). */
export const freshSqliteFile = (label: string): ServerDatabase => {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`));
  const file = join(dir, `${label}.db`);
  return {
    dialect: 'sqlite',
    url: `sqlite:${file}`,
    location: file,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
};

/**
 * `CREATE DATABASE <label>_p<pid>_<random>`: the pid lets `dropStaleDatabases` tell the databases
 * of a killed run from those of a running one.
 */
export const freshPostgresDatabase = async (label: string): Promise<ServerDatabase> => {
  const name = `${label}_p${process.pid}_${randomBytes(4).toString('hex')}`;
  await withPostgres((admin) => admin.query(`create database "${name}"`));
  return {
    dialect: 'postgres',
    url: postgresUrlFor(name),
    location: name,
    drop: async () => {
      await withPostgres((admin) => admin.query(`drop database if exists "${name}" with (force)`));
    },
  };
};

export const freshServerDatabase = (
  dialect: DialectName,
  label: string,
): Promise<ServerDatabase> =>
  dialect === 'sqlite' ? Promise.resolve(freshSqliteFile(label)) : freshPostgresDatabase(label);

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Drops the `<label>_…` databases left behind by processes that no longer run (a killed run). */
export const dropStaleDatabases = (label: string): Promise<number> =>
  withPostgres(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1`,
      [`${label}\\_%`],
    );
    let dropped = 0;
    for (const { datname } of rows) {
      const pid = Number(/_p(\d+)_[a-z0-9]+$/.exec(datname)?.[1]);
      if (!pid || isRunning(pid)) continue;
      await admin.query(`drop database if exists "${datname}" with (force)`);
      dropped += 1;
    }
    return dropped;
  });

/**
 * Migrates a test schema. Kysely's migrator first lists the tables of every schema it may use
 * (`has_schema_privilege` on each): a schema another test file drops meanwhile makes that list fail
 * with "schema … does not exist", or "relation <other schema>.<table> does not exist" (or "column …
 * does not exist", another file's migration altering its table) when the change lands between
 * reading the catalog and describing a table, before any migration ran. Those are tried again.
 */
const migrateWhileOthersDrop = async (db: Db, schema: string, target?: string): Promise<void> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await migrateToLatest(db, target);
      return;
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      // a schema (3F000), a table (42P01) or a column (42703: another file's migration renaming
      // one) went between reading the catalog and describing it
      const somethingWent = ['3F000', '42P01', '42703'].includes(cause?.code ?? '');
      const anotherSchemaWent = somethingWent && !String(cause?.message).includes(schema);
      if (!anotherSchemaWent || attempt >= 10) throw error;
    }
  }
};

/** A migrated database for the app in this process. */
export interface TestDatabase {
  db: Db;
  /** A DATABASE_URL that reaches the same database (for child processes). */
  url: string;
  searchPath?: string;
  /**
   * Migrates further (to the latest, or to `target`): an upgrade test's step. In PostgreSQL it
   * survives other test files dropping their schemas meanwhile, as creating one does.
   */
  migrate: (target?: string) => Promise<void>;
  drop: () => Promise<void>;
}

/**
 * A fresh, migrated database: a temporary SQLite file, or a new schema in PostgreSQL. `migrateTo`
 * stops after that migration (to test an upgrade).
 */
export const createTestDatabase = async (
  dialect: DialectName,
  options: { migrateTo?: string } = {},
): Promise<TestDatabase> => {
  if (dialect === 'sqlite') {
    const file = freshSqliteFile('messenger-test');
    const db = openDatabase(file.url);
    await migrateToLatest(db, options.migrateTo);
    return {
      db,
      url: file.url,
      migrate: (target) => migrateToLatest(db, target),
      drop: async () => {
        await db.destroy();
        await file.drop();
      },
    };
  }
  const schema = `t_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await withPostgres((admin) => admin.query(`create schema ${schema}`));
  const db = openDatabase(settings.postgresUrl, { searchPath: schema, poolSize: 12 });
  await migrateWhileOthersDrop(db, schema, options.migrateTo);
  return {
    db,
    url: settings.postgresUrl,
    searchPath: schema,
    migrate: (target) => migrateWhileOthersDrop(db, schema, target),
    drop: async () => {
      await db.destroy();
      await withPostgres((admin) => admin.query(`drop schema if exists ${schema} cascade`));
    },
  };
};
