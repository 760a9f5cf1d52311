import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { freePort } from './server-process.js';
import { until } from './wait.js';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status this receiver answered with. */
  status: number;
  receivedAt: number;
}

export interface ReceivedEvent<Data> {
  /** The `webhook-id` header. */
  id: string;
  type: string;
  timestamp: string;
  data: Data;
  status: number;
}

/** A Standard Webhooks secret for tests: `whsec_` and the base64 of 32 random-looking bytes. */
export const TEST_WEBHOOK_SECRET = `whsec_${Buffer.from('test-webhook-secret-of-32-bytes!').toString('base64')}`;

/**
 * A host's webhook endpoint on 127.0.0.1 that records every POST. `answer` decides the status of
 * each (by its position: 0 for the first), so a test can answer 500 and then 200.
 */
export class TestWebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (index: number, body: string) => number = () => 200;
  private server: Server | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<TestWebhookReceiver> {
    const receiver = new TestWebhookReceiver(await freePort());
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = receiver.answer(receiver.received.length, body);
        receiver.received.push({ headers: request.headers, body, status, receivedAt: Date.now() });
        response.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
      });
    });
    await new Promise<void>((resolve) => server.listen(receiver.port, '127.0.0.1', resolve));
    receiver.server = server;
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/messages`;
  }

  /** Received events of one type, parsed (`data` as the test expects it to be). */
  events<Data = Record<string, unknown>>(type?: string): ReceivedEvent<Data>[] {
    return this.received
      .map((hook) => ({
        ...(JSON.parse(hook.body) as { type: string; timestamp: string; data: Data }),
        id: String(hook.headers['webhook-id']),
        status: hook.status,
      }))
      .filter((event) => type === undefined || event.type === type);
  }

  /** Checks the signature the way a host would (throws when it does not verify). */
  verify(hook: ReceivedWebhook, secret = TEST_WEBHOOK_SECRET): unknown {
    return new Webhook(secret).verify(hook.body, {
      'webhook-id': String(hook.headers['webhook-id']),
      'webhook-timestamp': String(hook.headers['webhook-timestamp']),
      'webhook-signature': String(hook.headers['webhook-signature']),
    });
  }

  async waitFor<Data = Record<string, unknown>>(
    count: number,
    type?: string,
    timeoutMs = 20_000,
  ): Promise<ReceivedEvent<Data>[]> {
    await until(
      () => this.events(type).length >= count,
      `${count} webhook(s)${type ? ` of type ${type}` : ''} arrived`,
      timeoutMs,
    );
    return this.events<Data>(type);
  }

  close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return Promise.resolve();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  }
}
