import { describe, expect, it } from 'vitest';
import { DELETED_USER_NAME } from '../../../shared/text.js';
import { renderNotificationEmail, type EmailMessage } from './notification-email.js';
import { gatheringWindowMs } from './email-rule.js';
import { createUnsubscribeTokens, RESUBSCRIBE_TOKEN_TTL_MS } from './unsubscribe-token.js';

const publicUrl = new URL('https://jobs.example');
let nextId = 1;
const message = (conversation: number, sender: string, text: string): EmailMessage => ({
  id: nextId++,
  sender_id: conversation * 10,
  messenger_user_id: conversation,
  message: text,
  created_at: '2026-11-23T09:05:00.000Z',
  sender_name: sender,
  job_title: null,
});
const render = (messages: EmailMessage[], locale: 'en' | 'ar' = 'en') =>
  renderNotificationEmail({
    locale,
    timeZone: 'UTC',
    recipientName: 'Sara',
    messages,
    publicUrl,
    unsubscribeUrl: 'https://jobs.example/unsubscribe?token=1.x',
  });

describe('notification e-mail', () => {
  it('names the sender(s) in the subject, in English and Arabic', () => {
    expect(render([message(1, 'Acme', 'hi')]).subject).toBe('New message from Acme');
    expect(render([message(1, 'Acme', 'a'), message(1, 'Acme', 'b')]).subject).toBe(
      'New messages from Acme',
    );
    expect(render([message(1, 'Acme', 'a'), message(2, 'Nile', 'b')]).subject).toBe(
      'New messages from Nile and Acme',
    );
    expect(render([message(1, 'A', 'a'), message(2, 'B', 'b'), message(3, 'C', 'c')]).subject).toBe(
      'New messages from C, B and 1 other',
    );
    expect(render([message(1, 'Acme', 'hi')], 'ar').subject).toBe('رسالة جديدة من Acme');
  });

  it('keeps a subject on one line whatever the names hold', () => {
    expect(render([message(1, 'Evil\r\nBcc: x@y.z', 'hi')]).subject).toBe(
      'New message from Evil Bcc: x@y.z',
    );
  });

  it('escapes names and text in HTML, and translates an erased sender', () => {
    const { html, text } = render(
      [
        message(1, '<img src=x onerror=alert(1)>', '"quoted" & <b>bold</b>'),
        message(2, DELETED_USER_NAME, 'old message'),
      ],
      'ar',
    );
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(html).not.toMatch(/<img|<b>/);
    expect(html).toContain('مستخدم محذوف');
    expect(text).toContain('"quoted" & <b>bold</b>');
  });

  it('shows five conversations with their latest three messages, then says how many more', () => {
    const messages = [
      ...[1, 2, 3, 4, 5, 6, 7].map((n) => message(n, `Company ${n}`, `hello ${n}`)),
      ...[1, 2, 3, 4, 5].map((n) => message(7, 'Company 7', `more ${n}`)),
    ];
    const { text } = render(messages);
    expect(text.match(/Open the conversation/g)).toHaveLength(5);
    expect(text).toContain('and 3 more messages in this conversation');
    expect(text).toContain('and 2 more conversations with unread messages');
    expect(text).toContain('https://jobs.example/messages?target=70&tab=7');
    expect(text).not.toContain('hello 1');
  });

  it('lets no override or embedding reverse the e-mail’s text: isolates, closed on their line', () => {
    const email = renderNotificationEmail({
      locale: 'en',
      timeZone: 'UTC',
      siteName: 'Jobs \u202b',
      recipientName: 'Sara \u202d',
      messages: [
        {
          ...message(1, 'Acme \u202eevil', 'x \u202eevil\nsecond \u202aline\u202c\u202c'),
          job_title: 'Engineer \u202e',
        },
      ],
      publicUrl,
      unsubscribeUrl: 'https://jobs.example/unsubscribe?token=1.x',
    });
    for (const part of [email.subject, email.html, email.text])
      expect(part).not.toMatch(/[\u202a-\u202e]/);
    expect(email.subject).toBe('Jobs \u2067\u2069: New message from Acme \u2067evil\u2069');
    expect(email.text).toContain('Hello Sara \u2066\u2069,');
    expect(email.text).toContain('About the job: Engineer \u2067\u2069');
    expect(email.text).toContain('  x \u2067evil\u2069\n  second \u2066line\u2069\n');
    expect(email.html).toContain('x \u2067evil\u2069\nsecond \u2066line\u2069<br>');
    expect(email.html).toContain('>Acme \u2067evil\u2069</h2>');
  });
});

