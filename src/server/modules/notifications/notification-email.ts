import { DEFAULT_BRAND_COLOR } from '../../config.js';
import { escapeHtml } from '../../lib/html.js';
import { textColorOn } from '../../../shared/color-contrast.js';
import type { Locale } from '../../../shared/integration.js';
import { containBidiControls, DELETED_USER_NAME } from '../../../shared/text.js';

/** One message as the e-mail shows it. */
export interface EmailMessage {
  id: number;
  sender_id: number;
  messenger_user_id: number;
  message: string;
  created_at: string;
  sender_name: string;
  /** The job the conversation is about (null: none). */
  job_title: string | null;
}

export interface NotificationEmailInput {
  locale: Locale;
  /** The reader's IANA time zone: message times are given in it (UTC when it is not known here). */
  timeZone: string;
  /** The site's name (`SITE_NAME`): before the subject, in the header and the footer, when set. */
  siteName?: string | undefined;
  /** `BRAND_LOGO_URL` (a path is taken on `publicUrl`): the HTML part's header shows it. */
  logoUrl?: string | undefined;
  /** `BRAND_COLOR` (`#rrggbb`): the HTML part's header and button, their text black or white. */
  brandColor?: string | undefined;
  recipientName: string;
  /** Unseen messages, any order. */
  messages: EmailMessage[];
  publicUrl: URL;
  unsubscribeUrl: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** At most this many conversations, each with its latest this many messages. */
export const EMAIL_MAX_CONVERSATIONS = 5;
export const EMAIL_MAX_MESSAGES_PER_CONVERSATION = 3;

interface Texts {
  subjectOne: (sender: string) => string;
  subjectSeveral: (sender: string) => string;
  subjectTwo: (first: string, second: string) => string;
  subjectMore: (first: string, second: string, others: number) => string;
  greeting: (name: string) => string;
  job: (title: string) => string;
  intro: string;
  open: string;
  moreMessages: (count: number) => string;
  moreConversations: (count: number) => string;
  why: string;
  unsubscribe: string;
  deletedUser: string;
  sentBy: (site: string) => string;
}

/** Built once: constructing Intl formatters costs far more than using them (one per e-mail adds up). */
const PLURAL_RULES: Record<Locale, Intl.PluralRules> = {
  en: new Intl.PluralRules('en'),
  ar: new Intl.PluralRules('ar'),
};

/**
 * Message times, in the reader's time zone with the zone named. Explicit fields, not
 * dateStyle/timeStyle: those cannot be combined with timeZoneName before V8 12 (Node 20 throws
 * "Can't set option timeZoneName when dateStyle is used").
 */
const timeFormat = (tag: string, timeZone: string) =>
  new Intl.DateTimeFormat(tag, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  });
const LOCALE_TAGS: Record<Locale, string> = { en: 'en-GB', ar: 'ar-EG' };
/** Built once per language and zone (constructing one costs far more than using it). */
const TIME_FORMATS = new Map<string, Intl.DateTimeFormat>();
const timeFormatFor = (locale: Locale, timeZone: string): Intl.DateTimeFormat => {
  const key = `${locale}|${timeZone}`;
  let format = TIME_FORMATS.get(key);
  if (!format) {
    try {
      format = timeFormat(LOCALE_TAGS[locale], timeZone);
    } catch {
      // a zone this runtime does not know (saved under another one): UTC, named as such
      return timeFormatFor(locale, 'UTC');
    }
    if (TIME_FORMATS.size < 1000) TIME_FORMATS.set(key, format);
  }
  return format;
};

const plural = (
  locale: Locale,
  count: number,
  forms: Partial<Record<Intl.LDMLPluralRule, string>>,
) =>
  (forms[PLURAL_RULES[locale].select(count)] ?? forms.other ?? '').replace(
    '{n}',
    count.toLocaleString(locale === 'ar' ? 'ar-EG' : 'en'),
  );

