import type { Locale } from '../../../shared/integration.js';
import { escapeHtml } from './notification-email.js';

export type UnsubscribePageState = 'confirm' | 'done' | 'invalid';

const TEXTS: Record<
  Locale,
  Record<UnsubscribePageState, { title: string; body: string }> & { button: string }
> = {
  en: {
    confirm: {
      title: 'Turn off notification e-mails?',
      body: 'You will no longer get e-mails about unread messages. You can turn them on again from the settings menu on the Messages page.',
    },
    done: {
      title: 'Notification e-mails are off',
      body: 'You will no longer get e-mails about unread messages. You can turn them on again from the settings menu on the Messages page.',
    },
    invalid: {
      title: 'This link is invalid',
      body: 'Open the link from the e-mail again, or turn e-mails off from the settings menu on the Messages page.',
    },
    button: 'Turn off e-mails',
  },
  ar: {
    confirm: {
      title: 'إيقاف رسائل الإشعارات بالبريد الإلكتروني؟',
      body: 'لن تصلك بعد الآن رسائل بريد إلكتروني عن الرسائل غير المقروءة. يمكنك إعادة تفعيلها من قائمة الإعدادات في صفحة الرسائل.',
    },
    done: {
      title: 'تم إيقاف رسائل الإشعارات بالبريد الإلكتروني',
      body: 'لن تصلك بعد الآن رسائل بريد إلكتروني عن الرسائل غير المقروءة. يمكنك إعادة تفعيلها من قائمة الإعدادات في صفحة الرسائل.',
    },
    invalid: {
      title: 'هذا الرابط غير صالح',
      body: 'افتح الرابط من رسالة البريد الإلكتروني مرة أخرى، أو أوقف الرسائل من قائمة الإعدادات في صفحة الرسائل.',
    },
    button: 'إيقاف الرسائل',
  },
};

/**
 * The unsubscribe page (contract Part 2): asks before turning e-mails off (a GET changes nothing,
 * so a mail scanner following the link unsubscribes nobody), says it is done, or that the link is
 * not valid. Static text in the user's language, no script, no inline style (the CSP holds).
 */
export const unsubscribePage = (
  locale: Locale,
  state: UnsubscribePageState,
  formAction?: string,
): string => {
  const text = TEXTS[locale][state];
  const form =
    state === 'confirm' && formAction
      ? `\n<form method="post" action="${escapeHtml(formAction)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">${escapeHtml(TEXTS[locale].button)}</button>
</form>`
      : '';
  return `<!doctype html>
<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(text.title)}</title>
</head>
<body>
<main>
<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(text.body)}</p>${form}
</main>
</body>
</html>
`;
};
