import { userChannelName } from '../../../shared/events.js';
import type { Broadcaster } from '../../realtime/broadcaster-port.js';

const PUBLISH_TIME_LIMIT_MS = 2000;

const withTimeLimit = <T>(work: Promise<T>, ms: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
};

/** Tells one user's channel; the change is stored, so a stalled broadcaster delays, never fails, it. */
export type PublishToUser = <E extends object>(
  userId: number,
  name: string,
  event: E,
  socketId?: string,
) => Promise<void>;

export const createPublishToUser =
  (publisher: Broadcaster, onPublishError: (error: unknown) => void): PublishToUser =>
  (userId, name, event, socketId) =>
    withTimeLimit(
      publisher.publish([userChannelName(userId)], name, event, socketId),
      PUBLISH_TIME_LIMIT_MS,
    ).catch(onPublishError);
