import { useEffect, useState } from 'react';
import type { UploadedAttachment } from '../../../../shared/attachment-uploads.js';
import { useAttachmentExists } from '../api/attachment-exists.js';
import {
  readDraft,
  UNSENT_UPLOAD_KEPT_MS,
  updateDraft,
  type DraftFile,
} from '../utils/draft-store.js';
import { useAttachmentUploads } from './use-attachment-uploads.js';

/**
 * The files of the message being written, kept with the conversation's draft: after a reload (or
 * coming back to the conversation) the files uploaded for it are chips again, next to the text,
 * and Send attaches them. Files the server no longer keeps (an unsent upload is deleted after 24
 * hours) are dropped, and `expiredNames` says which. A failed message's files come back too.
 */
export const useDraftFiles = (
  viewerId: number,
  conversationId: number,
  failedAttachments: readonly UploadedAttachment[],
) => {
  const attachmentExists = useAttachmentExists();
  const [start] = useState(() => {
    const stored = readDraft(viewerId, conversationId).files ?? [];
    const now = Date.now();
    const kept = stored.filter((file) => now - file.savedAt < UNSENT_UPLOAD_KEPT_MS);
    const expired = stored.filter((file) => !kept.includes(file));
    // a failed message's files are its own: its send says when the server refuses them
    const failedIds = new Set(failedAttachments.map((file) => file.id));
    const draftOnly = kept.filter((file) => !failedIds.has(file.id));
    return { initial: [...failedAttachments, ...draftOnly], toCheck: draftOnly, expired };
  });
  const uploads = useAttachmentUploads(start.initial);
  const [expiredNames, setExpiredNames] = useState<readonly string[]>(() =>
    start.expired.map((file) => file.name),
  );

  // every change of the uploaded files is saved with the draft (each keeps when it was first saved)
  useEffect(() => {
    const savedAt = new Map(
      (readDraft(viewerId, conversationId).files ?? []).map((file) => [file.id, file.savedAt]),
    );
    const now = Date.now();
    updateDraft(viewerId, conversationId, {
      files: uploads.uploaded.map((file) => ({ ...file, savedAt: savedAt.get(file.id) ?? now })),
    });
  }, [uploads.uploaded, viewerId, conversationId]);

  // the files brought back are asked about once: those the server no longer has go
  const { removeSent: removeFiles } = uploads;
  useEffect(() => {
    if (start.toCheck.length === 0) return;
    let cancelled = false;
    void Promise.all(
      start.toCheck.map((file) =>
        attachmentExists(file.id).then(
          (there): DraftFile | null => (there ? null : file),
          // no answer: kept (a send that cannot attach it says so then)
          () => null,
        ),
      ),
    ).then((results) => {
      const gone = results.filter((file): file is DraftFile => file !== null);
      if (cancelled || gone.length === 0) return;
      removeFiles(gone.map((file) => file.id));
      setExpiredNames((names) => [...names, ...gone.map((file) => file.name)]);
    });
    return () => {
      cancelled = true;
    };
  }, [attachmentExists, start, removeFiles]);

  return { uploads, expiredNames };
};
