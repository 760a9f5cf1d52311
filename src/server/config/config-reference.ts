import type { z } from 'zod';
import { defaultOf, expectationOf, innermost } from './config-problems.js';
import { SETTING_GROUPS } from './env-schema.js';
import type { SettingAbout } from './setting.js';

/**
 * The configuration reference, made from the settings in the `*-settings.ts` files (their schemas and
 * descriptions): docs/configuration.md (`npm run docs:config`) and `main.js --help`.
 */

export interface SettingRow {
  name: string;
  /** Markdown: the zod default in backticks, or "unset (…what that means…)". */
  default: string;
  /** Markdown: the description, and what a number or a choice accepts. */
  meaning: string;
}

export interface SettingSection {
  title: string;
  rows: SettingRow[];
}

/** A setting's description (a test makes sure none is missing). */
const aboutOf = (schema: z.ZodType): SettingAbout => {
  const about = schema.meta() as Partial<SettingAbout> | undefined;
  return { ...about, description: about?.description ?? '' };
};

const defaultText = (schema: z.ZodType, about: SettingAbout): string => {
  const value = defaultOf(schema);
  if (typeof value === 'string' || typeof value === 'number') return `\`${value}\``;
  return about.unset ? `unset (${about.unset})` : 'unset';
};

/** Numbers and choices say what they accept; free text says it in its description. */
const acceptsText = (schema: z.ZodType): string => {
  const type = (innermost(schema)._zod.def as { type: string }).type;
  if (type !== 'number' && type !== 'union') return '';
  const expectation = expectationOf(schema);
  return expectation ? ` Accepts ${expectation}.` : '';
};

/** Every setting, by group, in the order of SETTING_GROUPS (env-schema.ts). */
export const settingSections = (): SettingSection[] =>
  SETTING_GROUPS.map((group) => ({
    title: group.title,
    rows: Object.entries(group.settings).map(([name, schema]) => {
      const about = aboutOf(schema);
      return {
        name,
        default: defaultText(schema, about),
        meaning: `${about.description}${acceptsText(schema)}`,
      };
    }),
  }));

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** docs/configuration.md before Prettier (scripts/config-docs.ts formats and writes it). */
export const configurationMarkdown = (): string => {
  const lines = [
    '# Configuration',
    '',
    'Every environment variable the server reads, by group, with its default and meaning.',
    '',
    '- `node dist/server/main.js --help` prints this table in the terminal.',
    '- `node dist/server/main.js --check` checks the environment and exits 0 (with a summary of what',
    '  is on), or 1 naming every bad variable.',
    '- An unknown variable that looks like one of these (a misspelling such as `INTEGRATION_KEY`, or',
    '  an unknown name under one of their prefixes such as `SMTP_HOST`) is warned about at start.',
    '',
    'This file is generated from the settings in `src/server/config/` (one `*-settings.ts` file per',
    'group), where each variable is declared and described; `src/server/config.ts` reads them. After',
    'changing a variable there, run `npm run docs:config` (a unit test fails while this file and the',
    'code differ).',
  ];
  for (const section of settingSections()) {
    lines.push('', `## ${section.title}`, '', '| variable | default | meaning |', '|---|---|---|');
    for (const row of section.rows)
      lines.push(`| \`${row.name}\` | ${cell(row.default)} | ${cell(row.meaning)} |`);
  }
  return `${lines.join('\n')}\n`;
};

/** Markdown to terminal text: no backticks. */
const plain = (text: string) => text.replace(/`/g, '');

const wrap = (text: string, width: number): string[] => {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
};

/** `main.js --help`: how to run it, and every setting (plain text, 80 columns). */
export const helpText = (): string => {
  const lines = [
    'Usage: node dist/server/main.js [--check | --help]',
    '',
    '  (no option)   migrate the database and serve',
    '  --check       check the environment and exit: 0 when the server can start',
    '                (with a summary of what is on), 1 naming every bad variable',
    '  --help, -h    print this and exit',
    '',
    'Settings, read from the environment (also in docs/configuration.md):',
  ];
  for (const section of settingSections()) {
    lines.push('', section.title.toUpperCase());
    for (const row of section.rows) {
      const fallback = `default: ${plain(row.default)}`;
      if (row.name.length < 36 && 38 + fallback.length <= 80)
        lines.push(`  ${row.name.padEnd(36)}${fallback}`);
      else {
        lines.push(`  ${row.name}`);
        lines.push(...wrap(fallback, 72).map((line) => `      ${line}`));
      }
      lines.push(...wrap(plain(row.meaning), 72).map((line) => `      ${line}`));
    }
  }
  return `${lines.join('\n')}\n`;
};
