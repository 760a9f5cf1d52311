import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Stable per notification: a retry after an uncertain hand-off carries the same one. */
  messageId: string;
  headers: Record<string, string>;
}

export interface Mailer {
  send: (email: OutgoingEmail) => Promise<void>;
  close: () => void;
}

export interface MailerOptions {
  /** Unset: e-mails are written as .eml files under `mailDir` and logged. */
  smtpUrl: URL | undefined;
  from: string;
  mailDir: string;
  logger: { warn: (details: object, message: string) => void };
}

/** How long a stalled SMTP server may hold one attempt (well under the outbox handler timeout). */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

const smtpTransport = (url: URL): Transporter =>
  nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username
      ? {
          auth: {
            user: decodeURIComponent(url.username),
            pass: decodeURIComponent(url.password),
          },
        }
      : {}),
    // A few kept connections: a burst of due e-mails does not open one connection per e-mail.
    pool: true,
    maxConnections: 5,
    ...SMTP_TIMEOUTS,
  });

/** A file name from the Message-ID: letters, digits, dots and dashes only. */
const fileNameOf = (messageId: string) =>
  `${new Date().toISOString().replace(/[:.]/g, '-')}-${messageId.replace(/[^A-Za-z0-9.-]+/g, '_')}.eml`;

/**
 * Sends notification e-mails with nodemailer: through `SMTP_URL`, or, without it, into .eml files
 * (what `npm start` would have sent, ready to open in a mail program) with a log line for each.
 * A send resolves once the SMTP server accepted the message (or the file is written).
 */
export const createMailer = (options: MailerOptions): Mailer => {
  const { smtpUrl, from, mailDir, logger } = options;
  const transport: Transporter = smtpUrl
    ? smtpTransport(smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  return {
    send: async (email) => {
      const info = await transport.sendMail({
        from,
        to: email.to,
        subject: email.subject,
        html: email.html,
        text: email.text,
        messageId: email.messageId,
        headers: email.headers,
      });
      if (smtpUrl) return;
      const message = (info as { message?: unknown }).message;
      if (!Buffer.isBuffer(message)) throw new Error('mail: no message to write');
      await mkdir(mailDir, { recursive: true });
      const file = join(mailDir, fileNameOf(email.messageId));
      await writeFile(file, message);
      logger.warn(
        { to: email.to, subject: email.subject, file },
        'mail: no SMTP_URL, e-mail written to a file',
      );
    },
    close: () => transport.close(),
  };
};
