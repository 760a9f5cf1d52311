import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { paths } from '../../../shared/paths.js';
import { HttpError } from '../../lib/http-error.js';
import { parseInput } from '../../lib/validation.js';
import { viewerOf } from '../../plugins/auth.js';
import type { AttachmentsService } from './attachments.service.js';
import { MAX_UPLOAD_BYTES } from './attachments.service.js';
import { createUploadDir } from './upload-temp.js';

export const attachmentParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, 'must be an id.')
    .transform(Number)
    .pipe(z.number().int().max(2_147_483_647)),
});

/** Room for the multipart envelope around the file. */
const ENVELOPE_BYTES = 64 * 1024;

const tooLarge = () =>
  new HttpError(413, 'The file is larger than 10 MiB.', {
    file: ['The file is larger than 10 MiB.'],
  });

/** The download answer: the contract's headers, then the bytes or the way to them. */
const sendDownload = async (
  reply: FastifyReply,
  download: Awaited<ReturnType<AttachmentsService['download']>>,
) => {
  void reply
    .header('content-type', download.mime)
    .header('content-disposition', download.disposition)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', 'sandbox')
    .header('cache-control', 'private');
  if (download.kind === 'redirect') return reply.redirect(download.url, 302);
  void reply.header('content-length', String(download.size));
  return reply.send(download.stream);
};

/**
 * `POST /user/attachments` (multipart, one `file` field) and the downloads. The upload is streamed
 * to a temporary file (never held in memory), at most 10 MiB: a declared length above that is
 * refused before the body is read, a longer stream as soon as it passes the limit.
 */
export const attachmentsRoutes = async (
  app: FastifyInstance,
  /** `uploadTempDir`: where uploads are streamed before they are stored (see upload-temp.ts). */
  options: { attachmentsService: AttachmentsService; uploadTempDir: string },
) => {
  const service = options.attachmentsService;
  // downloads are plain links (an <img>, an <a download>): signed in is enough, no app key
  app.addHook('onRequest', app.requireViewer);
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 100 },
  });

  app.post(
    paths.attachments,
    {
      onRequest: [
        app.requireAppKey,
        async (request) => {
          const declared = Number(request.headers['content-length'] ?? 0);
          if (declared > MAX_UPLOAD_BYTES + ENVELOPE_BYTES) throw tooLarge();
        },
      ],
    },
    async (request, reply) => {
      const viewer = viewerOf(request).user;
      await service.checkRate(viewer);
      if (!request.isMultipart())
        throw new HttpError(422, 'Send the file as multipart/form-data in the field "file".', {
          file: ['The file is required.'],
        });
      const dir = await createUploadDir(options.uploadTempDir);
      try {
        let part: Awaited<ReturnType<typeof request.file>>;
        try {
          part = await request.file();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
          throw new HttpError(422, 'The upload could not be read.', {
            file: ['The upload could not be read.'],
          });
        }
        if (!part || part.fieldname !== 'file')
          throw new HttpError(422, 'The file is required.', { file: ['The file is required.'] });
        const path = join(dir, 'upload');
        let size = 0;
        part.file.on('data', (chunk: Buffer) => {
          size += chunk.length;
        });
        await pipeline(part.file, createWriteStream(path));
        if (part.file.truncated) throw tooLarge();
        const attachment = await service.upload(viewer, { path, size, name: part.filename });
        return reply.code(201).send({ attachment });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  app.get('/user/attachments/:id', async (request, reply) => {
    const { id } = parseInput(attachmentParamsSchema, request.params);
    return sendDownload(reply, await service.download(viewerOf(request).user, id, 'file'));
  });

  app.get('/user/attachments/:id/thumbnail', async (request, reply) => {
    const { id } = parseInput(attachmentParamsSchema, request.params);
    return sendDownload(reply, await service.download(viewerOf(request).user, id, 'thumbnail'));
  });
};
