import { messengerConfig } from '../../test-support/messaging.js';
import {
  startServer,
  uniqueAppId,
  UNLIMITED_SENDING,
  type ServerProcess,
} from '../../test-support/server-process.js';

export type { ServerProcess };

export interface FaultServerOptions {
  databaseUrl: string;
  /** Shared by the instances of one deployment (it names their Redis fan-out channel). */
  appId?: string;
  redisUrl?: string;
  port?: number;
  env?: Record<string, string>;
}

/**
 * The built server (`dist/server/main.js`) as a real child process with the demo accounts, on
 * 127.0.0.1. Sending is not rate limited unless the test asks for it.
 */
export const startFaultServer = (options: FaultServerOptions): Promise<ServerProcess> =>
  startServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    timeoutMs: 30_000,
    env: {
      DATABASE_URL: options.databaseUrl,
      DEMO_SEED: 'on',
      PUSHER_APP_ID: options.appId ?? uniqueAppId('faults'),
      ...UNLIMITED_SENDING,
      ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
      ...options.env,
    },
  });

/** The pusher key clients use (GET /messenger/config). */
export const pusherKey = async (server: Pick<ServerProcess, 'url'>): Promise<string> =>
  (await messengerConfig(server.url)).broadcaster.key;

/** True while the process runs (not exited, not killed). */
export const isAlive = (server: ServerProcess): boolean =>
  server.child.exitCode === null && server.child.signalCode === null;

/**
 * Graceful stop (SIGTERM), bounded: a process that does not exit in time is killed and reported.
 * A process that already died (and was not killed by the test) has its output printed.
 */
export const stopServer = async (server: ServerProcess | undefined, ms = 15_000): Promise<void> => {
  if (!server) return;
  if (!isAlive(server)) {
    if (server.child.signalCode !== 'SIGKILL')
      console.error(`server on port ${server.port} had exited:\n${server.output().slice(-4000)}`);
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const stopped = await Promise.race([
    server.stop().then(() => true),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  if (!stopped) {
    await server.kill();
    throw new Error(
      `server on port ${server.port} did not shut down within ${ms} ms of SIGTERM:\n${server.output().slice(-4000)}`,
    );
  }
};
