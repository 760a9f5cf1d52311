import { lookAlikeWarnings } from './config/config-problems.js';
import type { Config } from './config/config-shape.js';
import { configFromEnvironment, type Environment } from './config/config-from-environment.js';
import { OWN_PREFIXES, SETTING_NAMES } from './config/env-schema.js';

/*
 * The server's configuration: the only reader of process.env, parsed once. The settings (one
 * `*-settings.ts` file per group), the `Config` they become, the value converters and the checks
 * live in src/server/config/, which is handed the environment and never reads process.env.
 */

export { DEFAULT_BRAND_COLOR, DEFAULT_SITE_NAME } from './config/brand-settings.js';
export { ConfigError } from './config/config-error.js';
export type { Config, TrustProxy } from './config/config-shape.js';
export { envSchema, OWN_PREFIXES, SETTING_GROUPS, SETTING_NAMES } from './config/env-schema.js';
export type { SettingAbout } from './config/setting.js';

/**
 * Unknown variables that look like the server's (a prefix of its own, or a near-miss of a name):
 * warned about at start and by `--check`.
 */
export const unknownSettingWarnings = (env: Environment = process.env): string[] =>
  lookAlikeWarnings(env, SETTING_NAMES, OWN_PREFIXES);

/** Parses the environment once; overrides are for tests. Throws a `ConfigError` naming every problem. */
export const loadConfig = (overrides: Environment = {}): Config =>
  configFromEnvironment({ ...process.env, ...overrides });
