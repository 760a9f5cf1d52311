import type { Config } from '../config.js';
import type { AttachmentsService } from '../modules/attachments/attachments.service.js';
import { createUploadSweeper } from '../modules/attachments/upload-sweeper.service.js';
import type { NotificationsService } from '../modules/notifications/notifications.service.js';
import type { Outbox } from '../outbox/outbox.js';
import {
  createOutboxWorker,
  type OutboxLogger,
  type OutboxOutcome,
  type OutboxWorker,
} from '../outbox/outbox-worker.js';
import type { BackgroundMode, BackgroundWork } from './background-work.js';

/**
 * What background work logs with (Fastify's logger in the request thread, pino in the other): what
 * the outbox worker needs, which covers the mailer and the upload sweeper.
 */
export type BackgroundLogger = OutboxLogger;

export interface BackgroundServicesOptions {
  config: Config;
  outbox: Outbox;
  notifications: NotificationsService;
  attachments: AttachmentsService;
  logger: BackgroundLogger;
  /** Told how each outbox attempt ended (metrics). */
  onOutboxOutcome: (kind: string, outcome: OutboxOutcome) => void;
}

/**
 * The background work of one server process: the outbox worker with the notification handlers
 * (e-mails, webhooks; ADR 013) and the upload sweeper. Runs in the background thread (ADR 017), or
 * in the request thread when the app is built `inline` (the API tests).
 */
export const createBackgroundServices = ({
  config,
  outbox,
  notifications,
  attachments,
  logger,
  onOutboxOutcome,
}: BackgroundServicesOptions) => {
  const outboxWorker = createOutboxWorker({
    outbox,
    pollMs: config.outbox.pollMs,
    leaseMs: config.outbox.leaseMs,
    backoff: { baseMs: config.outbox.retryBaseMs, capMs: 3_600_000 },
    retentionMs: config.outbox.retentionMs,
    concurrency: config.outbox.concurrency,
    logger,
    onOutcome: onOutboxOutcome,
  });
  notifications.registerHandlers(outboxWorker);
  const uploadSweeper = createUploadSweeper({
    attachmentsService: attachments,
    uploadTempDir: config.storage.uploadTempDir,
    everyMs: config.storage.sweepMs,
    logger,
  });
  return {
    outboxWorker,
    /** The outbox worker polls (unless `pollOutbox` is false: tests drive it with `runOnce`), the sweeper sweeps. */
    start({ pollOutbox = true }: { pollOutbox?: boolean } = {}) {
      if (pollOutbox) outboxWorker.start();
      uploadSweeper.start();
    },
    /**
     * No new work; running handlers get a bounded time, those still running then are cut short
     * and their tasks handed back (the database is still open).
     */
    async stop() {
      await outboxWorker.close();
      await uploadSweeper.stop();
    },
  };
};

export type BackgroundServices = ReturnType<typeof createBackgroundServices>;

/**
 * Where background work runs: `thread` when asked, unless the database is SQLite in memory (a
 * second connection would open another, empty database), so its work stays on this thread.
 */
export const backgroundModeFor = (
  config: Config,
  wanted: BackgroundMode = 'inline',
): BackgroundMode =>
  wanted === 'thread' && /^sqlite:(:memory:)?$/.test(config.databaseUrl) ? 'inline' : wanted;

/**
 * This process's background work: the thread started before the services (it answers presence
 * from the start), or else the outbox worker and the sweeper on this thread, with the outbox
 * worker exposed for tests that drive it with `runOnce` (`pollOutbox` false).
 */
export const backgroundWorkOf = (
  thread: BackgroundWork | undefined,
  { pollOutbox, ...inline }: BackgroundServicesOptions & { pollOutbox: boolean },
): { background: BackgroundWork; outboxWorker?: OutboxWorker } => {
  if (thread) return { background: thread };
  const services = createBackgroundServices(inline);
  return {
    outboxWorker: services.outboxWorker,
    background: { start: () => services.start({ pollOutbox }), stop: () => services.stop() },
  };
};