const TEXTS: Record<Locale, Texts> = {
  en: {
    subjectOne: (sender) => `New message from ${sender}`,
    subjectSeveral: (sender) => `New messages from ${sender}`,
    subjectTwo: (first, second) => `New messages from ${first} and ${second}`,
    subjectMore: (first, second, others) =>
      `New messages from ${first}, ${second} and ${plural('en', others, { one: '{n} other', other: '{n} others' })}`,
    greeting: (name) => `Hello ${name},`,
    job: (title) => `About the job: ${title}`,
    intro: 'these messages are waiting for you:',
    open: 'Open the conversation',
    moreMessages: (count) =>
      plural('en', count, {
        one: 'and {n} more message in this conversation',
        other: 'and {n} more messages in this conversation',
      }),
    moreConversations: (count) =>
      plural('en', count, {
        one: 'and {n} more conversation with unread messages',
        other: 'and {n} more conversations with unread messages',
      }),
    why: 'You get this e-mail because e-mail notifications are on for your account.',
    unsubscribe: 'Turn off e-mail notifications',
    deletedUser: DELETED_USER_NAME,
    sentBy: (site) => `Sent by ${site}.`,
  },
  ar: {
    subjectOne: (sender) => `رسالة جديدة من ${sender}`,
    subjectSeveral: (sender) => `رسائل جديدة من ${sender}`,
    subjectTwo: (first, second) => `رسائل جديدة من ${first} و${second}`,
    subjectMore: (first, second, others) =>
      `رسائل جديدة من ${first} و${second} و${plural('ar', others, {
        one: 'شخص آخر',
        two: 'شخصين آخرين',
        few: '{n} أشخاص آخرين',
        other: '{n} شخصًا آخر',
      })}`,
    greeting: (name) => `مرحبًا ${name}،`,
    job: (title) => `بخصوص الوظيفة: ${title}`,
    intro: 'هذه الرسائل بانتظارك:',
    open: 'افتح المحادثة',
    moreMessages: (count) =>
      plural('ar', count, {
        one: 'ورسالة أخرى في هذه المحادثة',
        two: 'ورسالتان أخريان في هذه المحادثة',
        few: 'و{n} رسائل أخرى في هذه المحادثة',
        other: 'و{n} رسالة أخرى في هذه المحادثة',
      }),
    moreConversations: (count) =>
      plural('ar', count, {
        one: 'ومحادثة أخرى فيها رسائل غير مقروءة',
        two: 'ومحادثتان أخريان فيهما رسائل غير مقروءة',
        few: 'و{n} محادثات أخرى فيها رسائل غير مقروءة',
        other: 'و{n} محادثة أخرى فيها رسائل غير مقروءة',
      }),
    why: 'تصلك هذه الرسالة لأن إشعارات البريد الإلكتروني مفعّلة في حسابك.',
    unsubscribe: 'إيقاف إشعارات البريد الإلكتروني',
    deletedUser: 'مستخدم محذوف',
    sentBy: (site) => `أُرسلت من ${site}.`,
  },
};

/** A header (the subject) on one line, however the names were written. */
const oneLine = (text: string): string => text.replace(/[\r\n\t]+/g, ' ').trim();

/** The page of one conversation, as the receiver opens it (contract: `target` and `tab`). */
export const conversationUrl = (publicUrl: URL, otherPartyId: number, conversationId: number) => {
  const url = new URL('/messages', publicUrl);
  url.searchParams.set('target', String(otherPartyId));
  url.searchParams.set('tab', String(conversationId));
  return url.toString();
};

interface ConversationGroup {
  conversationId: number;
  senderId: number;
  senderName: string;
  jobTitle: string | null;
  /** Latest few, oldest first. */
  shown: EmailMessage[];
  hidden: number;
  latestId: number;
}

const groupByConversation = (
  messages: EmailMessage[],
  deletedUser: string,
): ConversationGroup[] => {
  const byConversation = new Map<number, EmailMessage[]>();
  for (const message of [...messages].sort((a, b) => a.id - b.id)) {
    const list = byConversation.get(message.messenger_user_id) ?? [];
    list.push(message);
    byConversation.set(message.messenger_user_id, list);
  }
  return [...byConversation.entries()]
    .map(([conversationId, list]) => {
      const latest = list[list.length - 1] as EmailMessage;
      return {
        conversationId,
        senderId: latest.sender_id,
        senderName: latest.sender_name === DELETED_USER_NAME ? deletedUser : latest.sender_name,
        jobTitle: latest.job_title,
        shown: list.slice(-EMAIL_MAX_MESSAGES_PER_CONVERSATION),
        hidden: Math.max(0, list.length - EMAIL_MAX_MESSAGES_PER_CONVERSATION),
        latestId: latest.id,
      };
    })
    .sort((a, b) => b.latestId - a.latestId);
};

const subjectOf = (texts: Texts, groups: ConversationGroup[], messageCount: number): string => {
  const senders = [...new Set(groups.map((group) => group.senderName))];
  const [first = '', second = ''] = senders;
  if (senders.length === 1)
    return messageCount === 1 ? texts.subjectOne(first) : texts.subjectSeveral(first);
  if (senders.length === 2) return texts.subjectTwo(first, second);
  return texts.subjectMore(first, second, senders.length - 2);
};

/**
 * The notification e-mail for a batch of unseen messages: the latest few of at
 * most five conversations, newest conversation first, in the receiver's language (Arabic right to
 * left), every user-written text escaped, each conversation linked, an unsubscribe link at the end.
 */
