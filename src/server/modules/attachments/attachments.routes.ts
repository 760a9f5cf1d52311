import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  uploadAttachmentBodySchema,
  uploadAttachmentResponseSchema,
} from '../../../shared/attachment-uploads.js';
import { paths } from '../../../shared/paths.js';
import { defineRouteFor, documentedOnly, routesPlugin } from '../../http/route.js';
import { HttpError } from '../../lib/http-error.js';
import { errors, pageCallErrors, redirect, security } from '../../openapi/vocabulary.js';
import { viewerOf } from '../../plugins/auth.js';
import type { AttachmentsService } from './attachments.service.js';
import { MAX_UPLOAD_BYTES } from './attachments.service.js';
import { createUploadDir } from './upload-temp.js';

export const attachmentParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, 'must be an id.')
    .transform(Number)
    .pipe(z.number().int().max(2_147_483_647))
    .describe('The attachment’s id (the `id` of an entry of a message’s `attachments`).'),
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

interface AttachmentsRoutesOptions {
  attachmentsService: AttachmentsService;
  /** Where uploads are streamed before they are stored (see upload-temp.ts). */
  uploadTempDir: string;
}

const defineRoute = defineRouteFor<AttachmentsRoutesOptions>({
  tag: 'messenger',
  security: security.viewerRead,
});

/** A download: the file, or (`thumbnail`) its thumbnail. */
const downloadRoute = (variant: 'file' | 'thumbnail') =>
  defineRoute({
    method: 'get',
    path: variant === 'file' ? paths.attachment : paths.attachmentThumbnail,
    operationId: variant === 'file' ? 'downloadAttachment' : 'downloadAttachmentThumbnail',
    summary:
      variant === 'file'
        ? 'An attachment, for its uploader or the two parties of its message (inline for images)'
        : 'The thumbnail of an image attachment (WEBP, at most 480 px on the long side)',
    description:
      variant === 'file'
        ? 'The file of a message, for its uploader and the two parties of the message only (anyone else: 403). Images and PDFs open in the browser, other files download. With S3 storage the answer is a redirect to a short-lived address.'
        : 'A small preview of an image attachment, for the same people as the file itself; files that are not images have none (404).',
    params: attachmentParamsSchema,
    responses: {
      200: { description: 'The bytes.', media: { type: '*/*', binary: true } },
      302: redirect('S3 storage: to a presigned address valid for at most 5 minutes'),
      ...errors(401, 403, 404, 422, 503),
    },
    handler: async ({ params, request, reply }, { attachmentsService }) =>
      sendDownload(
        reply,
        await attachmentsService.download(viewerOf(request).user, params.id, variant),
      ),
  });

/**
 * `POST /user/attachments` (multipart, one `file` field) and the downloads. The upload is streamed
 * to a temporary file (never held in memory), at most 10 MiB: a declared length above that is
 * refused before the body is read, a longer stream as soon as it passes the limit.
 */
export const attachmentsRoutes = routesPlugin(
  [
    defineRoute({
      method: 'post',
      path: paths.attachments,
      operationId: 'uploadAttachment',
      summary:
        'Upload one file (multipart field `file`, at most 10 MiB; PDF, DOC/DOCX, ODT, RTF, TXT, PNG, JPEG, WEBP, GIF judged from its bytes)',
      description:
        'Uploads one file before sending it: the answer’s `id` goes into `attachment_ids` of the message. The kind is judged from the file’s bytes, not its name; anything else is a 422. Images are measured and get a thumbnail. An upload no message uses is removed after a while.',
      security: security.pageChange,
      // a stream, read as it comes
      body: documentedOnly(uploadAttachmentBodySchema),
      bodyTypes: ['multipart/form-data'],
      responses: {
        201: { description: 'Stored, not yet sent.', schema: uploadAttachmentResponseSchema },
        ...errors(...pageCallErrors, 403, 413, 429),
      },
      onRequest: (app) => [
        app.requireAppKey,
        async (request) => {
          const declared = Number(request.headers['content-length'] ?? 0);
          if (declared > MAX_UPLOAD_BYTES + ENVELOPE_BYTES) throw tooLarge();
        },
      ],
      handler: async ({ request, reply }, { attachmentsService: service, uploadTempDir }) => {
        const viewer = viewerOf(request).user;
        await service.checkMayUpload(viewer);
        if (!request.isMultipart())
          throw new HttpError(422, 'Send the file as multipart/form-data in the field "file".', {
            file: ['The file is required.'],
          });
        const dir = await createUploadDir(uploadTempDir);
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
    }),
    downloadRoute('file'),
    downloadRoute('thumbnail'),
  ],
  async (app, options: AttachmentsRoutesOptions) => {
    // downloads are plain links (an <img>, an <a download>): signed in is enough, no app key
    app.addHook('onRequest', app.requireViewer);
    await app.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 100 },
    });
    return options;
  },
);
