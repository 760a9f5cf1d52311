import { z } from 'zod';

/*
 * Every environment variable the server reads, by group: the name, the zod schema (with its
 * default) and its description, one `*-settings.ts` file per group (listed in env-schema.ts). A
 * variable is read there or nowhere. A new one goes into the group it belongs to, as
 * `NAME: setting(zodSchema, { description, unset?, secret? })`; then `npm run docs:config`
 * rewrites docs/configuration.md (and `--help` shows it at once).
 */

/**
 * What a setting is, for people: docs/configuration.md, `--help` and `--check` are made from it
 * (`npm run docs:config` writes the file; a test fails when it differs).
 */
export interface SettingAbout {
  /** What it does, in a sentence or two (Markdown backticks allowed). */
  description: string;
  /** What being unset means, for a setting without a zod default (e.g. "no webhooks"). */
  unset?: string;
  /** Its value is never printed (errors say only that it is wrong). */
  secret?: boolean;
}

/** A setting: its zod schema, described (`.meta()`, read back by config-reference.ts). */
export const setting = <T extends z.ZodType>(schema: T, about: SettingAbout): T =>
  schema.meta({ ...about });

export const positiveInt = (fallback: number) =>
  z.coerce.number().int().positive().default(fallback);
export const positiveNumber = (fallback: number) => z.coerce.number().positive().default(fallback);