export const renderNotificationEmail = (input: NotificationEmailInput): RenderedEmail => {
  // What users wrote cannot reverse the e-mail's text: its bidi overrides and embeddings become
  // isolates, closed at the end of each line (a message "x \u202eevil" shows "x evil").
  const contained = input.messages.map((message) => ({
    ...message,
    message: containBidiControls(message.message),
    sender_name: containBidiControls(message.sender_name),
    job_title: message.job_title === null ? null : containBidiControls(message.job_title),
  }));
  const { locale } = input;
  const texts = TEXTS[locale];
  const dir = locale === 'ar' ? 'rtl' : 'ltr';
  const align = locale === 'ar' ? 'right' : 'left';
  const time = timeFormatFor(locale, input.timeZone);
  const groups = groupByConversation(contained, texts.deletedUser);
  const shownGroups = groups.slice(0, EMAIL_MAX_CONVERSATIONS);
  const hiddenConversations = groups.length - shownGroups.length;
  const siteName = input.siteName && containBidiControls(input.siteName.trim());
  const subject = oneLine(
    `${siteName ? `${siteName}: ` : ''}${subjectOf(texts, groups, contained.length)}`,
  );
  const accent = input.brandColor ?? DEFAULT_BRAND_COLOR;
  // text on the accent: black or white, whichever contrasts more (computed, not assumed)
  const onAccent = textColorOn(accent);
  const logo = input.logoUrl ? new URL(input.logoUrl, input.publicUrl).href : undefined;
  const header = siteName
    ? `<div style="background:${accent};color:${onAccent};padding:12px 16px;border-radius:8px;font-size:18px;font-weight:700;unicode-bidi:plaintext">${logo ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(siteName)}" height="32" style="height:32px;max-width:160px;vertical-align:middle;margin-inline-end:12px">` : ''}<span style="vertical-align:middle">${escapeHtml(siteName)}</span></div>\n`
    : '';
  const buttonStyle = `display:inline-block;background:${accent};color:${onAccent};padding:8px 14px;border-radius:6px;text-decoration:none;font-weight:600`;
  const recipientName =
    input.recipientName === DELETED_USER_NAME
      ? texts.deletedUser
      : containBidiControls(input.recipientName);

  const htmlGroups = shownGroups
    .map((group) => {
      const link = conversationUrl(input.publicUrl, group.senderId, group.conversationId);
      const messages = group.shown
        .map(
          (message) =>
            `<p style="margin:0 0 8px;white-space:pre-wrap;unicode-bidi:plaintext">${escapeHtml(message.message)}<br><small style="color:#555">${escapeHtml(time.format(new Date(message.created_at)))}</small></p>`,
        )
        .join('\n');
      const job = group.jobTitle
        ? `\n<p style="margin:0 0 8px;color:#555;unicode-bidi:plaintext">${escapeHtml(texts.job(group.jobTitle))}</p>`
        : '';
      const more = group.hidden
        ? `\n<p style="margin:0 0 8px;color:#555">${escapeHtml(texts.moreMessages(group.hidden))}</p>`
        : '';
      return `<div style="border-block-start:1px solid #ddd;padding:12px 0">
<h2 style="font-size:16px;margin:0 0 8px">${escapeHtml(group.senderName)}</h2>${job}
${messages}${more}
<p style="margin:0"><a href="${escapeHtml(link)}" style="${buttonStyle}">${escapeHtml(texts.open)}</a></p>
</div>`;
    })
    .join('\n');
  const moreConversations = hiddenConversations
    ? `\n<p style="color:#555">${escapeHtml(texts.moreConversations(hiddenConversations))}</p>`
    : '';
  const html = `<!doctype html>
<html lang="${locale}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body dir="${dir}" style="font-family:system-ui,-apple-system,'Segoe UI',Tahoma,Arial,sans-serif;text-align:${align};color:#111">
${header}<p>${escapeHtml(texts.greeting(recipientName))}<br>${escapeHtml(texts.intro)}</p>
${htmlGroups}${moreConversations}
<p style="border-block-start:1px solid #ddd;padding-block-start:12px;color:#555;font-size:12px">${siteName ? `${escapeHtml(texts.sentBy(siteName))} ` : ''}${escapeHtml(texts.why)} <a href="${escapeHtml(input.unsubscribeUrl)}">${escapeHtml(texts.unsubscribe)}</a></p>
</body>
</html>
`;

  const textGroups = shownGroups
    .map((group) => {
      const link = conversationUrl(input.publicUrl, group.senderId, group.conversationId);
      const lines = [
        group.senderName,
        ...(group.jobTitle ? [`  ${texts.job(group.jobTitle)}`] : []),
        ...group.shown.map(
          (message) =>
            `  ${message.message.replace(/\r?\n/g, '\n  ')}\n  (${time.format(new Date(message.created_at))})`,
        ),
        ...(group.hidden ? [`  ${texts.moreMessages(group.hidden)}`] : []),
        `  ${texts.open}: ${link}`,
      ];
      return lines.join('\n');
    })
    .join('\n\n');
  const text = [
    `${texts.greeting(recipientName)} ${texts.intro}`,
    '',
    textGroups,
    ...(hiddenConversations ? ['', texts.moreConversations(hiddenConversations)] : []),
    '',
    '--',
    ...(siteName ? [texts.sentBy(siteName)] : []),
    texts.why,
    `${texts.unsubscribe}: ${input.unsubscribeUrl}`,
    '',
  ].join('\n');
  return { subject, html, text };
};
