import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  type Compilable,
  type Migration,
  type PostgresPool,
  type PostgresPoolClient,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import * as initial from './migrations/001-initial.js';
import * as hardening from './migrations/002-hardening.js';
import * as integration from './migrations/003-integration.js';
import * as outbox from './migrations/004-outbox.js';
import * as notifications from './migrations/005-notifications.js';
import * as lists from './migrations/006-lists.js';
import * as search from './migrations/007-search.js';
import * as presence from './migrations/008-presence.js';
import * as attachments from './migrations/009-attachments.js';
import * as privateReads from './migrations/010-private-reads.js';
import * as emailCase from './migrations/011-email-case.js';
import * as settingsLocaleTimeZone from './migrations/012-settings-locale-time-zone.js';
import * as safety from './migrations/013-safety.js';
import * as messageEdits from './migrations/014-message-edits.js';
import * as templates from './migrations/015-templates.js';
import * as messageSearch from './migrations/016-message-search.js';
import * as oneLocale from './migrations/017-one-locale.js';
import * as listIndexes from './migrations/018-list-indexes.js';
import type { Database } from './schema.js';
import { LockWaitingSqliteDialect } from './sqlite-driver.js';
import { startSqliteCheckpointer, type SqliteCheckpointer } from './sqlite-checkpointer.js';

export type DialectName = 'sqlite' | 'postgres';

/** What repository functions take first: the database, or a transaction on it. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** The row a query builder's query answers with (one row of it). */
export type RowOf<Query extends { executeTakeFirstOrThrow(): Promise<unknown> }> = Awaited<
  ReturnType<Query['executeTakeFirstOrThrow']>
>;

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** PostgreSQL with a search_path of its own (tests): the schema its tables live in. */
  schema?: string;
  /** SQLite with `checkpointInBackground`: the worker thread that checkpoints the log. */
  checkpointer?: SqliteCheckpointer;
  destroy: () => Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL only: the schema to use (tests get a fresh one per file). */
  searchPath?: string;
  poolSize?: number;
  /**
   * SQLite file only: checkpoint the write-ahead log in a worker thread instead of inside commits
   * (the server; short-lived tools keep SQLite's automatic checkpoints).
   */
  checkpointInBackground?: boolean;
  /** Told what goes wrong in the background (a checkpoint failing, its worker stopping). */
  onBackgroundProblem?: (message: string) => void;
}

// PostgreSQL returns bigint for count(*) and int8 columns; our ids and counts fit in a JS number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export const dialectOf = (url: string): DialectName => {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  if (url.startsWith('sqlite:')) return 'sqlite';
  throw new Error(
    `DATABASE_URL must start with sqlite: or postgres:// (got "${url.split(':')[0]}:")`,
  );
};

/** What Kysely's SQLite driver needs of a statement. */
interface DriverStatement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SqliteDatabase.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * Rows as plain objects built here from better-sqlite3's raw arrays: its own per-row objects cost
 * about twice as much (a list of 10,000 conversations spends most of its query time there). Same
 * keys, same values, same order.
 */
const withPlainRows = (statement: SqliteDatabase.Statement): DriverStatement => {
  if (!statement.reader) return statement;
  const names = statement.columns().map((column) => column.name);
  if (names.includes('__proto__')) return statement;
  statement.raw(true);
  const toRow = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let index = 0; index < names.length; index += 1) row[names[index]!] = values[index];
    return row;
  };
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toRow),
    run: (parameters) => statement.run(parameters),
    iterate: function* (parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) {
        yield toRow(values);
      }
    },
  };
};

/**
 * Kysely prepares every statement again on each run, which costs about as much as running it.
 * better-sqlite3 statements are reusable: keep them by SQL text (the app issues a few dozen distinct
 * ones; bounded anyway). A statement still busy (an open iterator) is never handed out twice.
 */
const withStatementCache = (sqlite: SqliteDatabase.Database, max = 500) => {
  const statements = new Map<
    string,
    { statement: SqliteDatabase.Statement; driver: DriverStatement }
  >();
  return {
    close: () => sqlite.close(),
    prepare: (sql: string): DriverStatement => {
      const cached = statements.get(sql);
      if (cached && !cached.statement.busy) return cached.driver;
      const statement = sqlite.prepare(sql);
      const driver = withPlainRows(statement);
      if (!cached) {
        if (statements.size >= max) statements.clear();
        statements.set(sql, { statement, driver });
      }
      return driver;
    },
  };
};

