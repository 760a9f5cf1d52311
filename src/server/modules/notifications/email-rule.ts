import type { Db } from '../../db/database.js';
import type { Outbox } from '../../outbox/outbox.js';
import { presentHostChat } from '../../read-model/chat.presenter.js';
import type { HostWebhooks } from './host-webhooks.js';
import type { NotificationsRepository } from './notifications.repository.js';
import { TASK } from './notification-tasks.js';
import type { WebhookSender } from './webhook-sender.js';

/**
 * Messages sent in a burst are e-mailed together: the rule waits for the burst's last message to
 * be due as well, if it was sent within this window after the first (a fifth of the delay, at most
 * a minute: 60 s with the default 300 s). No message is e-mailed before it is due.
 */
export const gatheringWindowMs = (emailDelayMs: number): number =>
  Math.min(60_000, Math.floor(emailDelayMs / 5));

/**
 * While a batch's e-mail waits for SMTP, the rule looks again after the minimum interval (at
 * least this long, for deployments without one).
 */
const PENDING_EMAIL_RECHECK_MS = 1000;

/** At most this many messages are taken in one batch; the rest wait for the next one. */
export const MAX_BATCH_MESSAGES = 1000;

/** While the receiver is online, their due e-mail is looked at again this often (and when they go offline). */
export const ONLINE_RECHECK_MS = 60_000;

export interface EmailRuleOptions {
  db: Db;
  repository: NotificationsRepository;
  outbox: Outbox;
  emailDelayMs: number;
  emailMinIntervalMs: number;
  /** Whether the receiver is on the page now (presence). */
  isOnline: (userId: number) => Promise<boolean>;
  /** Undefined: no webhooks (WEBHOOK_URL unset), so no `message.unseen`. */
  webhook: WebhookSender | undefined;
  enqueueWebhook: HostWebhooks['enqueueWebhook'];
}

/**
 * The e-mail rule for one receiver, in one transaction that holds their notification row: the
 * messages unseen and due (sent at least the delay ago) and not taken before become one batch,
 * unless the last batch is more recent than the minimum interval (then it waits until then).
 * A batch is one e-mail (when they have an address and e-mails on) and one `message.unseen`.
 */
export const createEmailRule = (options: EmailRuleOptions) => {
  const { db, repository, outbox, webhook, isOnline, enqueueWebhook } = options;
  const gatherMs = gatheringWindowMs(options.emailDelayMs);

  return async (receiverId: number): Promise<void> => {
    // Asked before the transaction, not inside it: presence may be another thread's answer (the
    // background thread asks the request thread), and on SQLite the transaction holds the database's
    // write lock, which the request thread would wait for while it is asked.
    const online = await isOnline(receiverId);
    await db.kysely.transaction().execute(async (trx) => {
      const recipient = await repository.lockRecipient(trx, receiverId);
      if (!recipient || recipient.erased_at !== null) return;
      const now = outbox.now();
      const cutoff = new Date(now.getTime() - options.emailDelayMs).toISOString();
      // The due messages, and those that become due within the gathering window.
      const pending = await repository.dueMessages(
        trx,
        receiverId,
        new Date(now.getTime() - options.emailDelayMs + gatherMs).toISOString(),
        MAX_BATCH_MESSAGES,
      );
      const due = pending.filter((chat) => chat.created_at <= cutoff);
      const oldest = due[0];
      if (!oldest) return;
      const retryAt = async (moment: number): Promise<void> => {
        const runAt = new Date(moment).toISOString();
        // Re-armed if a task for that moment already ran (another instance's clock was ahead).
        await outbox.enqueue(
          trx,
          {
            kind: TASK.due,
            dedupeKey: `${TASK.due}:${receiverId}:at:${runAt}`,
            payload: { receiverId },
            runAt,
          },
          { rearm: true },
        );
      };
      // The interval runs from the last batch, or from when its e-mail went out if that was later.
      const last = Math.max(
        recipient.last_notified_at ? Date.parse(recipient.last_notified_at) : 0,
        recipient.last_emailed_at ? Date.parse(recipient.last_emailed_at) : 0,
      );
      const nextAllowed = last ? last + options.emailMinIntervalMs : 0;
      // Too soon after the last batch: decide again when it is allowed (one task per moment).
      if (nextAllowed > now.getTime()) return retryAt(nextAllowed);
      // The last batch's e-mail has not gone out yet (SMTP down): no second one beside it; look
      // again later (e-mails are not queued up to arrive together when SMTP is back).
      if (recipient.last_email_key) {
        const previous = await outbox.findByDedupeKey(recipient.last_email_key, trx);
        if (previous && previous.done_at === null)
          return retryAt(
            Math.max(
              // postponed while the receiver is online: not before it is looked at again
              Date.parse(previous.run_at),
              now.getTime() + Math.max(options.emailMinIntervalMs, PENDING_EMAIL_RECHECK_MS),
            ),
          );
      }
      // A burst (several messages within moments) goes out as one e-mail: wait for its last
      // message to be due too, but never longer than the window after the first one was.
      const burstEnd = Date.parse(oldest.created_at) + gatherMs;
      const lastOfBurst = pending.findLast(
        (chat) => chat.created_at > cutoff && Date.parse(chat.created_at) <= burstEnd,
      );
      if (lastOfBurst) return retryAt(Date.parse(lastOfBurst.created_at) + options.emailDelayMs);
      const nowText = now.toISOString();
      const chatIds = due.map((chat) => chat.id);
      const lastId = chatIds[chatIds.length - 1] as number;
      const emailTo = await repository.findEmailRecipient(trx, receiverId);
      const emailKey =
        emailTo?.email && emailTo.email_notifications !== 0
          ? `${TASK.email}:${receiverId}:${lastId}`
          : null;
      await repository.markNotified(trx, receiverId, chatIds, nowText, emailKey);
      if (emailKey) {
        // On the page now: the e-mail waits (the host's webhook below does not).
        await outbox.enqueue(trx, {
          kind: TASK.email,
          dedupeKey: emailKey,
          payload: { receiverId, chatIds, decidedAt: nowText },
          runAt: online ? new Date(now.getTime() + ONLINE_RECHECK_MS).toISOString() : nowText,
        });
      }
      const dueFiles = webhook ? await repository.attachmentsOfChats(trx, chatIds) : [];
      await enqueueWebhook(trx, `webhook:message.unseen:${receiverId}:${lastId}`, {
        type: 'message.unseen',
        timestamp: nowText,
        data: {
          receiver_id: receiverId,
          receiver_external_id: recipient.external_id,
          messages: due.map((chat) =>
            presentHostChat(
              chat,
              dueFiles.filter((file) => file.chat_id === chat.id),
              chat,
            ),
          ),
        },
      });
    });
  };
};
