import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type QueryResult,
  type SqliteDialectConfig,
} from 'kysely';

/**
 * How long a statement waits for the write lock before it fails with SQLITE_BUSY (the caller then
 * answers 503), as `busy_timeout` did.
 */
export const SQLITE_LOCK_WAIT_MS = 1000;

/** Tries before the first timer: another connection's short transaction is often done by then. */
const IMMEDIATE_RETRIES = 2;
/** The longest pause between two tries once waiting has gone on. */
const MAX_PAUSE_MS = 2;

const isBusy = (error: unknown): boolean =>
  error instanceof SqliteDatabase.SqliteError && error.code.startsWith('SQLITE_BUSY');

const pause = (attempt: number): Promise<void> =>
  new Promise((resolve) => {
    if (attempt < IMMEDIATE_RETRIES) setImmediate(resolve);
    else setTimeout(resolve, Math.min(attempt - IMMEDIATE_RETRIES + 1, MAX_PAUSE_MS));
  });

/**
 * Runs `attempt` until it does not fail with SQLITE_BUSY or `waitMs` has passed; between tries the
 * event loop is free (timers, sockets, other requests), which `busy_timeout` never allowed.
 */
export const retryWhileBusy = async <T>(
  attempt: () => Promise<T>,
  waitMs = SQLITE_LOCK_WAIT_MS,
): Promise<T> => {
  const deadline = performance.now() + waitMs;
  for (let tries = 0; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || performance.now() >= deadline) throw error;
    }
    await pause(tries);
  }
};

/**
 * A connection whose statements outside a transaction wait for the lock without blocking the
 * process: `BEGIN IMMEDIATE` (every transaction's first statement) and single statements. Inside a
 * transaction the lock is already held (IMMEDIATE), so a busy error there is not waited on.
 */
const lockWaitingConnection = (
  connection: DatabaseConnection,
  sqlite: SqliteDatabase.Database,
): DatabaseConnection => ({
  executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
    sqlite.inTransaction
      ? connection.executeQuery<R>(query)
      : retryWhileBusy(() => connection.executeQuery<R>(query)),
  streamQuery: <R>(query: CompiledQuery, chunkSize?: number) =>
    connection.streamQuery<R>(query, chunkSize),
});

/**
 * The process's SQLite connection as Kysely sees it.
 *
 * Transactions begin with `BEGIN IMMEDIATE`: they take the write lock when they begin. A plain
 * `BEGIN` reads first and asks for the lock at its first write; if another connection (the
 * background thread's, another worker's) committed in between, that write fails at once with
 * SQLITE_BUSY, whatever the timeout: a send would answer 503 for no reason but timing.
 *
 * The lock is waited for here, asynchronously, never by SQLite's own busy handler: better-sqlite3
 * runs that handler on the event loop's thread, where it sleeps 1, 2, 5, 10, 15, 20, 25… ms while
 * the process does nothing else. With two workers on one file each one's wait froze it, and two
 * workers sent a quarter of one worker's messages (docs/decisions/028-sqlite-writers.md).
 */
class LockWaitingSqliteDriver extends SqliteDriver {
  readonly #sqlite: SqliteDatabase.Database;
  #connection: DatabaseConnection | undefined;
  constructor(config: SqliteDialectConfig, sqlite: SqliteDatabase.Database) {
    super(config);
    this.#sqlite = sqlite;
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#connection ??= lockWaitingConnection(connection, this.#sqlite);
    return this.#connection;
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class LockWaitingSqliteDialect extends SqliteDialect {
  readonly #driverConfig: SqliteDialectConfig;
  readonly #sqlite: SqliteDatabase.Database;
  constructor(config: SqliteDialectConfig, sqlite: SqliteDatabase.Database) {
    super(config);
    this.#driverConfig = config;
    this.#sqlite = sqlite;
  }
  override createDriver() {
    return new LockWaitingSqliteDriver(this.#driverConfig, this.#sqlite);
  }
}
