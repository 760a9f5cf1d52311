import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from '../../src/server/test-support/server-process.js';

export interface E2eServer {
  url: string;
  server: ServerProcess;
  /** SIGTERM the server and remove its temporary database folder. */
  stop: () => Promise<void>;
}

/**
 * Starts the built server (`dist/server/main.js`) on a fresh SQLite database in its own temp folder,
 * seeded with the demo data. One per test file.
 */
export const startE2eServer = async (): Promise<E2eServer> => {
  const dir = mkdtempSync(join(tmpdir(), 'messenger-e2e-'));
  let server: ServerProcess;
  try {
    server = await startServer({
      env: { DATABASE_URL: `sqlite:${join(dir, 'e2e.db')}`, DEMO_SEED: 'on' },
      timeoutMs: 30_000,
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: server.url,
    server,
    stop: async () => {
      try {
        await server.stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
};
