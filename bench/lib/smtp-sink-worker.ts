/**
 * A lean SMTP sink (run with `node --import tsx`, driven by spawn.ts), in its own process so that
 * taking e-mails does not run on the measured server's event loop. The `smtp-server` package speaks
 * SMTP; no mailparser: each message is kept only as its arrival time (Date.now() when its DATA
 * ended, i.e. when it was handed over) and its Message-ID header.
 */
import { SMTPServer } from 'smtp-server';
import { serveWorker } from './worker-runtime.js';

export interface SinkArrival {
  messageId: string;
  /** Date.now() at the end of the message's DATA. */
  at: number;
}

let server: SMTPServer | undefined;
let arrivals: SinkArrival[] = [];
let withoutId = 0;

const MESSAGE_ID = /^message-id:[ \t]*(<[^>\r\n]*>)/im;

const listen = async (): Promise<{ port: number }> => {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, callback) => {
      // The header block is at the start; keep at most its first 16 kB.
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 16_384) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const at = Date.now();
        const headerEnd = head.indexOf('\r\n\r\n');
        const id = MESSAGE_ID.exec(headerEnd === -1 ? head : head.slice(0, headerEnd))?.[1];
        if (id) arrivals.push({ messageId: id, at });
        else withoutId += 1;
        callback();
      });
      stream.on('error', callback);
    },
  });
  smtp.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(0, '127.0.0.1', () => resolve());
  });
  server = smtp;
  const address = smtp.server.address();
  if (typeof address !== 'object' || !address) throw new Error('smtp sink: no port');
  return { port: address.port };
};

serveWorker(
  {
    listen: () => listen(),
    /** How many arrived so far (cheap: polled while waiting). */
    count: () => ({ count: arrivals.length, withoutId }),
    /** Everything received since the last reset. */
    arrivals: () => ({ arrivals, withoutId }),
    reset: () => {
      arrivals = [];
      withoutId = 0;
    },
  },
  () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      // Pooled clients may hold connections open: do not wait for them.
      setTimeout(resolve, 1000).unref();
    }),
);
