import type { TFunction } from 'i18next';
import { EDIT_WINDOW_PASSED_MESSAGE } from '../../../../shared/message-changes-paths.js';
import { isApiError } from '../../../lib/api-client.js';
import { refusalText } from './refusal-text.js';

/**
 * Why an edit or a deletion did not go through, in the page's language when the contract words it:
 * the window passed or the message is deleted already (422), blocked or suspended (403); any other
 * refusal as the server said it (422 names the field); no answer at all: `fallback`.
 */
export const changeRefusalText = (error: unknown, t: TFunction, fallback: string): string => {
  if (!isApiError(error)) return fallback;
  if (error.status === 422) {
    const said = error.errors?.message?.[0] ?? error.message;
    return said === EDIT_WINDOW_PASSED_MESSAGE ? t('messageEdits.windowPassed') : said;
  }
  if (error.status === 403) return refusalText(error.message, t);
  if (error.status === 404) return t('messageEdits.notFound');
  return fallback;
};
