import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { UploadedAttachment } from '../../../../shared/attachment-uploads.js';
import { isApiError } from '../../../lib/api-client.js';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_PER_MESSAGE,
  refusedKindOf,
} from '../../../lib/contract.js';
import { createUuid } from '../../../lib/uuid.js';
import { useUploadAttachment } from '../api/upload-attachment.js';

/** Why an upload did not make it, as the page words it (the server's texts are English only). */
export type UploadFailure =
  | { reason: 'tooLarge' }
  | { reason: 'kind'; kind: string }
  | { reason: 'refused'; message: string }
  /** 403: the other party blocked the viewer, or the account is suspended (the server's words). */
  | { reason: 'forbidden'; message: string }
  | { reason: 'rateLimited' }
  | { reason: 'failed' };

/** A file chosen for the next message: uploading, uploaded (`attachment`), or refused. */
export interface PendingUpload {
  key: string;
  name: string;
  size: number;
  /** The browser's guess before the upload, the server's judgement after it. */
  mime: string;
  status: 'uploading' | 'done' | 'failed';
  /** Percent sent, 0–100. */
  progress: number;
  attachment: UploadedAttachment | null;
  failure: UploadFailure | null;
  /** The chosen file, for another attempt; null for one uploaded before (a failed send's). */
  file: File | null;
}

/** Only a failure that may pass next time is offered "Try again"; a refused file stays refused. */
export const isRetryable = (upload: PendingUpload): boolean =>
  upload.file !== null &&
  (upload.failure?.reason === 'rateLimited' || upload.failure?.reason === 'failed');

const failureOf = (error: unknown): UploadFailure => {
  if (!isApiError(error)) return { reason: 'failed' };
  if (error.status === 413) return { reason: 'tooLarge' };
  if (error.status === 429) return { reason: 'rateLimited' };
  if (error.status === 403) return { reason: 'forbidden', message: error.message };
  if (error.status === 422) {
    const message = error.errors?.file?.[0] ?? error.message;
    // the server's 422 names the kind it found (the wording is shared: src/shared/attachments.ts)
    const kind = refusedKindOf(message);
    return kind ? { reason: 'kind', kind } : { reason: 'refused', message };
  }
  return { reason: 'failed' };
};

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

const fromUploaded = (attachment: UploadedAttachment): PendingUpload => ({
  key: `uploaded-${attachment.id}`,
  name: attachment.name,
  size: attachment.size,
  mime: attachment.mime,
  status: 'done',
  progress: 100,
  attachment,
  failure: null,
  file: null,
});

/** Refused files do not count: they are never sent, and may stay on screen until removed. */
const counted = (items: readonly PendingUpload[]) =>
  items.filter((item) => item.status !== 'failed').length;

/**
 * The files of the message being written. Each file uploads as soon as it is chosen (one call per
 * file, all at once), so Send only has to name them (`attachment_ids`). At most
 * ATTACHMENTS_PER_MESSAGE per message: more are refused here (`refusedOverLimit` says how many)
 * instead of by the server at send time. Removing a file aborts its upload; leaving the
 * conversation aborts every upload in flight (their files are not on screen any more).
 *
 * `initial`: files uploaded earlier that belong to the draft (a failed send's, after a reload).
 */
