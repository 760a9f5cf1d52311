import type { Channel, Options as PusherOptions } from 'pusher-js';
import {
  CHAT_MESSAGE_EVENT,
  userChannelName,
  type ChatMessageEvent,
} from '../../src/shared/events.js';
import type { Chat } from '../../src/shared/models.js';
import type { HttpSession } from '../../test-support/http-session.js';
import { fetchHistory, type Conversation } from '../../test-support/messaging.js';
import {
  authorizeThroughServer,
  disconnectPusher,
  pusherJsClient,
  type PusherJs,
} from '../../test-support/pusher-js.js';
import { sleep, until } from '../../test-support/wait.js';

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
  readonly pusher: PusherJs;
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
    this.pusher = pusherJsClient(
      { port: options.wsPort, key: options.key },
      authorizeThroughServer(baseUrl, session, { before: options.beforeAuthorized }),
      { wssPort: options.wsPort, disableStats: true, ...options.pusher },
    );
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
    await disconnectPusher(this.pusher, 5_000);
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
