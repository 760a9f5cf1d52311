import type { Config } from '../config.js';
import type { Db } from '../db/database.js';

/**
 * What every module's factory (`<area>.module.ts`) is built from: the configuration and the
 * database. Each factory makes its module's repositories and inner parts (stores, caches, the
 * mailer) and hands them to its services; the composition root (`services.ts`) only calls the
 * factories, in dependency order (ADR 026).
 */
export interface ModuleBasics {
  config: Config;
  db: Db;
}

/** Told when Redis cannot be reached (the module goes on alone); logged by the composition root. */
export type OnRedisError = (error: unknown) => void;

/** Where a module's factory sends what goes wrong after a commit (the server's log). */
export interface ModuleLogger {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}
