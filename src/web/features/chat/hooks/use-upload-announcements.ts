import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useAnnouncer } from '../../../components/live-region.js';
import type { PendingUpload } from './use-attachment-uploads.js';

/**
 * A finished upload has no alert of its own (only a refusal does): it is said politely, once per
 * file. Returns the text for the live region.
 */
export const useUploadAnnouncements = (items: readonly PendingUpload[]): string => {
  const { t } = useTranslation();
  const [announcement, announce] = useAnnouncer();
  const announced = useRef(new Set<string>());
  useEffect(() => {
    for (const item of items) {
      if (item.status !== 'done' || !item.file || announced.current.has(item.key)) continue;
      announced.current.add(item.key);
      announce(t('chat.files.uploaded', { name: item.name }));
    }
  }, [items, announce, t]);
  return announcement;
};
