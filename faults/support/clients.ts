import { randomUUID } from 'node:crypto';
import PusherModule from 'pusher-js';
import type { Channel, Options as PusherOptions } from 'pusher-js';
import type {
  GetMessageResponse,
  InitialDataResponse,
  MessengerConfig,
  SendMessageResponse,
} from '../../src/shared/api.js';
import {
  CHAT_MESSAGE_EVENT,
  userChannelName,
  type ChatMessageEvent,
} from '../../src/shared/events.js';
import type { Chat, MessengerUser } from '../../src/shared/models.js';
import { signInOverHttp, type HttpSession } from '../../src/server/test-support/http-client.js';
import { sleep, until } from './wait.js';

/**
 * pusher-js is CommonJS (`module.exports = Pusher`): Node's ESM default import is the class, while
 * its typings describe a namespace with `default`. Accept both shapes.
 */
type PusherClass = (typeof PusherModule)['default'];
export const Pusher: PusherClass =
  (PusherModule as unknown as { default?: PusherClass }).default ??
  (PusherModule as unknown as PusherClass);
export type PusherClient = InstanceType<PusherClass>;

export type { HttpSession };
export const signIn = (baseUrl: string, email: string): Promise<HttpSession> =>
  signInOverHttp(baseUrl, email);

/** One conversation seen from one viewer: whom to address and about which job. */
export interface Conversation {
  id: number;
  receiverId: number;
  jobId: number | null;
}

export const conversationOf = (viewerId: number, record: MessengerUser): Conversation => ({
  id: record.id,
  receiverId: record.candidate_id === viewerId ? record.company_id : record.candidate_id,
  jobId: record.job_id,
});

export const initialData = async (session: HttpSession): Promise<InitialDataResponse> => {
  const response = await session.call('GET', '/load/messengers/initial/data');
  if (response.status !== 200)
    throw new Error(`initial data: ${response.status} ${await response.text()}`);
  return (await response.json()) as InitialDataResponse;
};

/** The viewer's conversation with another user (about a job, or without one). */
export const conversationWith = async (
  session: HttpSession,
  otherUserId: number,
  jobId?: number | null,
): Promise<Conversation> => {
  const { messengerUsers } = await initialData(session);
  const found = messengerUsers
    .map((record) => conversationOf(session.userId, record))
    .find(
      (conversation) =>
        conversation.receiverId === otherUserId &&
        (jobId === undefined || conversation.jobId === jobId),
    );
  if (!found) throw new Error(`user ${session.userId} has no conversation with ${otherUserId}`);
  return found;
};

/** A conversation (by id) as seen by this viewer. */
export const conversationById = async (
  session: HttpSession,
  conversationId: number,
): Promise<Conversation> => {
  const { messengerUsers } = await initialData(session);
  const record = messengerUsers.find((candidate) => candidate.id === conversationId);
  if (!record)
    throw new Error(`conversation ${conversationId} is not one of user ${session.userId}'s`);
  return conversationOf(session.userId, record);
};

export type SendOutcome =
  | { ok: true; status: number; chat: Chat }
  | { ok: false; status: number; retryAfter: string | null; body: string };

/** POST /user/send/message; a network failure (server gone) is status 0. */
export const sendMessage = async (
  session: HttpSession,
  conversation: Conversation,
  message: string,
  options: { clientId?: string; socketId?: string | undefined } = {},
): Promise<SendOutcome> => {
  let response: Response;
  try {
    response = await session.call(
      'POST',
      '/user/send/message',
      {
        receiver_id: conversation.receiverId,
        messenger_user: conversation.id,
        job_id: conversation.jobId,
        message,
        client_id: options.clientId ?? randomUUID(),
      },
      options.socketId ? { 'x-socket-id': options.socketId } : {},
    );
  } catch (error) {
    return { ok: false, status: 0, retryAfter: null, body: String(error) };
  }
  if (response.status >= 200 && response.status < 300) {
    const body = (await response.json()) as SendMessageResponse;
    return { ok: true, status: response.status, chat: body.message };
  }
  return {
    ok: false,
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  };
};

/**
 * The catch-up: pages back through a conversation's history (newest first) until `stopAtId` is
 * reached or there is nothing older. Returns every chat fetched, in the order received (duplicates
 * included, so callers can check that one fetch returns each message once).
 */
