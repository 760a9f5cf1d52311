import { z } from 'zod';
import { chatSchema, messengerUserSchema } from './models.js';

/** Event name as broadcast (Laravel-style class name); Echo listens with namespace App.Events. */
export const CHAT_MESSAGE_EVENT = 'App\\Events\\ChatMessage';
export const EVENT_NAMESPACE = 'App.Events';

/**
 * `messengerUser` is the conversation as the owner of the channel the event was published to sees
 * it (their unread count, their archive flag): each party's channel gets its own event.
 */
export const chatMessageEventSchema = z.object({
  chatMessage: chatSchema,
  messengerUser: messengerUserSchema,
});
export type ChatMessageEvent = z.infer<typeof chatMessageEventSchema>;

/** A user came online or went offline; to their conversation partners who are online. */
export const PRESENCE_CHANGED_EVENT = 'App\\Events\\PresenceChanged';
export const presenceChangedEventSchema = z.object({
  user_id: z.number().int(),
  online: z.boolean(),
  /** When they went offline; null when they come online. */
  last_seen_at: z.string().nullable(),
});
export type PresenceChangedEvent = z.infer<typeof presenceChangedEventSchema>;

/** The reader marked messages seen; to the sender's channel, only when the reader's receipts are on. */
export const MESSAGES_SEEN_EVENT = 'App\\Events\\MessagesSeen';
export const messagesSeenEventSchema = z.object({
  messenger_user_id: z.number().int(),
  reader_id: z.number().int(),
  seen_at: z.string(),
  /** The newest message of the conversation now seen by the reader. */
  last_seen_id: z.number().int(),
});
export type MessagesSeenEvent = z.infer<typeof messagesSeenEventSchema>;

/** The other party is typing in that conversation (at most one every 2 s per conversation and typist). */
export const TYPING_EVENT = 'App\\Events\\Typing';
export const typingEventSchema = z.object({
  messenger_user_id: z.number().int(),
  user_id: z.number().int(),
});
export type TypingEvent = z.infer<typeof typingEventSchema>;

/**
 * A message was edited or deleted (`message.deleted_at` set); to both parties' channels (the
 * `X-Socket-ID` of the request excluded, as for sends). `messengerUser` as for `ChatMessage`: the
 * conversation as that channel's owner sees it (its preview follows when it was the latest message).
 */
export const MESSAGE_UPDATED_EVENT = 'App\\Events\\MessageUpdated';
export const messageUpdatedEventSchema = z.object({
  messenger_user_id: z.number().int(),
  message: chatSchema,
  messengerUser: messengerUserSchema,
});
export type MessageUpdatedEvent = z.infer<typeof messageUpdatedEventSchema>;

/** Channel names. Echo's `private('chat.' + id)` subscribes to `private-chat.{id}`. */
export const userChannelSuffix = (userId: number): string => `chat.${userId}`;
export const userChannelName = (userId: number): string => `private-${userChannelSuffix(userId)}`;
export const USER_CHANNEL_PATTERN = /^private-chat\.([1-9][0-9]{0,15})$/;

export const parseUserChannel = (channel: string): number | null => {
  const match = USER_CHANNEL_PATTERN.exec(channel);
  return match?.[1] ? Number(match[1]) : null;
};
