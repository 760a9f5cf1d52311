import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import { freePort } from './server-process.js';
import { until } from './wait.js';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
  /** Date.now() when the server accepted it. */
  receivedAt: number;
}

/** How the server answers a message's DATA: accept it, refuse it (temporarily), or never answer. */
export type MailServerMode = 'accept' | 'refuse' | 'stall';

const readAll = async (stream: SMTPServerDataStream): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps what it receives, parsed
 * with `mailparser`. `mode` simulates trouble: `refuse` answers 451 (try again later), `stall`
 * reads the message and never answers. `stop()`/`start()` is an outage on the same port.
 */
export class TestMailServer {
  readonly received: ReceivedMail[] = [];
  mode: MailServerMode = 'accept';
  /** DATA commands seen, whatever the answer. */
  attempts = 0;
  private server: SMTPServer | undefined;

  private constructor(readonly port: number) {}

  static async start(port?: number): Promise<TestMailServer> {
    const server = new TestMailServer(port ?? (await freePort()));
    await server.listen();
    return server;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  get isListening(): boolean {
    return this.server !== undefined;
  }

  /** Listens (again) on the same port. */
  async listen(): Promise<void> {
    if (this.server) return;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        this.attempts += 1;
        void readAll(stream).then(async (raw) => {
          if (this.mode === 'stall') return; // never answers: the client times out
          if (this.mode === 'refuse') {
            const refusal = new Error('Try again later') as Error & { responseCode: number };
            refusal.responseCode = 451;
            callback(refusal);
            return;
          }
          const parsed = await simpleParser(raw);
          this.received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
            parsed,
            receivedAt: Date.now(),
          });
          callback();
        }, callback);
      },
    });
    server.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      server.listen(this.port, '127.0.0.1', () => resolve());
      server.once('error', reject);
    });
    this.server = server;
  }

  /** Stops listening and drops open connections (an SMTP outage). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    // smtp-server waits for clients to quit; a pooled client would hold it: close them too.
    const connections = (server as unknown as { connections?: Set<{ close: () => void }> })
      .connections;
    for (const connection of connections ?? []) connection.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Mails received for `address`. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to.includes(address));
  }

  /** Waits until at least `count` mails arrived (all of them, or those for `address`). */
  async waitFor(count: number, address?: string, timeoutMs = 20_000): Promise<ReceivedMail[]> {
    const list = () => (address ? this.to(address) : this.received);
    await until(
      () => list().length >= count,
      `${count} e-mail(s)${address ? ` to ${address}` : ''} arrived`,
      timeoutMs,
    );
    return list();
  }

  close(): Promise<void> {
    return this.stop();
  }
}