/** Plain data statements (not BEGIN/COMMIT, not DDL) are the ones worth preparing. */
const NAMED_SQL = /^\s*(?:select|insert|update|delete|with)\b/i;
const MAX_STATEMENT_NAMES = 1000;
const statementNames = new Map<string, string>();
const statementName = (sql: string): string | undefined => {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_STATEMENT_NAMES && NAMED_SQL.test(sql)) {
    name = `q${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name;
};

/**
 * Runs the application's queries as named (server-side prepared) statements: PostgreSQL parses and
 * plans each distinct query once per connection instead of on every call, and the driver sends and
 * parses less (a conversation lookup went from ≈ 0.5 ms to ≈ 0.15 ms on the benchmark machine).
 * pg keeps the names per connection and re-prepares on a new one; the number of names is bounded.
 */
const withNamedStatements = (pool: pg.Pool): PostgresPool => {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const query = (sqlOrCursor: unknown, parameters: readonly unknown[] = []): unknown => {
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as pg.Submittable);
      const name = statementName(sqlOrCursor);
      const values = [...parameters];
      return name === undefined
        ? client.query(sqlOrCursor, values)
        : client.query({ name, text: sqlOrCursor, values });
    };
    return { query: query as PostgresPoolClient['query'], release: () => client.release() };
  };
  return {
    connect: async () => {
      const client = await pool.connect();
      let facade = wrapped.get(client);
      if (!facade) {
        facade = wrap(client);
        wrapped.set(client, facade);
      }
      return facade;
    },
    end: () => pool.end(),
  };
};

/** The largest part of the database file mapped into memory (a bound, not an allocation). */
const SQLITE_MMAP_BYTES = 1024 * 1024 * 1024;

export const openDatabase = (url: string, options: OpenDatabaseOptions = {}): Db => {
  const dialect = dialectOf(url);
  if (dialect === 'sqlite') {
    const file = url.slice('sqlite:'.length) || ':memory:';
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    // Sorts and subquery results a statement needs stay in memory instead of a temporary file
    // opened, written and deleted on the spot (with 20,000 sockets that open failed: no file
    // descriptor left, and the call answered 503).
    sqlite.pragma('temp_store = MEMORY');
    // Pages read through a memory map instead of a read() each: another process's commit (a second
    // worker's) empties this connection's page cache, and every page is then read again
    // (docs/decisions/028-sqlite-writers.md).
    sqlite.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
    // SQLite's own wait for the lock would block the event loop: the driver waits instead.
    sqlite.pragma('busy_timeout = 0');
    const kysely = new Kysely<Database>({
      dialect: new LockWaitingSqliteDialect({ database: withStatementCache(sqlite) }, sqlite),
    });
    const checkpointer =
      options.checkpointInBackground && file !== ':memory:'
        ? startSqliteCheckpointer(sqlite, file, {
            ...(options.onBackgroundProblem ? { onProblem: options.onBackgroundProblem } : {}),
          })
        : undefined;
    return {
      kysely,
      dialect,
      ...(checkpointer ? { checkpointer } : {}),
      destroy: async () => {
        await checkpointer?.stop();
        await kysely.destroy();
      },
    };
  }
  // Both bounds keep "PostgreSQL unreachable" a quick 503: a new connection that cannot be opened,
  // or a query on an open connection whose server went silent (a partition), fails within seconds.
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 2000,
    // PostgreSQL cancels a slow statement itself (the transaction then rolls back cleanly) before the
    // client gives up on a silent connection; an abandoned transaction is ended by the server.
    statement_timeout: 2500,
    idle_in_transaction_session_timeout: 10_000,
    query_timeout: 3000,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  // A client losing its server must not crash the process. Idle clients report it to the pool;
  // a checked-out client (mid-transaction, or its query timed out) emits 'error' on itself, and an
  // 'error' event nobody listens to is fatal. Its queries fail (→ 503) and the pool drops it on release.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: withNamedStatements(pool) }),
  });
  return {
    kysely,
    dialect,
    ...(options.searchPath ? { schema: options.searchPath } : {}),
    destroy: () => kysely.destroy(),
  };
};

const ARGUMENT = Symbol('prepared query argument');
interface Placeholder {
  readonly [ARGUMENT]: number;
}
const isPlaceholder = (value: unknown): value is Placeholder =>
  typeof value === 'object' && value !== null && ARGUMENT in value;

/**
 * A query built and compiled once, then run with new argument values on any executor (the database
 * or a transaction). Kysely otherwise rebuilds and recompiles the same SQL on every call, which is
 * most of the cost of a small query on the hot paths. `build` gets a stand-in for each argument and
 * must pass each one straight into the query as a value: the SQL must not depend on the values (no
 * branching on them, no lists); structural choices (a column name) make separate prepared queries.
 */
export const prepareQuery = <A extends unknown[], O>(
  arity: A['length'],
  build: (...args: A) => Compilable<O>,
): ((executor: Kysely<Database> | Transaction<Database>, ...args: A) => Promise<O[]>) => {
  let prepared: { sql: string; slots: ({ arg: number } | { value: unknown })[] } | undefined;
  const prepare = () => {
    const placeholders = Array.from({ length: arity }, (_, index): Placeholder => ({
      [ARGUMENT]: index,
    }));
    const compiled = build(...(placeholders as unknown as A)).compile();
    const used = new Set<number>();
    const slots = compiled.parameters.map((value) => {
      if (!isPlaceholder(value)) return { value };
      used.add(value[ARGUMENT]);
      return { arg: value[ARGUMENT] };
    });
    if (used.size !== arity)
      throw new Error(`prepareQuery: an argument is not a value of: ${compiled.sql}`);
    return { sql: compiled.sql, slots };
  };
  return async (executor, ...args) => {
    prepared ??= prepare();
    const parameters = prepared.slots.map((slot) => ('arg' in slot ? args[slot.arg] : slot.value));
    const result = await executor.executeQuery<O>(CompiledQuery.raw(prepared.sql, parameters));
    return result.rows;
  };
};

const migrationsFor = (dialect: DialectName): Record<string, Migration> => ({
  '001-initial': { up: (db) => initial.up(db, dialect) },
  '002-hardening': { up: (db) => hardening.up(db) },
  '003-integration': { up: (db) => integration.up(db, dialect) },
  '004-outbox': { up: (db) => outbox.up(db, dialect) },
  '005-notifications': { up: (db) => notifications.up(db) },
  '006-lists': { up: (db) => lists.up(db) },
  '007-search': { up: (db) => search.up(db, dialect) },
  '008-presence': { up: (db) => presence.up(db) },
  '009-attachments': { up: (db) => attachments.up(db, dialect) },
  '010-private-reads': { up: (db) => privateReads.up(db) },
  '011-email-case': { up: (db) => emailCase.up(db) },
  '012-settings-locale-time-zone': { up: (db) => settingsLocaleTimeZone.up(db) },
  '013-safety': { up: (db) => safety.up(db, dialect) },
  '014-message-edits': { up: (db) => messageEdits.up(db) },
  '015-templates': { up: (db) => templates.up(db, dialect) },
  '016-message-search': { up: (db) => messageSearch.up(db, dialect) },
  '017-one-locale': { up: (db) => oneLocale.up(db) },
  '018-list-indexes': { up: (db) => listIndexes.up(db) },
});

/** Applies every migration not applied yet; `target` stops after that one (tests of upgrades). */
export const migrateToLatest = async (db: Db, target?: string): Promise<void> => {
  const migrator = new Migrator({
    db: db.kysely,
    // Kysely looks for its own tables in every schema unless told which: with several schemas in one
    // database (tests), another schema's migration tables would be taken for this one's.
    ...(db.schema ? { migrationTableSchema: db.schema } : {}),
    provider: { getMigrations: () => Promise.resolve(migrationsFor(db.dialect)) },
  });
  const { error, results } = await (target === undefined
    ? migrator.migrateToLatest()
    : migrator.migrateTo(target));
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
};

/** A unique constraint refused the write (on either database). */
export const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};

/**
 * Runs an idempotent "find, then insert or update" once more when a concurrent twin inserted the
 * same key first (its unique violation): the second run finds that row and updates it.
 */
export const retryOnUniqueViolation = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return work();
  }
};
