import type { Locale } from '../../../shared/integration.js';
import { escapeHtml } from '../../lib/html.js';
import { brandHeader, staticPageStart, type Brand } from '../../lib/static-page.js';

export type UnsubscribePageState = 'confirm' | 'done' | 'resubscribed' | 'invalid' | 'expired';

interface PageTexts {
  title: string;
  body: string;
}

const TEXTS: Record<
  Locale,
  Record<UnsubscribePageState, PageTexts> & {
    button: string;
    undo: string;
    back: string;
  }
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
    resubscribed: {
      title: 'Notification e-mails are on again',
      body: 'You will get e-mails about unread messages again. You can turn them off from the settings menu on the Messages page.',
    },
    invalid: {
      title: 'This link is invalid',
      body: 'Open the link from the e-mail again, or turn e-mails off from the settings menu on the Messages page.',
    },
    expired: {
      title: 'This link has expired',
      body: 'Notification e-mails stay off. You can turn them on again from the settings menu on the Messages page.',
    },
    button: 'Turn off e-mails',
    undo: 'Undo: turn e-mails back on',
    back: 'Back to Messages',
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
    resubscribed: {
      title: 'أُعيد تفعيل رسائل الإشعارات بالبريد الإلكتروني',
      body: 'ستصلك مجددًا رسائل بريد إلكتروني عن الرسائل غير المقروءة. يمكنك إيقافها من قائمة الإعدادات في صفحة الرسائل.',
    },
    invalid: {
      title: 'هذا الرابط غير صالح',
      body: 'افتح الرابط من رسالة البريد الإلكتروني مرة أخرى، أو أوقف الرسائل من قائمة الإعدادات في صفحة الرسائل.',
    },
    expired: {
      title: 'انتهت صلاحية هذا الرابط',
      body: 'تبقى رسائل الإشعارات بالبريد الإلكتروني متوقفة. يمكنك إعادة تفعيلها من قائمة الإعدادات في صفحة الرسائل.',
    },
    button: 'إيقاف الرسائل',
    undo: 'تراجع: أعد تفعيل الرسائل',
    back: 'العودة إلى الرسائل',
  },
};

export interface UnsubscribePageOptions {
  /** Where the page's form posts (confirm: unsubscribe; done: the undo). */
  formAction?: string;
  /** The built client's stylesheets (those of the sign-in page), so the page looks like it. */
  stylesheets?: readonly string[];
}

/**
 * The unsubscribe page: asks before turning e-mails off (a GET changes nothing,
 * so a mail scanner following the link unsubscribes nobody), says it is done with an undo (a POST
 * with the undo's own token, valid for an hour), that e-mails are on again, that the link is not
 * valid, or that the undo's link has expired. Under the site's brand (its name, logo and colours),
 * styled like the sign-in page (its stylesheets, the same card), with a link back to Messages;
 * static text in the user's language, no script, no inline style (the CSP holds).
 */
export const unsubscribePage = (
  locale: Locale,
  state: UnsubscribePageState,
  brand: Brand,
  options: UnsubscribePageOptions = {},
): string => {
  const texts = TEXTS[locale];
  const text = texts[state];
  const { formAction } = options;
  const button = state === 'confirm' ? texts.button : state === 'done' ? texts.undo : undefined;
  const form =
    button && formAction
      ? `\n<form class="login-form" method="post" action="${escapeHtml(formAction)}">${state === 'confirm' ? '\n<input type="hidden" name="List-Unsubscribe" value="One-Click">' : ''}
<button type="submit" class="button ${state === 'confirm' ? 'button--primary' : 'button--secondary'} button--block">${escapeHtml(button)}</button>
</form>`
      : '';
  return `${staticPageStart(locale, text.title, brand, options)}
<body>
<div class="login-page">
<main class="login-card">
${brandHeader(brand)}
<h1 class="login-card__title">${escapeHtml(text.title)}</h1>
<p class="login-card__subtitle">${escapeHtml(text.body)}</p>${form}
<p><a class="unsubscribe__back" href="/messages">${escapeHtml(texts.back)}</a></p>
</main>
</div>
</body>
</html>
`;
};
