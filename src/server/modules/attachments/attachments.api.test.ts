import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { UploadAttachmentResponse } from '../../../shared/attachment-uploads.js';
import type { InitialDataResponse } from '../../../shared/conversations.js';
import type { GetMessageResponse, SendMessageResponse } from '../../../shared/messages.js';
import { paths } from '../../../shared/paths.js';
import { ACME, OMAR, SARA } from '../../../../test-support/accounts.js';
import { startS3Server } from '../../../../test-support/s3-server.js';
import { until } from '../../../../test-support/wait.js';
import {
  createTestApp,
  signIn,
  type Session,
  type TestContext,
} from '../../../../test-support/test-app.js';

const dialect = inject('database');

/** A multipart/form-data body with one file in the field `file`. */
const multipartBody = (filename: string, bytes: Buffer, type = 'application/octet-stream') => {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
};

const upload = (session: Session, filename: string, bytes: Buffer, type?: string) => {
  const body = multipartBody(filename, bytes, type);
  return session.call('POST', paths.attachments, body.payload, body.headers);
};

const png = () =>
  sharp({ create: { width: 1200, height: 600, channels: 3, background: '#2266aa' } })
    .png()
    .toBuffer();

describe(`attachments: upload and download (${dialect}, local storage)`, () => {
  let ctx: TestContext;
  let storageDir: string;
  let sara: Session;
  let acme: Session;
  let omar: Session;

  beforeAll(async () => {
    storageDir = mkdtempSync(join(tmpdir(), 'attachments-'));
    ctx = await createTestApp(dialect, { STORAGE_URL: `file:${storageDir}` });
    sara = await signIn(ctx.app, SARA.email);
    acme = await signIn(ctx.app, ACME.email);
    omar = await signIn(ctx.app, OMAR.email);
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(storageDir, { recursive: true, force: true });
  });

  it('takes each allowed kind, judged from its bytes; images get their size', async () => {
    const cases: [string, Buffer, string][] = [
      ['cv.pdf', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), 'application/pdf'],
      ['notes.txt', Buffer.from('Hello,\nمرحبا\n'), 'text/plain'],
      ['letter.rtf', Buffer.from('{\\rtf1\\ansi Dear team}'), 'application/rtf'],
      ['photo.png', await png(), 'image/png'],
      [
        'photo.jpg',
        await sharp({ create: { width: 20, height: 10, channels: 3, background: '#fff' } })
          .jpeg()
          .toBuffer(),
        'image/jpeg',
      ],
    ];
    for (const [name, bytes, mime] of cases) {
      const response = await upload(sara, name, bytes);
      expect(response.statusCode, name).toBe(201);
      const { attachment } = response.json<UploadAttachmentResponse>();
      expect(attachment).toMatchObject({ name, size: bytes.length, mime });
    }
    const image = (await upload(sara, 'wide.png', await png())).json<UploadAttachmentResponse>();
    expect(image.attachment).toMatchObject({ width: 1200, height: 600 });
  });

  it('refuses HTML or an executable named .pdf, naming the kind found; an empty file; a missing file', async () => {
    const html = await upload(sara, 'cv.pdf', Buffer.from('<html><script>alert(1)</script>'));
    expect(html.statusCode).toBe(422);
    expect(html.json<{ errors: { file: string[] } }>().errors.file[0]).toContain('(html)');
    const elf = Buffer.alloc(128);
    Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01]).copy(elf);
    const executable = await upload(sara, 'cv.pdf', elf, 'application/pdf');
    expect(executable.statusCode).toBe(422);
    expect(executable.json<{ message: string }>().message).toContain('(elf)');
    expect((await upload(sara, 'empty.txt', Buffer.alloc(0))).statusCode).toBe(422);
    const notMultipart = await sara.call('POST', paths.attachments, { file: 'x' });
    expect(notMultipart.statusCode).toBe(422);
  });

  it('refuses a text file with markup anywhere in it, even past its first bytes (422 html)', async () => {
    const words = Buffer.alloc(300_000, 'Experience: five years. ');
    for (const markup of ['<video src=x onerror=alert(1)>', '<MATH>', '<!--x-->']) {
      const late = await upload(sara, 'notes.txt', Buffer.concat([words, Buffer.from(markup)]));
      expect(late.statusCode, markup).toBe(422);
      expect(late.json<{ errors: { file: string[] } }>().errors.file[0]).toContain('(html)');
    }
    const clean = await upload(sara, 'notes.txt', Buffer.concat([words, Buffer.from('a < b')]));
    expect(clean.statusCode).toBe(201);
  });

  it('answers 413 above 10 MiB, whether the length is declared or not', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x41);
    const response = await upload(sara, 'big.txt', big);
    expect(response.statusCode).toBe(413);
    // a body whose declared length is far over the limit is refused before it is read
    const declared = await sara.call('POST', paths.attachments, Buffer.alloc(16), {
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': String(50 * 1024 * 1024),
    });
    expect(declared.statusCode).toBe(413);
  });

  it('downloads with the contract’s headers, only for the uploader before it is sent; 403 for others, 404 unknown', async () => {
    const pdf = Buffer.from('%PDF-1.4\n% a CV\n');
    const { attachment } = (
      await upload(sara, '../../etc/\u202Eevil fdp.exe', pdf)
    ).json<UploadAttachmentResponse>();
    expect(attachment.name).toBe('evil fdp.exe');
    const own = await sara.call('GET', paths.attachment(attachment.id));
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(pdf)).toBe(true);
    expect(own.headers).toMatchObject({
      'content-type': 'application/pdf',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
      'cache-control': 'private',
    });
    expect(String(own.headers['content-disposition'])).toMatch(/^attachment; filename="/);
    expect(String(own.headers['content-disposition'])).toContain(
      `filename*=UTF-8''${encodeURIComponent('evil fdp.exe')}`,
    );
    expect((await acme.call('GET', paths.attachment(attachment.id))).statusCode).toBe(403);
    expect((await omar.call('GET', paths.attachment(attachment.id))).statusCode).toBe(403);
    expect((await sara.call('GET', paths.attachment(2_000_000_000))).statusCode).toBe(404);
    expect((await sara.call('GET', paths.attachmentThumbnail(attachment.id))).statusCode).toBe(404);
  });

  it('an image is shown inline and has a thumbnail of at most 480 px', async () => {
    const { attachment } = (
      await upload(sara, 'photo.png', await png())
    ).json<UploadAttachmentResponse>();
    const full = await sara.call('GET', paths.attachment(attachment.id));
    expect(full.headers['content-type']).toBe('image/png');
    expect(String(full.headers['content-disposition'])).toMatch(/^inline; /);
    const thumb = await sara.call('GET', paths.attachmentThumbnail(attachment.id));
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(480);
  });
});

