import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/crypto.js';

/** How long the undo on the "e-mails are off" page works. */
export const RESUBSCRIBE_TOKEN_TTL_MS = 60 * 60_000;

const USER_ID = '([1-9]\\d{0,9})';
const MAC = '([A-Za-z0-9_-]{43})';
const UNSUBSCRIBE_TOKEN = new RegExp(`^${USER_ID}\\.${MAC}$`);
const RESUBSCRIBE_TOKEN = new RegExp(`^${USER_ID}\\.([1-9]\\d{0,11})\\.${MAC}$`);
const userIdIn = (text: string): number | undefined => {
  const userId = Number(text);
  return userId > 2_147_483_647 ? undefined : userId;
};

/**
 * Unsubscribe links (RFC 8058): `<user id>.<HMAC-SHA256 of "unsubscribe:<user id>">`, keyed with
 * a secret this deployment keeps. No expiry (a link in an old e-mail still works) and nothing to
 * store; it can only ever turn that one user's e-mails off.
 *
 * The undo of an unsubscribe has its own token, given only on the page that says e-mails are off:
 * `<user id>.<expiry, Unix seconds>.<HMAC-SHA256 of "resubscribe:<user id>:<expiry>">`, valid for
 * an hour. So whoever holds an old e-mail can turn e-mails off, never back on.
 */
export const createUnsubscribeTokens = (secret: string) => {
  const mac = (text: string) => createHmac('sha256', secret).update(text).digest('base64url');
  const unsubscribeMac = (userId: number) => mac(`unsubscribe:${userId}`);
  const resubscribeMac = (userId: number, expiresAt: number) =>
    mac(`resubscribe:${userId}:${expiresAt}`);
  return {
    tokenFor: (userId: number): string => `${userId}.${unsubscribeMac(userId)}`,
    /** The user id the token was made for; undefined when it is not one of ours. */
    userIdOf: (token: string): number | undefined => {
      const match = UNSUBSCRIBE_TOKEN.exec(token);
      if (!match) return undefined;
      const userId = userIdIn(match[1] as string);
      if (userId === undefined) return undefined;
      return safeEqual(match[2] as string, unsubscribeMac(userId)) ? userId : undefined;
    },
    /** The undo's token for that user, made at `now`: valid for an hour from then. */
    resubscribeTokenFor: (userId: number, now: Date): string => {
      const expiresAt = Math.ceil((now.getTime() + RESUBSCRIBE_TOKEN_TTL_MS) / 1000);
      return `${userId}.${expiresAt}.${resubscribeMac(userId, expiresAt)}`;
    },
    /**
     * The user id an undo token was made for, while it is valid at `now`; undefined when it is
     * not one of ours, has expired, or is an unsubscribe token (which can never turn e-mails on).
     */
    resubscribeUserIdOf: (token: string, now: Date): number | undefined => {
      const match = RESUBSCRIBE_TOKEN.exec(token);
      if (!match) return undefined;
      const userId = userIdIn(match[1] as string);
      const expiresAt = Number(match[2]);
      if (userId === undefined || expiresAt * 1000 <= now.getTime()) return undefined;
      return safeEqual(match[3] as string, resubscribeMac(userId, expiresAt)) ? userId : undefined;
    },
  };
};

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
