/**
 * Attachments under `kill -9` (issue 16): a crash between upload and send, or during either, leaves
 * no message pointing at missing bytes and no bytes that nothing will ever delete.
 * - mid-upload: the half-written temporary file is deleted when the server is back (its sweep),
 *   and no upload row exists for it;
 * - mid-send: every send acknowledged, or retried with its client_id after the restart, is stored
 *   once with exactly its files, and every file downloads whole; no upload is attached twice.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../src/shared/paths.js';
import { DEFAULT_APP_KEY, withKey, type HttpSession } from '../test-support/http-session.js';
import { fetchHistory, uploadFile } from '../test-support/messaging.js';
import { sleep, until } from '../test-support/wait.js';
import { freshDatabase } from './support/databases.js';
import {
  conversationsFor,
  expectStoredExactlyOnce,
  Sender,
  signInAll,
} from './support/scenario.js';
import { isAlive, startFaultServer, stopServer, type ServerProcess } from './support/servers.js';

/** A small file `file-type` judges to be a PDF, different each time. */
const pdfBytes = (size = 4096): Buffer =>
  Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(size)]);

/** Every file under `dir` (recursively), with its size. */
const filesUnder = (dir: string): { path: string; size: number }[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, size: statSync(path).size };
    });

/**
 * A multipart upload written slowly by hand (64 KiB every 20 ms), never finished by itself: the
 * test kills the server while it flows. Resolves with how the request ended.
 */
const slowUpload = (baseUrl: string, session: HttpSession, totalBytes: number) => {
  const boundary = `----fault${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cv.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n%PDF-1.4\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${baseUrl}${withKey(paths.attachments, DEFAULT_APP_KEY)}`);
  let stop = false;
  const ended = new Promise<string>((resolve) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        'x-xsrf-token': session.csrf,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + totalBytes + tail.length),
      },
    });
    req.on('response', (response) => {
      response.resume();
      resolve(`answered ${response.statusCode}`);
    });
    req.on('error', (error) => resolve(`cut off: ${error.message}`));
    req.write(head);
    let sent = 0;
    const pump = async () => {
      while (!stop && sent < totalBytes) {
        const chunk = randomBytes(Math.min(64 * 1024, totalBytes - sent));
        sent += chunk.length;
        if (!req.write(chunk)) await new Promise((resolve) => req.once('drain', resolve));
        await sleep(20);
      }
      if (!stop) req.end(tail);
    };
    void pump().catch(() => undefined);
  });
  return {
    ended,
    stop: () => {
      stop = true;
    },
  };
};