export const fetchHistory = async (
  session: HttpSession,
  conversation: Conversation,
  options: { stopAtId?: number; limit?: number } = {},
): Promise<Chat[]> => {
  const fetched: Chat[] = [];
  let before: number | undefined;
  for (;;) {
    const response = await session.call('POST', '/user/get/message', {
      receiver_id: conversation.receiverId,
      job_id: conversation.jobId,
      limit: options.limit ?? 100,
      ...(before === undefined ? {} : { before }),
    });
    if (response.status !== 200)
      throw new Error(`get message: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as GetMessageResponse;
    const chats = page.messages.flatMap((group) => group.chats);
    fetched.push(...chats);
    const oldest = chats[0]?.id;
    if (!page.has_more || oldest === undefined) return fetched;
    if (options.stopAtId !== undefined && oldest <= options.stopAtId) return fetched;
    before = oldest;
  }
};

export const messengerConfig = async (baseUrl: string): Promise<MessengerConfig> => {
  const response = await fetch(`${baseUrl}/messenger/config`);
  return (await response.json()) as MessengerConfig;
};

/** POST /broadcasting/auth the way the page does (form body, session cookie, CSRF header). */
export const authorizeOverHttp = async (
  baseUrl: string,
  session: Pick<HttpSession, 'cookie' | 'csrf'>,
  socketId: string,
  channelName: string,
): Promise<Response> =>
  fetch(`${baseUrl}/broadcasting/auth`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: session.cookie,
      'x-xsrf-token': session.csrf,
      accept: 'application/json',
    },
    body: new URLSearchParams({ socket_id: socketId, channel_name: channelName }).toString(),
  });

/**
 * Tells every pusher-js client of this process that the network is back, as a browser's `online`
 * event does (pusher-js then retries at once instead of waiting out its back-off). Node has no such
 * signal of its own; the tests that model "the device went offline" send it when the network returns.
 */
export const networkBackOnline = (): void => {
  Pusher.Runtime.getNetwork().emit('online', undefined);
};

export interface LiveClientOptions {
  /** Where the calls go (http://127.0.0.1:port). */
  baseUrl: string;
  session: HttpSession;
  /** The websocket port (the server's, or a proxy's in front of it). */
  wsPort: number;
  /** The pusher key (GET /messenger/config → broadcaster.key). */
  key: string;
  /** Conversations this client has open: loaded first, caught up after every (re)subscription. */
  watch?: Conversation[];
  /** Runs inside the channel authorization, before the signature is returned (race tests). */
  beforeAuthorized?: () => Promise<void>;
  pusher?: Partial<PusherOptions>;
  /** Subscribe to this channel instead of the viewer's own (attack tests). */
  channelName?: string;
}

const liveClients = new Set<LiveClient>();

/**
 * A model of the messaging page on stock pusher-js: load the open conversations, subscribe to the
 * viewer's `private-chat.{id}`, and after every `subscription_succeeded` (the first one and each
 * one after a reconnection) fetch what was missed and merge by id. Live events and sent messages
 * merge by id too; `thread()` is what the page shows (sorted by id).
 */
export class LiveClient {
  readonly pusher: PusherClient;
  channel: Channel | undefined;
  /** Every ChatMessage event in arrival order. */
  readonly events: Chat[] = [];
  /** Connection states in order. */
  readonly states: string[] = [];
  /** subscription errors (status codes) seen on the channel. */
  readonly subscriptionErrors: unknown[] = [];
  /** Chats of the watched conversations, keyed by id (the page's thread cache). */
  private readonly view = new Map<number, Chat>();
  /** Each catch-up fetch (duplicates included), for exactly-once checks. */
  readonly catchUps: Chat[][] = [];
  readonly catchUpErrors: unknown[] = [];
  subscriptions = 0;
  private catchingUp: Promise<void> = Promise.resolve();
  private catchUpsStarted = 0;
  private catchUpsDone = 0;

  constructor(private readonly options: LiveClientOptions) {
    const { baseUrl, session } = options;
    // pusher-js connects at once; the channel is subscribed by subscribe() (after the first load).
    this.pusher = new Pusher(options.key, {
      cluster: 'mt1',
      wsHost: '127.0.0.1',
      wsPort: options.wsPort,
      wssPort: options.wsPort,
      forceTLS: false,
      enabledTransports: ['ws'],
      disableStats: true,
      channelAuthorization: {
        endpoint: '/broadcasting/auth',
        transport: 'ajax',
        customHandler: ({ socketId, channelName }, callback) => {
          void (async () => {
            await options.beforeAuthorized?.();
            const response = await authorizeOverHttp(baseUrl, session, socketId, channelName);
            const text = await response.text();
            if (response.status !== 200) {
              callback(
                Object.assign(new Error(`auth ${response.status}: ${text}`), {
                  status: response.status,
                }),
                null,
              );
              return;
            }
            callback(null, JSON.parse(text) as { auth: string });
          })().catch((error: unknown) =>
            callback(error instanceof Error ? error : new Error(String(error)), null),
          );
        },
      },
      ...options.pusher,
    });
    this.pusher.connection.bind('state_change', ({ current }: { current: string }) =>
      this.states.push(current),
    );
    liveClients.add(this);
  }

  /** Subscribes to the viewer's channel (or `channelName`); every success triggers a catch-up. */
  subscribe(): Channel {
    if (this.channel) return this.channel;
    const channel = this.pusher.subscribe(
      this.options.channelName ?? userChannelName(this.options.session.userId),
    );
    channel.bind(CHAT_MESSAGE_EVENT, (data: ChatMessageEvent) => {
      this.events.push(data.chatMessage);
      this.merge([data.chatMessage]);
    });
    channel.bind('pusher:subscription_succeeded', () => {
      this.subscriptions += 1;
      this.scheduleCatchUp();
    });
    channel.bind('pusher:subscription_error', (error: unknown) =>
      this.subscriptionErrors.push(error),
    );
    this.channel = channel;
    return channel;
  }

  get socketId(): string | undefined {
    return this.pusher.connection.socket_id || undefined;
  }

  get state(): string {
    return this.pusher.connection.state;
  }

  /** Times the connection came back (connected after having been connected before). */
  get reconnections(): number {
    return Math.max(0, this.states.filter((state) => state === 'connected').length - 1);
  }

  /** The page's first load of the watched conversations (before subscribing, as the page does). */
  async load(): Promise<void> {
    for (const conversation of this.options.watch ?? [])
      this.merge(await fetchHistory(this.options.session, conversation));
  }

  /** What the page shows for a conversation: every chat once, by id. */
  thread(conversationId: number): Chat[] {
    return [...this.view.values()]
      .filter((chat) => chat.messenger_user_id === conversationId)
      .sort((a, b) => a.id - b.id);
  }

  /** The page merges the answer of its own send (it is excluded from its own socket's events). */
  merge(chats: Chat[]): void {
    for (const chat of chats) this.view.set(chat.id, chat);
  }

  /** Resolves once subscribed `count` times in all and every catch-up started so far is done. */
  async settled(count = 1, ms = 30_000): Promise<void> {
    await until(
      () => this.subscriptions >= count && this.catchUpsDone === this.catchUpsStarted,
      `client ${this.options.session.userId} settled`,
      ms,
    );
    await this.catchingUp;
  }

  async close(): Promise<void> {
    liveClients.delete(this);
    this.pusher.disconnect();
    await until(
      () => this.state === 'disconnected' || this.state === 'failed',
      'pusher-js disconnected',
      5_000,
    ).catch(() => undefined);
  }

  private scheduleCatchUp(): void {
    this.catchUpsStarted += 1;
    this.catchingUp = this.catchingUp
      .then(async () => {
        for (const conversation of this.options.watch ?? []) {
          // The whole history, page by page: a message committed late with a lower id is found too.
          const fetched = await this.withRetries(() =>
            fetchHistory(this.options.session, conversation),
          );
          this.catchUps.push(fetched);
          this.merge(fetched);
        }
      })
      .catch((error: unknown) => {
        this.catchUpErrors.push(error);
      })
      .finally(() => {
        this.catchUpsDone += 1;
      });
  }

  private async withRetries<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= 20) throw error;
        await sleep(500);
      }
    }
  }
}

/** Disconnects every live client still open (afterAll safety net, also after a failed setup). */
export const closeAllLiveClients = async (): Promise<void> => {
  await Promise.all([...liveClients].map((client) => client.close()));
};

/** Opens a live client and waits until it is subscribed and caught up. */
export const openLiveClient = async (options: LiveClientOptions): Promise<LiveClient> => {
  const client = new LiveClient(options);
  await client.load();
  client.subscribe();
  await client.settled(1);
  return client;
};

export const newClientId = (): string => randomUUID();
