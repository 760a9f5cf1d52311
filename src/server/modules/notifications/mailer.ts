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
  /**
   * Resolves once the SMTP server accepted the message. `signal` cancels the attempt (waiting in
   * the pool's queue, or on the connection): a timed-out attempt is not accepted late.
   */
  send: (email: OutgoingEmail, signal?: AbortSignal) => Promise<void>;
  close: () => void;
}

export interface MailerOptions {
  /** Unset: e-mails are written as .eml files under `mailDir` and logged. */
  smtpUrl: URL | undefined;
  from: string;
  mailDir: string;
  /**
   * How long one attempt may take in all (the outbox handler's timeout): SMTP's own time limits
   * stay within it, so an attempt the worker counted as failed is not accepted late, which would
   * make its retry a second copy.
   */
  attemptTimeoutMs: number;
  logger: { warn: (details: object, message: string) => void };
}

/**
 * How long a stalled SMTP server may hold each step of one attempt: at most 10 s to connect, 10 s
 * for the greeting, 20 s of silence, and together well under the attempt's own limit.
 */
export const smtpTimeouts = (attemptTimeoutMs: number) => ({
  connectionTimeout: Math.min(10_000, Math.floor(attemptTimeoutMs / 5)),
  greetingTimeout: Math.min(10_000, Math.floor(attemptTimeoutMs / 5)),
  socketTimeout: Math.min(20_000, Math.floor(attemptTimeoutMs / 3)),
});

const smtpTransport = (url: URL, attemptTimeoutMs: number): Transporter =>
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
    ...smtpTimeouts(attemptTimeoutMs),
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
    ? smtpTransport(smtpUrl, options.attemptTimeoutMs)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  return {
    send: async (email, signal) => {
      const info = await transport.sendMail({
        ...(signal ? { signal } : {}),
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