describe('unsubscribe tokens', () => {
  const tokens = createUnsubscribeTokens('secret-of-this-deployment');
  it('name their user and nobody else', () => {
    const token = tokens.tokenFor(42);
    expect(tokens.userIdOf(token)).toBe(42);
    expect(tokens.userIdOf(token.replace(/^42/, '43'))).toBeUndefined();
    expect(createUnsubscribeTokens('another-secret').userIdOf(token)).toBeUndefined();
    for (const bad of ['', '42', '42.', `0.${token.split('.')[1]}`, `${token}x`, '99999999999.x'])
      expect(tokens.userIdOf(bad)).toBeUndefined();
  });

  it('undo an unsubscribe only with their own token, for an hour', () => {
    const made = new Date('2026-11-23T09:00:00.000Z');
    const later = (ms: number) => new Date(made.getTime() + ms);
    const undo = tokens.resubscribeTokenFor(42, made);
    expect(tokens.resubscribeUserIdOf(undo, made)).toBe(42);
    expect(tokens.resubscribeUserIdOf(undo, later(RESUBSCRIBE_TOKEN_TTL_MS - 1000))).toBe(42);
    expect(tokens.resubscribeUserIdOf(undo, later(RESUBSCRIBE_TOKEN_TTL_MS))).toBeUndefined();
    // the e-mail's token never turns e-mails on, and the undo's never turns them off
    expect(tokens.resubscribeUserIdOf(tokens.tokenFor(42), made)).toBeUndefined();
    expect(tokens.userIdOf(undo)).toBeUndefined();
    // another user, a later expiry, another secret: refused
    const [, expiresAt = '', mac = ''] = undo.split('.');
    expect(tokens.resubscribeUserIdOf(`43.${expiresAt}.${mac}`, made)).toBeUndefined();
    expect(
      tokens.resubscribeUserIdOf(`42.${Number(expiresAt) + 3600}.${mac}`, made),
    ).toBeUndefined();
    expect(
      createUnsubscribeTokens('another-secret').resubscribeUserIdOf(undo, made),
    ).toBeUndefined();
  });
});

describe('gathering window', () => {
  it('is a fifth of the delay, at most a minute', () => {
    expect(gatheringWindowMs(300_000)).toBe(60_000);
    expect(gatheringWindowMs(10_000)).toBe(2_000);
    expect(gatheringWindowMs(0)).toBe(0);
  });
});

describe('notification e-mail times', () => {
  it.each(['en', 'ar'] as const)('renders in %s with each message’s time in UTC', (locale) => {
    const email = renderNotificationEmail({
      locale,
      recipientName: 'Sara',
      messages: [
        {
          id: 7,
          sender_id: 2,
          messenger_user_id: 3,
          message: 'Are you free on Monday?',
          created_at: '2030-01-02T09:05:00.000Z',
          sender_name: 'Acme',
          job_title: null,
        },
      ],
      timeZone: 'UTC',
      publicUrl: new URL('https://jobs.example'),
      unsubscribeUrl: 'https://jobs.example/unsubscribe?token=t',
    });
    expect(email.text).toContain('Are you free on Monday?');
    expect(email.text).toContain('UTC');
    expect(email.html).toContain('UTC');
  });
});

