import { open, rm, writeFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { ATTACHMENT_MAX_BYTES, refusedKindMessage } from '../../../shared/attachments.js';
import type { AuthUser } from '../../../shared/models.js';
import { SUSPENDED_MESSAGE } from '../../../shared/safety.js';
import type { Database } from '../../db/schema.js';
import { randomToken } from '../../lib/crypto.js';
import { forbidden, HttpError, tooManyRequests } from '../../lib/http-error.js';
import type { LimitStore } from '../../lib/limit-store.js';
import { nowIso } from '../../lib/time.js';
import type { AttachmentStorage, Opened } from './attachment-storage.js';
import type { AttachmentsRepository } from './attachments.repository.js';
import { fileHoldsMarkup, judgeFileKind, SNIFF_BYTES } from './file-kind.js';
import { EXPIRY_BATCH } from './attachments.repository.js';

/** The largest upload (contract: 10 MiB; 413 above). */
export const MAX_UPLOAD_BYTES = ATTACHMENT_MAX_BYTES;
/** Thumbnails of images: at most this many pixels on the long side. */
export const THUMBNAIL_PX = 480;
/** An upload not sent within this is deleted, bytes included (contract: 24 h). */
export const UNUSED_TTL_MS = 24 * 3600 * 1000;
/** Bytes no row points at are deleted once this old (well past any upload still being recorded). */
export const ORPHAN_AGE_MS = UNUSED_TTL_MS + 3600 * 1000;
/** Uploads per user: a burst, then one every 2 s (429 beyond). */
const UPLOAD_RATE = { burst: 20, perSecond: 0.5 };

export interface AttachmentView {
  id: number;
  name: string;
  size: number;
  mime: string;
  width?: number;
  height?: number;
}

/** What a name may keep: no path, no control or direction-changing characters, at most 200 characters. */
export const sanitizeFileName = (raw: string | undefined): string => {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = [...base.normalize('NFC')]
    .filter((char) => {
      const code = char.codePointAt(0) ?? 0;
      return (
        code >= 0x20 &&
        code !== 0x7f &&
        !(code >= 0x80 && code < 0xa0) &&
        !(code >= 0x200b && code <= 0x200f) &&
        !(code >= 0x202a && code <= 0x202e) &&
        !(code >= 0x2066 && code <= 0x2069) &&
        code !== 0xfeff
      );
    })
    .join('')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .replace(/\s+/g, ' ');
  const limited = [...cleaned].slice(0, 200).join('');
  return limited || 'file';
};

/** `Content-Disposition` with the name in ASCII and in UTF-8 (RFC 6266 / 5987). */
export const contentDisposition = (kind: 'attachment' | 'inline', name: string): string => {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
};

export interface AttachmentsServiceOptions {
  db: Kysely<Database>;
  repository: AttachmentsRepository;
  storage: AttachmentStorage;
  limits: LimitStore;
}

/**
 * Attachments: an upload is judged from its bytes, its name sanitized, images
 * measured and given a thumbnail, the bytes stored before the row is written (a row never points
 * at missing bytes); only the uploader (before it is sent) and the two parties of its message may
 * download it.
 */
export const createAttachmentsService = ({
  db,
  repository,
  storage,
  limits,
}: AttachmentsServiceOptions) => {
  /** Before the bytes are read: 403 for a suspended viewer, 429 when the viewer uploads too fast. */
  const checkMayUpload = async (viewer: AuthUser): Promise<void> => {
    if (viewer.suspended) throw forbidden(SUSPENDED_MESSAGE);
    const wait = await limits.take(
      `upload:user:${viewer.id}`,
      UPLOAD_RATE.burst,
      UPLOAD_RATE.perSecond,
    );
    if (wait > 0) throw tooManyRequests(wait, 'Too many uploads. Please wait a moment.');
  };

  return {
    checkMayUpload,

    /**
     * Stores a finished upload (a local temporary file the caller removes afterwards) for the
     * viewer; 422 naming the kind found when it is not one of the allowed kinds.
     */
    async upload(
      viewer: AuthUser,
      file: { path: string; size: number; name: string | undefined },
    ): Promise<AttachmentView> {
      if (file.size === 0)
        throw new HttpError(422, 'The file is empty.', { file: ['The file is empty.'] });
      const handle = await open(file.path, 'r');
      const head = Buffer.alloc(Math.min(SNIFF_BYTES, file.size));
      try {
        await handle.read(head, 0, head.length, 0);
      } finally {
        await handle.close();
      }
      let kind = await judgeFileKind(head);
      // Text is judged whole: markup after the first bytes is refused as well.
      if (kind.allowed && kind.kind === 'txt' && file.size > head.length)
        if (await fileHoldsMarkup(file.path)) kind = { allowed: false, found: 'html' };
      if (!kind.allowed) {
        const message = refusedKindMessage(kind.found);
        throw new HttpError(422, message, { file: [message] });
      }
      const name = sanitizeFileName(file.name);
      const key = randomToken(18);
      let width: number | null = null;
      let height: number | null = null;
      let thumbnailKey: string | null = null;
      if (kind.image) {
        let thumbnail: Buffer;
        try {
          const image = sharp(file.path, { animated: false, limitInputPixels: 50_000_000 });
          const meta = await image.metadata();
          width = meta.width ?? null;
          height = meta.height ?? null;
          thumbnail = await image
            .rotate()
            .resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: 'inside', withoutEnlargement: true })
            .webp({ quality: 80 })
            .toBuffer();
        } catch {
          const message = 'The image could not be read.';
          throw new HttpError(422, message, { file: [message] });
        }
        thumbnailKey = `${key}-thumb`;
        const thumbPath = `${file.path}.thumb`;
        await writeFile(thumbPath, thumbnail);
        try {
          await storage.put(thumbnailKey, thumbPath, thumbnail.length, 'image/webp');
        } finally {
          await rm(thumbPath, { force: true });
        }
      }
      await storage.put(key, file.path, file.size, kind.mime);
      const id = await repository.insertAttachment(db, {
        uploader_id: viewer.id,
        chat_id: null,
        name,
        size: file.size,
        mime: kind.mime,
        width,
        height,
        storage_key: key,
        thumbnail_key: thumbnailKey,
        created_at: nowIso(),
      });
      return {
        id,
        name,
        size: file.size,
        mime: kind.mime,
        ...(width !== null && height !== null ? { width, height } : {}),
      };
    },

    /**
     * Deletes uploads never sent within 24 h (the row first, in one statement, then the bytes), and
     * bytes no row points at (a crash between storing and recording them, or between deleting a
     * row and its bytes): nothing is left that nothing will ever delete, and no message can point
     * at bytes this deletes (a sent upload is never expired).
     */
    async expire(now = new Date()): Promise<{ uploads: number; orphans: number }> {
      const cutoff = new Date(now.getTime() - UNUSED_TTL_MS).toISOString();
      let uploads = 0;
      for (;;) {
        const removed = await repository.deleteUnusedBefore(db, cutoff);
        for (const row of removed) {
          await storage.delete(row.storage_key);
          if (row.thumbnail_key !== null) await storage.delete(row.thumbnail_key);
        }
        uploads += removed.length;
        if (removed.length < EXPIRY_BATCH) break;
      }
      let orphans = 0;
      const dropOrphans = async (keys: string[]) => {
        const used = await repository.keysInUse(db, keys);
        for (const key of keys.filter((candidate) => !used.has(candidate))) {
          await storage.delete(key);
          orphans += 1;
        }
      };
      let batch: string[] = [];
      for await (const key of storage.listOlderThan(new Date(now.getTime() - ORPHAN_AGE_MS))) {
        batch.push(key);
        if (batch.length >= EXPIRY_BATCH) {
          await dropOrphans(batch);
          batch = [];
        }
      }
      await dropOrphans(batch);
      return { uploads, orphans };
    },

    /**
     * Removes the bytes of files whose rows are already gone (a deleted message's files and their
     * thumbnails). What fails to go now is left to the sweep of bytes no row points at.
     */
    async removeStoredFiles(
      files: readonly { storage_key: string; thumbnail_key: string | null }[],
    ): Promise<void> {
      const keys = files.flatMap((file) =>
        file.thumbnail_key === null ? [file.storage_key] : [file.storage_key, file.thumbnail_key],
      );
      await Promise.all(keys.map((key) => storage.delete(key)));
    },

    /** The bytes (or a presigned address) for the uploader or a party of its message; 403/404. */
    async download(
      viewer: AuthUser,
      id: number,
      variant: 'file' | 'thumbnail',
    ): Promise<Opened & { mime: string; disposition: string }> {
      const row = await repository.findAttachment(db, id);
      if (!row) throw new HttpError(404, 'Attachment not found.');
      const allowed =
        row.chat_id === null
          ? row.uploader_id === viewer.id
          : row.sender_id === viewer.id || row.receiver_id === viewer.id;
      if (!allowed) throw new HttpError(403, 'This attachment is not yours to see.');
      const thumbnail = variant === 'thumbnail';
      if (thumbnail && row.thumbnail_key === null) throw new HttpError(404, 'No thumbnail.');
      const mime = thumbnail ? 'image/webp' : row.mime;
      const disposition = contentDisposition(
        mime.startsWith('image/') ? 'inline' : 'attachment',
        row.name,
      );
      const opened = await storage.open(thumbnail ? (row.thumbnail_key ?? '') : row.storage_key, {
        mime,
        disposition,
      });
      return { ...opened, mime, disposition };
    },
  };
};

export type AttachmentsService = ReturnType<typeof createAttachmentsService>;
