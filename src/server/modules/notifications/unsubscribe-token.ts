import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/crypto.js';

/**
 * Unsubscribe links (RFC 8058): `<user id>.<HMAC-SHA256 of "unsubscribe:<user id>">`, keyed with
 * a secret this deployment keeps. No expiry (a link in an old e-mail still works) and nothing to
 * store; it can only ever turn that one user's e-mails off.
 */
export const createUnsubscribeTokens = (secret: string) => {
  const macOf = (userId: number) =>
    createHmac('sha256', secret).update(`unsubscribe:${userId}`).digest('base64url');
  return {
    tokenFor: (userId: number): string => `${userId}.${macOf(userId)}`,
    /** The user id the token was made for; undefined when it is not one of ours. */
    userIdOf: (token: string): number | undefined => {
      const match = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return undefined;
      const userId = Number(match[1]);
      if (userId > 2_147_483_647) return undefined;
      return safeEqual(match[2] as string, macOf(userId)) ? userId : undefined;
    },
  };
};

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
