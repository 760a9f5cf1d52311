import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The server's module walls are kept by `npm run lint` (eslint.config.js, `local/import-boundaries`):
 * outside its folder a module is reached only through its services, routes, events and factory;
 * everything else in it is internal (ADR 025, 026), the composition root included.
 */
const root = resolve(import.meta.dirname, '../../..');

const boundaryErrors = async (filePath: string, code: string): Promise<string[]> => {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: resolve(root, filePath) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'local/import-boundaries')
    .map((message) => message.message);
};

/** The wall's findings on `file` if it imported `name` from `specifier`. */
const importing = (file: string, name: string, specifier: string) =>
  boundaryErrors(file, `import { ${name} } from '${specifier}';\nexport const x = ${name};\n`);

const WALL =
  'outside its folder a module is reached only through what it exports on purpose: `<name>.service.ts`, `<name>.routes.ts`, `<area>.events.ts`, `<area>.module.ts` (the rest is internal; ADR 025, 026).';

describe('server module boundaries', () => {
  it("refuses another module's repository or presenter, and allows its service", async () => {
    const file = 'src/server/modules/settings/settings.service.ts';
    expect(
      await importing(file, 'createMessengerRepository', '../messenger/messenger.repository.js'),
    ).toEqual([`"../messenger/messenger.repository.js": ${WALL}`]);
    expect(
      await importing(file, 'presentChat', '../messenger/messenger.presenter.js'),
    ).toHaveLength(1);
    expect(
      await importing(file, 'createMessengerService', '../messenger/messenger.service.js'),
    ).toEqual([]);
  }, 120_000);

  it('lets a module use its own repository', async () => {
    expect(
      await importing(
        'src/server/modules/settings/settings.service.ts',
        'createSettingsRepository',
        './settings.repository.js',
      ),
    ).toEqual([]);
  }, 60_000);

  it("refuses another module's store or helper, from a module and from the server's top level", async () => {
    expect(
      await importing(
        'src/server/modules/safety/safety.service.ts',
        'RedisPresenceStore',
        '../presence/redis-presence-store.js',
      ),
    ).toEqual([`"../presence/redis-presence-store.js": ${WALL}`]);
    expect(
      await importing(
        'src/server/routes.ts',
        'conversationUrl',
        './modules/notifications/notification-email.js',
      ),
    ).toEqual([`"./modules/notifications/notification-email.js": ${WALL}`]);
    expect(
      await importing(
        'src/server/services.ts',
        'createCredentialCache',
        './modules/auth/credential-cache.js',
      ),
    ).toEqual([`"./modules/auth/credential-cache.js": ${WALL}`]);
  }, 60_000);

  it("allows services, routes and a module's factory from anywhere, repositories to nobody outside", async () => {
    expect(
      await importing(
        'src/server/modules/safety/safety.service.ts',
        'createPresenceService',
        '../presence/presence.service.js',
      ),
    ).toEqual([]);
    expect(
      await importing(
        'src/server/services.ts',
        'createSafetyModule',
        './modules/safety/safety.module.js',
      ),
    ).toEqual([]);
    expect(
      await importing(
        'src/server/routes.ts',
        'presenceRoutes',
        './modules/presence/presence.routes.js',
      ),
    ).toEqual([]);
    expect(
      await importing(
        'src/server/services.ts',
        'createSafetyRepository',
        './modules/safety/safety.repository.js',
      ),
    ).toEqual([`"./modules/safety/safety.repository.js": ${WALL}`]);
    expect(
      await importing(
        'src/server/routes.ts',
        'createSafetyRepository',
        './modules/safety/safety.repository.js',
      ),
    ).toHaveLength(1);
  }, 60_000);

  it("lets a module's own files and tests use its internals", async () => {
    expect(
      await importing(
        'src/server/modules/presence/presence.service.ts',
        'RedisPresenceStore',
        './redis-presence-store.js',
      ),
    ).toEqual([]);
    expect(
      await importing(
        'src/server/modules/safety/safety.api.test.ts',
        'MemoryPresenceStore',
        '../presence/memory-presence-store.js',
      ),
    ).toEqual([]);
  }, 60_000);

  it('keeps the demo seeder out of the running server', async () => {
    const SEEDER =
      'production code knows the demo through db/demo-mode.ts; the seeder is loaded only to seed (npm run seed, process/prepare-database.ts).';
    expect(await importing('src/server/services.ts', 'seedDemo', './db/seed.js')).toEqual([
      `"./db/seed.js": ${SEEDER}`,
    ]);
    expect(
      await importing('src/server/process/startup-banner.ts', 'JOBS', '../db/demo-data.js'),
    ).toEqual([`"../db/demo-data.js": ${SEEDER}`]);
    expect(
      await importing(
        'src/server/process/startup-banner.ts',
        'DEMO_ACCOUNTS',
        '../db/demo-mode.js',
      ),
    ).toEqual([]);
    expect(await importing('src/server/db/seed-cli.ts', 'seedDemo', './seed.js')).toEqual([]);
  }, 60_000);
});