export const useAttachmentUploads = (initial: readonly UploadedAttachment[]) => {
  const uploadAttachment = useUploadAttachment();
  const [items, setItems] = useState<readonly PendingUpload[]>(() => initial.map(fromUploaded));
  // Files may be added twice before a render (a paste right after a drop): the limit is counted
  // on what was committed, not on the last render.
  const itemsRef = useRef(items);
  const controllers = useRef(new Map<string, AbortController>());
  const [refusedOverLimit, setRefusedOverLimit] = useState(0);

  const commit = useCallback(
    (change: (current: readonly PendingUpload[]) => readonly PendingUpload[]) => {
      itemsRef.current = change(itemsRef.current);
      setItems(itemsRef.current);
    },
    [],
  );
  const patch = useCallback(
    (key: string, change: Partial<PendingUpload>) =>
      commit((current) =>
        current.map((item) => (item.key === key ? { ...item, ...change } : item)),
      ),
    [commit],
  );

  const start = useCallback(
    (key: string, file: File) => {
      const controller = new AbortController();
      controllers.current.set(key, controller);
      uploadAttachment(file, {
        signal: controller.signal,
        onProgress: (loaded, total) =>
          patch(key, {
            progress: total > 0 ? Math.min(99, Math.floor((loaded / total) * 100)) : 0,
          }),
      })
        .then(
          (attachment) =>
            patch(key, { status: 'done', progress: 100, attachment, mime: attachment.mime }),
          (error: unknown) => {
            if (isAbort(error)) return; // removed (or left): nothing to show
            if (!isApiError(error) || error.status === 0 || error.status >= 500)
              console.error('Upload failed', error);
            patch(key, { status: 'failed', failure: failureOf(error) });
          },
        )
        .finally(() => {
          if (controllers.current.get(key) === controller) controllers.current.delete(key);
        });
    },
    [uploadAttachment, patch],
  );

  const add = useCallback(
    (files: readonly File[]) => {
      if (files.length === 0) return;
      const room = Math.max(0, ATTACHMENTS_PER_MESSAGE - counted(itemsRef.current));
      const accepted = files.slice(0, room);
      setRefusedOverLimit(files.length - accepted.length);
      const added = accepted.map((file): PendingUpload => ({
        key: createUuid(),
        name: file.name,
        size: file.size,
        mime: file.type,
        status: 'uploading',
        progress: 0,
        attachment: null,
        failure: null,
        file,
      }));
      // A file over the limit would be refused with 413 after sending all its bytes: say it now.
      const checked = added.map((item) =>
        item.size > ATTACHMENT_MAX_BYTES
          ? { ...item, status: 'failed' as const, failure: { reason: 'tooLarge' as const } }
          : item,
      );
      commit((current) => [...current, ...checked]);
      for (const item of checked)
        if (item.status === 'uploading' && item.file) start(item.key, item.file);
    },
    [commit, start],
  );

  const remove = useCallback(
    (key: string) => {
      controllers.current.get(key)?.abort();
      controllers.current.delete(key);
      commit((current) => current.filter((item) => item.key !== key));
      setRefusedOverLimit(0);
    },
    [commit],
  );

  const retry = useCallback(
    (key: string) => {
      const item = itemsRef.current.find((candidate) => candidate.key === key);
      if (!item?.file || !isRetryable(item)) return;
      patch(key, { status: 'uploading', progress: 0, failure: null });
      start(key, item.file);
    },
    [patch, start],
  );

  /** Send: the uploaded files go with the message; every chip goes (refused ones were said). */
  const take = useCallback((): UploadedAttachment[] => {
    const files = itemsRef.current.flatMap((item) => (item.attachment ? [item.attachment] : []));
    commit(() => []);
    setRefusedOverLimit(0);
    return files;
  }, [commit]);

  /** A failed send: its files come back (before anything chosen since), nothing is lost. */
  const restore = useCallback(
    (files: readonly UploadedAttachment[]) => {
      commit((current) => {
        const present = new Set(current.map((item) => item.attachment?.id));
        return [...files.filter((file) => !present.has(file.id)).map(fromUploaded), ...current];
      });
    },
    [commit],
  );

  /** A retried message went out: the files it carried leave the composer. */
  const removeSent = useCallback(
    (ids: readonly number[]) => {
      if (ids.length === 0) return;
      const sent = new Set(ids);
      commit((current) =>
        current.filter((item) => !item.attachment || !sent.has(item.attachment.id)),
      );
    },
    [commit],
  );

  useEffect(() => {
    const inFlight = controllers.current;
    return () => inFlight.forEach((controller) => controller.abort());
  }, []);

  return useMemo(() => {
    const uploaded = items.flatMap((item) => (item.attachment ? [item.attachment] : []));
    return {
      items,
      uploaded,
      uploading: items.some((item) => item.status === 'uploading'),
      /** More than a message holds (a failed send's files came back next to new ones). */
      overLimit: counted(items) > ATTACHMENTS_PER_MESSAGE,
      refusedOverLimit,
      add,
      remove,
      retry,
      take,
      restore,
      removeSent,
    };
  }, [items, refusedOverLimit, add, remove, retry, take, restore, removeSent]);
};

export type AttachmentUploads = ReturnType<typeof useAttachmentUploads>;
