import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchChromium } from '../../test-support/browser.js';
import { freshSqliteFile, type ServerDatabase } from '../../test-support/databases.js';
import { startServer, type ServerProcess } from '../../test-support/server-process.js';
import {
  assertNoPageProblems,
  closeAll,
  newUserPage,
  resetPageProblems,
  type NewUserPageOptions,
  type UserPage,
} from './browser.js';
import { saveScreenshot } from './screenshots.js';

export interface E2eServer {
  url: string;
  server: ServerProcess;
  /** The server's SQLite file (tests may add rows to it, see `e2e-database.ts`). */
  databaseFile: string;
  /** Its SQLite database (for a test to set up what no call can, e.g. a demo user's external id). */
  database: ServerDatabase;
  /** SIGTERM the server and remove its database. */
  stop: () => Promise<void>;
}

/**
 * Starts the built server (`dist/server/main.js`) on a fresh SQLite database seeded with the demo
 * data (unless `env` says `DEMO_SEED: 'off'`). One per test file.
 */
const startE2eServer = async (
  env: Record<string, string> = {},
  prepareDatabase?: (database: ServerDatabase) => Promise<void>,
): Promise<E2eServer> => {
  const database: ServerDatabase = freshSqliteFile('messenger-e2e');
  let server: ServerProcess;
  try {
    await prepareDatabase?.(database);
    server = await startServer({
      env: { DEMO_SEED: 'on', ...env, DATABASE_URL: database.url },
      timeoutMs: 30_000,
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    url: server.url,
    server,
    databaseFile: database.location,
    database,
    stop: async () => {
      try {
        await server.stop();
      } finally {
        await database.drop();
      }
    },
  };
};

export interface SuiteOptions {
  /** Fail a test on console errors too (uncaught page errors and dialogs always fail it). */
  failOnConsoleErrors?: boolean;
  /** Console errors a file provokes on purpose. */
  allowConsole?: readonly RegExp[];
  /** More environment for the server (e.g. SSO_SECRET). */
  env?: Record<string, string>;
  /** Fills the (empty) database before the server starts (with `env: { DEMO_SEED: 'off' }`). */
  prepareDatabase?: (database: ServerDatabase) => Promise<void>;
  /** More Chromium switches (e.g. `THIRD_PARTY_COOKIES_BLOCKED`). */
  chromiumArgs?: readonly string[];
}

export interface Suite {
  readonly url: string;
  readonly server: E2eServer;
  readonly browser: Browser;
  /** A new browser context + page for one user; closed in afterAll (or earlier with `close`). */
  newUser(
    label: string,
    options?: Omit<NewUserPageOptions, 'baseURL' | 'label'>,
  ): Promise<UserPage>;
  close(user: UserPage): Promise<void>;
}

const safeName = (text: string) =>
  text
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)
    .toLowerCase();

/**
 * Per test file: the real server on a fresh seeded SQLite database and one Chromium; after each test
 * the pages' uncaught errors (and dialogs) fail it; on a failure every open page is photographed into
 * test-results/screenshots and the server's output is printed.
 */
export const useE2eSuite = (options: SuiteOptions = {}): Suite => {
  let server: E2eServer | undefined;
  let browser: Browser | undefined;
  const users: UserPage[] = [];

  beforeAll(async () => {
    // The server (migrations and demo seed, seconds) and Chromium start side by side: they do not
    // depend on each other, and doing them one after the other cost every file the browser's launch.
    const [started, launched] = await Promise.allSettled([
      startE2eServer(options.env, options.prepareDatabase),
      launchChromium(options.chromiumArgs),
    ]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    // whichever failed fails the file; afterAll stops whatever did start
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
  });

  afterEach(async (context) => {
    const failed =
      (context.task.result?.errors?.length ?? 0) > 0 || context.task.result?.state === 'fail';
    if (failed) {
      for (const user of users) {
        await saveScreenshot(
          user.page,
          `failure-${safeName(context.task.name)}-${user.label}`,
        ).catch(() => undefined);
      }
      const output = server?.server.output() ?? '';
      if (output) console.error(`server output:\n${output.slice(-4000)}`);
      for (const user of users) {
        if (user.problems.consoleErrors.length > 0)
          console.error(
            `[${user.label}] console errors:\n${user.problems.consoleErrors.join('\n')}`,
          );
      }
    }
    try {
      assertNoPageProblems(users, {
        console: options.failOnConsoleErrors ?? false,
        allowConsole: options.allowConsole ?? [],
      });
    } finally {
      resetPageProblems(users);
    }
  });

  afterAll(async () => {
    await closeAll(browser, users.splice(0));
    await server?.stop();
  });

  const required = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not running (beforeAll failed?)`);
    return value;
  };

  return {
    get url() {
      return required(server, 'the server').url;
    },
    get server() {
      return required(server, 'the server');
    },
    get browser() {
      return required(browser, 'the browser');
    },
    async newUser(label, userOptions = {}) {
      const user = await newUserPage(required(browser, 'the browser'), {
        ...userOptions,
        baseURL: required(server, 'the server').url,
        label,
      });
      users.push(user);
      return user;
    },
    async close(user) {
      const index = users.indexOf(user);
      if (index >= 0) users.splice(index, 1);
      try {
        assertNoPageProblems([user], {
          console: options.failOnConsoleErrors ?? false,
          allowConsole: options.allowConsole ?? [],
        });
      } finally {
        await user.context.close().catch(() => undefined);
      }
    },
  };
};
