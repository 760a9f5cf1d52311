/**
 * docs/configuration.md, generated from the settings in src/server/config/ (*-settings.ts).
 * Run: npm run docs:config (a unit test, src/server/config/config-reference.test.ts, fails while the file
 * and the code differ).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { configurationMarkdown } from '../src/server/config/config-reference.js';

export const CONFIGURATION_DOC = resolve(import.meta.dirname, '../docs/configuration.md');

/** The file's content: the reference, formatted as `npm run format` would. */
export const configurationDoc = async (): Promise<string> =>
  format(configurationMarkdown(), {
    ...(await resolveConfig(CONFIGURATION_DOC)),
    filepath: CONFIGURATION_DOC,
  });

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(CONFIGURATION_DOC, await configurationDoc());
  console.log(`wrote ${CONFIGURATION_DOC}`);
}