describe(`attachments in an S3-compatible store (${dialect}, s3rver)`, () => {
  let ctx: TestContext;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let sara: Session;
  let acme: Session;

  beforeAll(async () => {
    s3 = await startS3Server();
    ctx = await createTestApp(dialect, s3.env);
    sara = await signIn(ctx.app, SARA.email);
    acme = await signIn(ctx.app, ACME.email);
  });
  afterAll(async () => {
    await ctx.close();
    await s3.close();
  });

  it('stores the bytes in the bucket and answers downloads with a presigned address valid ≤ 5 minutes', async () => {
    const pdf = Buffer.from('%PDF-1.5\n% stored in S3\n');
    const { attachment } = (await upload(sara, 'cv.pdf', pdf)).json<UploadAttachmentResponse>();
    const answer = await sara.call('GET', paths.attachment(attachment.id));
    expect(answer.statusCode).toBe(302);
    const location = new URL(String(answer.headers.location));
    expect(location.origin).toBe(s3.endpoint);
    expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(pdf)).toBe(true);
    expect(fetched.headers.get('content-type')).toBe('application/pdf');
    expect(fetched.headers.get('content-disposition')).toMatch(/^attachment; filename="cv.pdf"/);
    // still only for the uploader
    expect((await acme.call('GET', paths.attachment(attachment.id))).statusCode).toBe(403);
  });

  it('an image and its thumbnail both go to the bucket', async () => {
    const { attachment } = (
      await upload(sara, 'photo.png', await png())
    ).json<UploadAttachmentResponse>();
    const answer = await sara.call('GET', paths.attachmentThumbnail(attachment.id));
    expect(answer.statusCode).toBe(302);
    const fetched = await fetch(String(answer.headers.location));
    expect(fetched.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await fetched.arrayBuffer())).metadata();
    expect(meta.width).toBe(480);
  });
});

