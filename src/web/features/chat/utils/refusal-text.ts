import type { TFunction } from 'i18next';
import { BLOCKED_MESSAGE, SUSPENDED_MESSAGE } from '../../../lib/contract.js';

/**
 * The server's reason for refusing a send or an upload (403), in the page's language when it is
 * one the contract words (the other party blocked the viewer, the account is suspended); any other
 * reason as the server said it.
 */
export const refusalText = (message: string, t: TFunction): string =>
  message === BLOCKED_MESSAGE
    ? t('chat.refusedBlocked')
    : message === SUSPENDED_MESSAGE
      ? t('chat.refusedSuspended')
      : message;
