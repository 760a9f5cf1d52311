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

/** Channel names. Echo's `private('chat.' + id)` subscribes to `private-chat.{id}`. */
export const userChannelSuffix = (userId: number): string => `chat.${userId}`;
export const userChannelName = (userId: number): string => `private-${userChannelSuffix(userId)}`;
export const USER_CHANNEL_PATTERN = /^private-chat\.([1-9][0-9]{0,15})$/;

export const parseUserChannel = (channel: string): number | null => {
  const match = USER_CHANNEL_PATTERN.exec(channel);
  return match?.[1] ? Number(match[1]) : null;
};