describe(`sending files (${dialect})`, () => {
  let ctx: TestContext;
  let storageDir: string;
  let sara: Session;
  let acme: Session;
  let omar: Session;

  beforeAll(async () => {
    storageDir = mkdtempSync(join(tmpdir(), 'attachments-send-'));
    ctx = await createTestApp(dialect, { STORAGE_URL: `file:${storageDir}` });
    sara = await signIn(ctx.app, SARA.email);
    acme = await signIn(ctx.app, ACME.email);
    omar = await signIn(ctx.app, OMAR.email);
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(storageDir, { recursive: true, force: true });
  });

  /** Sara's conversation with Acme (as Sara sees it). */
  const saraWithAcme = async () => {
    const data = (await sara.call('GET', paths.initialData)).json<InitialDataResponse>();
    const row = data.messengerUsers.find((item) => item.company_id === acme.user.id)!;
    return { id: row.id, receiverId: row.company_id, jobId: row.job_id };
  };
  const sendWith = async (ids: number[], message = '') => {
    const conversation = await saraWithAcme();
    return sara.call('POST', paths.sendMessage, {
      receiver_id: conversation.receiverId,
      messenger_user: conversation.id,
      job_id: conversation.jobId,
      message,
      attachment_ids: ids,
    });
  };
  const uploadId = async (session: Session, name: string, bytes: Buffer) =>
    (await upload(session, name, bytes)).json<UploadAttachmentResponse>().attachment.id;

  it('a message of files only: the list preview names the first file, the other party downloads them', async () => {
    const cv = await uploadId(sara, 'Sara Haddad CV.pdf', Buffer.from('%PDF-1.4\n% CV\n'));
    const photo = await uploadId(sara, 'portfolio.png', await png());
    const sent = await sendWith([cv, photo]);
    expect(sent.statusCode).toBe(200);
    const { message, messengerUser } = sent.json<SendMessageResponse>();
    expect(message.message).toBe('');
    expect(message.attachments.map((file) => file.name)).toEqual([
      'Sara Haddad CV.pdf',
      'portfolio.png',
    ]);
    expect(message.attachments[1]).toMatchObject({
      mime: 'image/png',
      width: 1200,
      height: 600,
      url: paths.attachment(photo),
      thumbnail_url: paths.attachmentThumbnail(photo),
    });
    expect(messengerUser.last_message).toBe('Sara Haddad CV.pdf');
    // the other party downloads them; a stranger still cannot
    expect((await acme.call('GET', paths.attachment(cv))).statusCode).toBe(200);
    expect((await acme.call('GET', paths.attachmentThumbnail(photo))).statusCode).toBe(200);
    expect((await omar.call('GET', paths.attachment(cv))).statusCode).toBe(403);
    // and the history carries them
    const conversation = await saraWithAcme();
    const history = (
      await acme.call('POST', paths.getMessage, {
        receiver_id: sara.user.id,
        job_id: conversation.jobId,
      })
    ).json<GetMessageResponse>();
    const chat = history.messages.flatMap((group) => group.chats).find((c) => c.id === message.id);
    expect(chat?.attachments.map((file) => file.id)).toEqual([cv, photo]);
  });

  it('refuses a used upload, someone else’s, more than five, and an empty message without files', async () => {
    const mine = await uploadId(sara, 'a.txt', Buffer.from('a'));
    expect((await sendWith([mine], 'first')).statusCode).toBe(200);
    const reused = await sendWith([mine], 'again');
    expect(reused.statusCode).toBe(422);
    expect(Object.keys(reused.json<{ errors: object }>().errors)).toEqual(['attachment_ids']);
    const theirs = await uploadId(omar, 'b.txt', Buffer.from('b'));
    expect((await sendWith([theirs], 'not mine')).statusCode).toBe(422);
    // nothing was half-written: the file is still Omar's, unused
    expect((await omar.call('GET', paths.attachment(theirs))).statusCode).toBe(200);
    const six = await Promise.all(
      Array.from({ length: 6 }, (_, i) => uploadId(sara, `f${i}.txt`, Buffer.from(`f${i}`))),
    );
    expect((await sendWith(six, 'too many')).statusCode).toBe(422);
    const empty = await sendWith([], '');
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json<{ errors: object }>().errors)).toEqual(['message']);
  });
});