describe('notification e-mail: the reader’s zone, the job, the site', () => {
  const base = {
    recipientName: 'Sara',
    publicUrl,
    unsubscribeUrl: 'https://jobs.example/unsubscribe?token=t',
  };
  const at = (conversation: number, sender: string, job: string | null): EmailMessage => ({
    ...message(conversation, sender, 'Are you free on Monday?'),
    created_at: '2030-01-02T09:05:00.000Z',
    job_title: job,
  });

  it('gives the times in the reader’s time zone', () => {
    const email = renderNotificationEmail({
      ...base,
      locale: 'en',
      timeZone: 'Asia/Riyadh',
      messages: [at(1, 'Acme', null)],
    });
    expect(email.text).toContain('12:05');
    expect(email.text).toContain('GMT+3');
    expect(email.text).not.toContain('09:05');
    expect(email.html).toContain('12:05');
  });

  it('falls back to UTC for a zone this runtime does not know', () => {
    const email = renderNotificationEmail({
      ...base,
      locale: 'en',
      timeZone: 'Nowhere/Atlantis',
      messages: [at(1, 'Acme', null)],
    });
    expect(email.text).toContain('09:05');
    expect(email.text).toContain('UTC');
  });

  it('names each conversation’s job, escaped, in both languages', () => {
    const messages = [at(1, 'Acme', 'Senior <Backend> Engineer'), at(2, 'Acme', 'QA Technician')];
    const en = renderNotificationEmail({ ...base, locale: 'en', timeZone: 'UTC', messages });
    expect(en.text).toContain('About the job: Senior <Backend> Engineer');
    expect(en.text).toContain('About the job: QA Technician');
    expect(en.html).toContain('About the job: Senior &lt;Backend&gt; Engineer');
    const ar = renderNotificationEmail({ ...base, locale: 'ar', timeZone: 'UTC', messages });
    expect(ar.text).toContain('بخصوص الوظيفة: QA Technician');
    // no job: no line
    const none = renderNotificationEmail({
      ...base,
      locale: 'en',
      timeZone: 'UTC',
      messages: [at(3, 'Nile', null)],
    });
    expect(none.text).not.toContain('About the job');
  });

  it('puts the site’s name before the subject when it is configured', () => {
    const messages = [at(1, 'Acme', null)];
    expect(
      renderNotificationEmail({
        ...base,
        locale: 'en',
        timeZone: 'UTC',
        messages,
        siteName: 'JobsHub',
      }).subject,
    ).toBe('JobsHub: New message from Acme');
    expect(
      renderNotificationEmail({ ...base, locale: 'en', timeZone: 'UTC', messages }).subject,
    ).toBe('New message from Acme');
  });

  it('shows the brand: the logo, the colour with black or white text on it, the name in the footer', () => {
    const messages = [at(1, 'Acme', null)];
    const branded = (brandColor: string, locale: 'en' | 'ar' = 'en') =>
      renderNotificationEmail({
        ...base,
        locale,
        timeZone: 'UTC',
        messages,
        siteName: 'Nile & <Jobs>',
        logoUrl: '/logo.svg',
        brandColor,
      });
    const light = branded('#facc15');
    // a same-origin logo path is made absolute (a mail program has no page to resolve it against)
    expect(light.html).toContain(
      '<img src="https://jobs.example/logo.svg" alt="Nile &amp; &lt;Jobs&gt;"',
    );
    // black on yellow (13.7:1), white on dark blue (8.7:1): whichever contrasts more
    expect(light.html).toContain('background:#facc15;color:#000000');
    expect(light.html).not.toContain('background:#facc15;color:#ffffff');
    expect(branded('#1e3a8a').html).toContain('background:#1e3a8a;color:#ffffff');
    expect(light.html).toContain('Sent by Nile &amp; &lt;Jobs&gt;.');
    expect(light.html).not.toContain('<Jobs>');
    expect(light.text).toContain('Sent by Nile & <Jobs>.');
    expect(branded('#facc15', 'ar').text).toContain('أُرسلت من Nile & <Jobs>.');
  });
});
