import type { MessengerConfig } from '../../shared/messenger-config.js';
import type {
  ChatMessageEvent,
  MessagesSeenEvent,
  MessageUpdatedEvent,
  PresenceChangedEvent,
  TypingEvent,
} from '../../shared/events.js';
import type { LiveStatus } from './live-status.js';

/** The events of the viewer's private channel, by name. */
export interface ChannelEvents {
  ChatMessage: ChatMessageEvent;
  PresenceChanged: PresenceChangedEvent;
  MessagesSeen: MessagesSeenEvent;
  Typing: TypingEvent;
  /** A message edited or deleted (an edit's answer and a delete made on this page come the same way). */
  MessageUpdated: MessageUpdatedEvent;
}

export interface ActivityHandlers {
  presence: (event: PresenceChangedEvent) => void;
  seen: (event: MessagesSeenEvent) => void;
  typing: (event: TypingEvent) => void;
  /** A message of a conversation of the viewer's was edited or deleted. */
  updated: (event: MessageUpdatedEvent) => void;
}

/** What the page needs from the live connection; `echo.ts` implements it, tests fake it. */
export interface RealtimeConnection {
  /** The socket id for the `X-Socket-ID` header, when connected. */
  socketId(): string | undefined;
  /**
   * Listens to `ChatMessage` on the viewer's private channel (each event with the message and the
   * conversation as the viewer sees it). `onSubscribed` runs each time the subscription is
   * confirmed: the first time and after each reconnection, once the server sends to this socket
   * again (a catch-up started any earlier could miss a message stored in between). Returns a
   * function that stops.
   */
  listenForChatMessages(
    userId: number,
    handler: (event: ChatMessageEvent) => void,
    onSubscribed?: () => void,
  ): () => void;
  /**
   * Listens to the viewer's private channel for presence changes of partners, read receipts of the
   * viewer's messages, the other party's typing and edited or deleted messages. Returns a function that stops.
   */
  listenForActivity(userId: number, handlers: ActivityHandlers): () => void;
  /** Whether the page is live, making its first connection, or trying to get back after a drop. */
  status(): LiveStatus;
  /** Called with each new status; returns a function that stops. */
  onStatusChange(handler: (status: LiveStatus) => void): () => void;
  disconnect(): void;
}

export type ConnectRealtime = (
  broadcaster: MessengerConfig['broadcaster'],
) => Promise<RealtimeConnection>;
