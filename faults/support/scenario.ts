import { expect } from 'vitest';
import { DEMO, type DemoUser } from '../../test-support/accounts.js';
import { signInOverHttp, type HttpSession } from '../../test-support/http-session.js';
import {
  conversationById,
  conversationWith,
  newClientId,
  sendMessage,
  type Conversation,
  type SendOutcome,
} from '../../test-support/messaging.js';
import { sleep, until } from '../../test-support/wait.js';
import type { FaultDatabase } from './databases.js';
import { openLiveClient, type LiveClient, type LiveClientOptions } from './live-client.js';

export const signInAll = async <K extends DemoUser>(
  baseUrl: string,
  users: readonly K[],
): Promise<Record<K, HttpSession>> => {
  const sessions = {} as Record<K, HttpSession>;
  for (const user of users) sessions[user] = await signInOverHttp(baseUrl, DEMO[user]);
  return sessions;
};

/** One send the client made: acknowledged (2xx) or not (yet). */
export interface SendRecord {
  clientId: string;
  text: string;
  conversationId: number;
  attempts: number;
  /** The stored chat id from the 2xx answer. */
  ackedId?: number;
  statuses: number[];
}

/**
 * A user sending `count` messages one after another, as a client with safe retries does: a send
 * that got no answer (server gone, 503) is retried with the same client_id until it is answered.
 */
export class Sender {
  readonly records: SendRecord[] = [];
  private stopped = false;

  constructor(
    readonly session: HttpSession,
    readonly conversation: Conversation,
    readonly label: string,
  ) {}

  get acked(): number {
    return this.records.filter((record) => record.ackedId !== undefined).length;
  }

  stop(): void {
    this.stopped = true;
  }

  async run(
    count: number,
    options: {
      socketId?: () => string | undefined;
      onAck?: (outcome: SendOutcome) => void;
      pauseMs?: number;
      /** The uploads the `index`-th message carries (every retry sends the same ones). */
      attachmentIds?: (index: number) => number[];
      /** Answers retried with the same client_id (0: no answer); any other failure throws. */
      retryStatuses?: readonly number[];
    } = {},
  ): Promise<void> {
    for (let i = 0; i < count && !this.stopped; i++) {
      const record: SendRecord = {
        clientId: newClientId(),
        text: `${this.label} #${this.records.length}`,
        conversationId: this.conversation.id,
        attempts: 0,
        statuses: [],
      };
      this.records.push(record);
      const attachmentIds = options.attachmentIds?.(i);
      for (;;) {
        record.attempts += 1;
        const outcome = await sendMessage(this.session, this.conversation, record.text, {
          clientId: record.clientId,
          socketId: options.socketId?.(),
          ...(attachmentIds ? { attachmentIds } : {}),
        });
        record.statuses.push(outcome.status);
        if (outcome.ok) {
          record.ackedId = outcome.chat.id;
          options.onAck?.(outcome);
          break;
        }
        if (!(options.retryStatuses ?? [0, 503]).includes(outcome.status))
          throw new Error(`${this.label}: send answered ${outcome.status} ${outcome.body}`);
        if (record.attempts > 400)
          throw new Error(`${this.label}: send never answered (${outcome.body})`);
        await sleep(100);
      }
      if (options.pauseMs) await sleep(options.pauseMs);
    }
  }
}

/** Every acknowledged send is stored exactly once, under the id it was acknowledged with. */
export const expectStoredExactlyOnce = async (
  db: FaultDatabase,
  records: SendRecord[],
): Promise<void> => {
  const stored = await db.chats();
  const byClientId = new Map<string, number[]>();
  for (const chat of stored) {
    if (chat.client_id === null) continue;
    const ids = byClientId.get(chat.client_id) ?? [];
    ids.push(chat.id);
    byClientId.set(chat.client_id, ids);
  }
  const problems: string[] = [];
  for (const record of records) {
    const ids = byClientId.get(record.clientId) ?? [];
    if (record.ackedId !== undefined && (ids.length !== 1 || ids[0] !== record.ackedId)) {
      problems.push(
        `${record.text}: acknowledged as ${record.ackedId}, stored as [${ids.join(', ')}]`,
      );
    }
    if (record.ackedId === undefined && ids.length > 1)
      problems.push(`${record.text}: stored ${ids.length} times`);
  }
  const texts = new Map<string, number>();
  for (const chat of stored) texts.set(chat.message, (texts.get(chat.message) ?? 0) + 1);
  for (const record of records)
    if ((texts.get(record.text) ?? 0) > 1) problems.push(`${record.text}: text stored twice`);
  expect(problems).toEqual([]);
};

/** The client shows exactly what the database holds for each of its conversations (by id, once each). */
export const expectThreadsMatch = async (
  db: FaultDatabase,
  client: LiveClient,
  conversations: Conversation[],
  ms = 30_000,
) => {
  const describe = async () => {
    const lines: string[] = [];
    for (const conversation of conversations) {
      const stored = (await db.chats(conversation.id)).map((chat) => chat.id);
      const shown = client.thread(conversation.id).map((chat) => chat.id);
      const missing = stored.filter((id) => !shown.includes(id));
      const extra = shown.filter((id) => !stored.includes(id));
      if (missing.length || extra.length)
        lines.push(
          `conversation ${conversation.id}: missing [${missing.join(',')}] extra [${extra.join(',')}]`,
        );
    }
    return lines;
  };
  // Live events of the last sends may still be on their way: wait (bounded) for them.
  await until(
    async () => (await describe()).length === 0,
    `client ${client.socketId ?? '?'} shows every stored message`,
    ms,
  ).catch(() => undefined);
  expect(await describe()).toEqual([]);
  for (const fetch of client.catchUps)
    expect(new Set(fetch.map((chat) => chat.id)).size).toBe(fetch.length);
  const eventIds = client.events.map((chat) => chat.id);
  expect(new Set(eventIds).size, 'a live event was delivered twice').toBe(eventIds.length);
  expect(client.catchUpErrors).toEqual([]);
};

/** Opens one live client per party, each watching the given conversations from its own side. */
export const openClients = async (
  base: Omit<LiveClientOptions, 'session' | 'watch'>,
  parties: { session: HttpSession; watch: Conversation[] }[],
): Promise<LiveClient[]> =>
  Promise.all(
    parties.map(async ({ session, watch }) =>
      openLiveClient({
        ...base,
        session,
        watch: await Promise.all(
          watch.map((conversation) => conversationById(session, conversation.id)),
        ),
      }),
    ),
  );

export const conversationsFor = async (
  sessions: Record<string, HttpSession>,
  pairs: [string, string][],
) => {
  const result: Record<string, Conversation> = {};
  for (const [from, to] of pairs) {
    const sender = sessions[from];
    const receiver = sessions[to];
    if (!sender || !receiver) throw new Error(`unknown party ${from} or ${to}`);
    result[`${from}->${to}`] = await conversationWith(sender, receiver.userId);
  }
  return result;
};