describe.concurrent('attachments survive kill -9', () => {
  test.each(['sqlite', 'postgres'] as const)(
    '%s: mid-upload, the half-written file is deleted and no upload is recorded',
    async (dialect) => {
      const db = await freshDatabase(dialect);
      const uploadTmp = mkdtempSync(join(tmpdir(), 'fault-upload-tmp-'));
      const storage = mkdtempSync(join(tmpdir(), 'fault-storage-'));
      const env = {
        UPLOAD_TMP_DIR: uploadTmp,
        STORAGE_URL: `file:${storage}`,
        ATTACHMENT_SWEEP_SECONDS: '0.3',
      };
      let server: ServerProcess | undefined;
      try {
        const first = await startFaultServer({ databaseUrl: db.url, env });
        server = first;
        const { candidate } = await signInAll(first.url, ['candidate'] as const);
        const upload = slowUpload(first.url, candidate, 9 * 1024 * 1024);
        // The server is writing it: a temporary file of more than 1 MiB exists.
        await until(
          () => filesUnder(uploadTmp).some((file) => file.size > 1024 * 1024),
          'the upload is being written to a temporary file',
          30_000,
        );
        await first.kill();
        expect(isAlive(first)).toBe(false);
        upload.stop();
        expect(await upload.ended).toMatch(/^cut off/);
        // left behind by the crash …
        expect(filesUnder(uploadTmp).length).toBeGreaterThan(0);
        server = await startFaultServer({ databaseUrl: db.url, port: first.port, env });
        // … and deleted once the server is back
        await until(
          () => readdirSync(uploadTmp).length === 0,
          'the cut-off upload deleted',
          15_000,
        );
        expect(await db.attachments()).toEqual([]);
        expect(filesUnder(storage)).toEqual([]);
        // uploading works again
        const { candidate: again } = await signInAll(server.url, ['candidate'] as const);
        expect(await uploadFile(server.url, again, 'cv.pdf', pdfBytes())).toBeGreaterThan(0);
      } finally {
        await stopServer(server);
        await db.drop();
        rmSync(uploadTmp, { recursive: true, force: true });
        rmSync(storage, { recursive: true, force: true });
      }
    },
  );

  test.each(['sqlite', 'postgres'] as const)(
    '%s: mid-send, every message is stored once with exactly its files, all of which download whole',
    async (dialect) => {
      const db = await freshDatabase(dialect);
      const storage = mkdtempSync(join(tmpdir(), 'fault-storage-'));
      const env = { STORAGE_URL: `file:${storage}` };
      const PER_SENDER = 18;
      let server: ServerProcess | undefined;
      try {
        const first = await startFaultServer({ databaseUrl: db.url, env });
        server = first;
        const sessions = await signInAll(first.url, ['candidate', 'company'] as const);
        const conversations = await conversationsFor(sessions, [
          ['candidate', 'company'],
          ['company', 'candidate'],
        ]);
        // Each message carries one file, uploaded before the burst (within the upload rate).
        const files = new Map<number, Buffer>();
        const uploadsOf: Record<'candidate' | 'company', number[]> = { candidate: [], company: [] };
        for (const who of ['candidate', 'company'] as const)
          for (let index = 0; index < PER_SENDER; index += 1) {
            const bytes = pdfBytes(8192);
            const id = await uploadFile(first.url, sessions[who], `${who}-${index}.pdf`, bytes);
            files.set(id, bytes);
            uploadsOf[who].push(id);
          }
        const senders = [
          new Sender(sessions.candidate, conversations['candidate->company']!, 'candidate file'),
          new Sender(sessions.company, conversations['company->candidate']!, 'company file'),
        ];
        const burst = Promise.all(
          senders.map((sender, which) =>
            sender.run(PER_SENDER, {
              attachmentIds: (index) => [uploadsOf[which === 0 ? 'candidate' : 'company'][index]!],
            }),
          ),
        );
        await until(
          () => senders.reduce((sum, sender) => sum + sender.acked, 0) >= 4,
          'a quarter of the sends acknowledged',
          30_000,
        );
        await first.kill();
        server = await startFaultServer({ databaseUrl: db.url, port: first.port, env });
        await burst;

        const records = senders.flatMap((sender) => sender.records);
        expect(records.every((record) => record.ackedId !== undefined)).toBe(true);
        // some sends really were cut off by the crash and answered only after the restart
        expect(records.some((record) => record.statuses.includes(0))).toBe(true);
        await expectStoredExactlyOnce(db, records);
        // every upload is attached to exactly one message, the one it was sent with
        const rows = await db.attachments();
        expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual(
          [...files.keys()].sort((a, b) => a - b),
        );
        const chatOfRecord = new Map(records.map((record) => [record.ackedId!, record]));
        for (const row of rows) expect(chatOfRecord.has(row.chat_id ?? -1)).toBe(true);
        expect(new Set(rows.map((row) => row.chat_id)).size).toBe(rows.length);
        // what the receiver sees: each message with its one file, whose bytes are whole
        const after = await signInAll(server.url, ['candidate', 'company'] as const);
        const history = await fetchHistory(after.candidate, conversations['candidate->company']!);
        const sent = history.filter((chat) => chatOfRecord.has(chat.id));
        expect(sent).toHaveLength(records.length);
        const problems: string[] = [];
        for (const chat of sent) {
          const [file, ...more] = chat.attachments ?? [];
          if (!file || more.length > 0) {
            problems.push(`chat ${chat.id}: ${chat.attachments?.length ?? 0} files`);
            continue;
          }
          const response = await after.candidate.call('GET', paths.attachment(file.id));
          // the body is read whatever it is (an unread body would hold the server's shutdown)
          const body = Buffer.from(await response.arrayBuffer());
          if (response.status !== 200 || !body.equals(files.get(file.id)!))
            problems.push(`file ${file.id}: ${response.status}, ${body.length} bytes`);
        }
        expect(problems).toEqual([]);
      } finally {
        await stopServer(server);
        await db.drop();
        rmSync(storage, { recursive: true, force: true });
      }
    },
  );
});
