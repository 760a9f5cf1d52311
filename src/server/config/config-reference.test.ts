import { readFileSync } from 'node:fs';
import { CONFIGURATION_DOC, configurationDoc } from '../../../scripts/config-docs.js';
import { envSchema, SETTING_GROUPS, SETTING_NAMES } from './env-schema.js';
import { helpText, settingSections } from './config-reference.js';

describe('the configuration reference', () => {
  it('docs/configuration.md is what the code generates', async () => {
    const onDisk = readFileSync(CONFIGURATION_DOC, 'utf8');
    // when this fails: run `npm run docs:config` and commit docs/configuration.md
    expect(onDisk, 'docs/configuration.md is out of date: run `npm run docs:config`').toBe(
      await configurationDoc(),
    );
  });

  it('lists every variable the server reads once, in a group, with a description', () => {
    const grouped = SETTING_GROUPS.flatMap((group) => Object.keys(group.settings));
    expect([...grouped].sort()).toEqual([...SETTING_NAMES].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
    for (const name of SETTING_NAMES) {
      const about = envSchema.shape[name as keyof typeof envSchema.shape].meta();
      expect(about?.description, `${name} has no description`).toMatch(/\S{3}/);
    }
  });

  it('shows each default as the code applies it', () => {
    const rows = new Map(
      settingSections().flatMap((section) => section.rows.map((row) => [row.name, row])),
    );
    expect(rows.get('PORT')?.default).toBe('`3000`');
    expect(rows.get('DATABASE_URL')?.default).toBe('`sqlite:./data/messenger.db`');
    expect(rows.get('SEND_RATE_BURST')?.default).toBe('`30`');
    expect(rows.get('SITE_NAME')?.default).toBe('unset (`Messages`)');
    expect(rows.get('INTEGRATION_KEYS')?.default).toBe('unset (off: `/api/v1` answers 404)');
    expect(rows.get('PORT')?.meaning).toMatch(/Accepts a whole number from 0 to 65535\.$/);
  });

  it('writes the same rows in the docs and in --help', async () => {
    const doc = await configurationDoc();
    const help = helpText();
    for (const section of settingSections()) {
      expect(doc).toContain(`## ${section.title}`);
      expect(help).toContain(section.title.toUpperCase());
      for (const row of section.rows) {
        expect(doc).toMatch(new RegExp(`^\\| \`${row.name}\` +\\|`, 'm'));
        expect(help).toMatch(new RegExp(`^  ${row.name}( |$)`, 'm'));
      }
    }
    // plain text for a terminal: no Markdown, no line wider than 80 columns
    expect(help).not.toContain('`');
    expect(help).not.toMatch(/^\s*\|/m);
    for (const line of help.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