describe(`unused uploads expire after 24 h, bytes included (${dialect})`, () => {
  let ctx: TestContext;
  let storageDir: string;
  let sara: Session;

  beforeAll(async () => {
    storageDir = mkdtempSync(join(tmpdir(), 'attachments-expiry-'));
    ctx = await createTestApp(dialect, {
      STORAGE_URL: `file:${storageDir}`,
      ATTACHMENT_SWEEP_SECONDS: '0.2',
    });
    sara = await signIn(ctx.app, SARA.email);
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(storageDir, { recursive: true, force: true });
  });

  const storedFiles = () =>
    readdirSync(storageDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);

  it('deletes an upload never sent (row and bytes, thumbnail too); a sent one stays', async () => {
    const db = ctx.database.db.kysely;
    const unused = (await upload(sara, 'old.png', await png())).json<UploadAttachmentResponse>();
    const kept = (
      await upload(sara, 'kept.txt', Buffer.from('kept'))
    ).json<UploadAttachmentResponse>();
    const acme = (await sara.call('GET', paths.initialData)).json<InitialDataResponse>()
      .messengerUsers[0]!;
    const sent = await sara.call('POST', paths.sendMessage, {
      receiver_id: acme.company_id,
      messenger_user: acme.id,
      job_id: acme.job_id,
      message: '',
      attachment_ids: [kept.attachment.id],
    });
    expect(sent.statusCode).toBe(200);
    const keys = await db
      .selectFrom('attachments')
      .select(['id', 'storage_key', 'thumbnail_key'])
      .where('id', '=', unused.attachment.id)
      .executeTakeFirstOrThrow();
    expect(storedFiles()).toEqual(expect.arrayContaining([keys.storage_key, keys.thumbnail_key]));
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000).toISOString();
    await db.updateTable('attachments').set({ created_at: dayAgo }).execute();

    await until(
      async () =>
        (await db
          .selectFrom('attachments')
          .select('id')
          .where('id', '=', unused.attachment.id)
          .executeTakeFirst()) === undefined,
      'the unused upload deleted',
    );
    // the original goes, then its thumbnail
    await until(
      () => !storedFiles().some((key) => key === keys.storage_key || key === keys.thumbnail_key),
      'its bytes deleted, thumbnail too',
    );
    expect((await sara.call('GET', paths.attachment(unused.attachment.id))).statusCode).toBe(404);
    expect((await sara.call('GET', paths.attachment(kept.attachment.id))).statusCode).toBe(200);
  });

  it('deletes bytes no row points at once they are old (a crash between storing and recording)', async () => {
    const folder = join(storageDir, 'zz');
    mkdirSync(folder, { recursive: true });
    const old = join(folder, 'zzOrphanFromACrash');
    const fresh = join(folder, 'zzStillBeingRecorded');
    writeFileSync(old, 'orphan');
    writeFileSync(fresh, 'fresh');
    const longAgo = new Date(Date.now() - 26 * 3600 * 1000);
    utimesSync(old, longAgo, longAgo);
    await until(() => !storedFiles().includes('zzOrphanFromACrash'), 'the orphan deleted');
    expect(storedFiles()).toContain('zzStillBeingRecorded');
  });
});
