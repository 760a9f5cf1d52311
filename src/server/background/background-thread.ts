import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { pino } from 'pino';
import type { PresenceChangedEvent } from '../../shared/events.js';
import { openDatabase } from '../db/database.js';
import { createLimitStore } from '../lib/limit-store.js';
import { createAttachmentsModule } from '../modules/attachments/attachments.module.js';
import { createNotificationsModule } from '../modules/notifications/notifications.module.js';
import { createPresenceAnnouncementsFor } from '../modules/presence/presence.module.js';
import { createSettingsModule } from '../modules/settings/settings.module.js';
import { REDACTED_LOG_PATHS } from '../observability/request-log.js';
import { createOutbox } from '../outbox/outbox.js';
import {
  configFromWorkerData,
  toBackgroundSchema,
  type BackgroundWorkerData,
  type FromBackground,
} from './background-protocol.js';
import { createBackgroundServices } from './background-services.js';

/**
 * How long the request thread has to say who is online. Past it the question fails, and with it
 * the handler that asked: the outbox tries the task again later (backoff), under the same dedupe
 * key and Message-ID. Neither guess would be safe: "not online" would e-mail someone who is
 * reading the page (the e-mail the rule exists to hold back), "online" would postpone e-mails for
 * as long as the request thread is stuck. A failed attempt loses nothing and sends nothing twice.
 */
export const PRESENCE_ANSWER_TIMEOUT_MS = 5000;

/**
 * Database connections of the background thread (PostgreSQL): one per handler that may run at once
 * (the e-mail rule holds one for its transaction), and one each for the claims and the sweeps.
 * Fewer made e-mails wait for a connection: at 166 e-mails/s with 5, they fell 30 s behind.
 */
const poolSizeFor = (handlersAtOnce: number) => handlersAtOnce + 2;

/**
 * The background thread (ADR 017): the outbox worker with the notification handlers (e-mails,
 * webhooks), the upload sweeper and what follows a change of presence (last seen, the partners to
 * tell, e-mails that waited), on a database connection of its own, off the event loop that answers
 * requests. Started by background-work.ts; the request thread answers its presence questions,
 * publishes the presence events it is handed, and counts its outbox outcomes in its metrics.
 */
const runBackgroundThread = (port: MessagePort, data: BackgroundWorkerData) => {
  const config = configFromWorkerData(data);
  // JSON lines on stdout like the request thread's log (written from this thread, synchronously:
  // nothing is lost when it exits).
  const logger = pino(
    {
      level: config.logLevel,
      redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
    },
    pino.destination({ dest: 1, sync: true }),
  ).child({ thread: 'background' });
  const post = (message: FromBackground) => port.postMessage(message);

  const db = openDatabase(config.databaseUrl, {
    poolSize: poolSizeFor(config.outbox.concurrency),
    ...(data.searchPath === undefined ? {} : { searchPath: data.searchPath }),
  });

  // Presence lives in the request thread (in memory without REDIS_URL): asked over the port.
  let nextQuestion = 0;
  const questions = new Map<
    number,
    { resolve: (online: Set<number>) => void; reject: (error: Error) => void }
  >();
  const presence = {
    onlineAmong: (ids: readonly number[]): Promise<ReadonlySet<number>> => {
      if (ids.length === 0) return Promise.resolve(new Set());
      nextQuestion += 1;
      const id = nextQuestion;
      return new Promise<Set<number>>((resolve, reject) => {
        const timer = setTimeout(() => {
          questions.delete(id);
          reject(
            new Error(
              `presence: no answer from the request thread in ${PRESENCE_ANSWER_TIMEOUT_MS} ms`,
            ),
          );
        }, PRESENCE_ANSWER_TIMEOUT_MS);
        questions.set(id, {
          resolve: (online) => {
            clearTimeout(timer);
            resolve(online);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        post({ type: 'onlineAmong', id, ids: [...ids] });
      });
    },
  };

  const outbox = createOutbox({ db });
  // Nothing here changes settings (the handlers only read them); no one to tell of a change.
  const settings = createSettingsModule({ db });
  const notifications = createNotificationsModule(
    { config, db, logger },
    { outbox, settings, presence },
  );
  // The sweep takes no uploads: a limit store of its own that nothing counts in.
  const limits = createLimitStore({ redisUrl: undefined, prefix: 'background' });
  const background = createBackgroundServices({
    config,
    outbox,
    notifications,
    attachments: createAttachmentsModule({ config, db, limits }),
    logger,
    onOutboxOutcome: (kind, outcome) => post({ type: 'outboxOutcome', kind, outcome }),
  });

  // What follows a change of presence (the request thread keeps the store and the sockets): the
  // last seen, the partners who may know, and the e-mails that waited for the user to leave.
  const announcements = createPresenceAnnouncementsFor({
    db,
    onlineAmong: presence.onlineAmong,
    publisher: {
      publish: (channels, _event, data) => {
        post({
          type: 'presencePublish',
          channels,
          // announce publishes only the event it was given
          event: data as PresenceChangedEvent,
        });
        return Promise.resolve();
      },
    },
    onWentOffline: (userId) => notifications.receiverWentOffline(userId),
  });
  const answerPresence = (id: number, work: Promise<number>) => {
    work.then(
      (told) => post({ type: 'presenceDone', id, told }),
      (error: unknown) => {
        logger.warn({ err: error }, 'background: a change of presence could not be announced');
        post({
          type: 'presenceFailed',
          id,
          message: error instanceof Error ? error.message : String(error),
        });
      },
    );
  };

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await background.stop();
    } catch (error) {
      logger.error({ err: error }, 'background: could not stop cleanly');
    }
    for (const { reject } of questions.values()) reject(new Error('background: stopping'));
    questions.clear();
    notifications.close();
    await limits.close();
    await db.destroy().catch((error: unknown) => {
      logger.warn({ err: error }, 'background: could not close the database');
    });
    logger.info('background: stopped');
    // Ends this thread only; anything still holding it (a pooled socket) does not keep it.
    process.exit(0);
  };

  port.on('message', (raw: unknown) => {
    const parsed = toBackgroundSchema.safeParse(raw);
    if (!parsed.success) {
      logger.warn({ message: raw }, 'background: an unknown message from the request thread');
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'onlineAmong':
        questions.get(message.id)?.resolve(new Set(message.online));
        questions.delete(message.id);
        break;
      case 'onlineAmongFailed':
        questions.get(message.id)?.reject(new Error(message.message));
        questions.delete(message.id);
        break;
      case 'presenceAnnounce':
        answerPresence(
          message.id,
          announcements.announce(message.userId, message.event, {
            evenIfHidden: message.evenIfHidden,
          }),
        );
        break;
      case 'presenceWentOffline':
        answerPresence(
          message.id,
          announcements.wentOffline(message.userId, message.at).then(() => 0),
        );
        break;
      case 'stop':
        void stop();
        break;
    }
  });

  background.start();
  logger.info('background: started');
  post({ type: 'started' });
};

if (parentPort) runBackgroundThread(parentPort, workerData as BackgroundWorkerData);
