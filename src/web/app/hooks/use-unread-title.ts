import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessengerUser } from '../../../shared/models.js';
import { conversationKeys } from '../../features/conversations/utils/conversation-cache.js';
import { useApi } from '../../lib/api.js';

/** Unread messages over the given conversations, archived ones included. */
export const totalUnread = (conversations: readonly MessengerUser[]): number =>
  conversations.reduce((sum, item) => sum + Math.max(0, item.is_seen_messages_count), 0);

/**
 * The tab title: `(N) Messages` while N messages are unread, else `Messages` (translated). N counts
 * every conversation of the viewer, archived ones too (a message waiting there is still unread), and
 * does not change with the job filter: it is read from the unfiltered list while that is cached
 * (live messages and reads update every cached list), else from the list on screen.
 */
export const useUnreadTitle = (shown: readonly MessengerUser[] | undefined): void => {
  const { t } = useTranslation();
  const api = useApi();
  // only reads the unfiltered list's cache entry (and keeps it): the page's own query loads it
  const { data: everything } = useQuery({
    queryKey: conversationKeys.list(''),
    queryFn: () => api.getInitialData({ jobId: null }),
    enabled: false,
  });
  const unread = totalUnread(everything?.messengerUsers ?? shown ?? []);
  useEffect(() => {
    document.title =
      unread > 0
        ? t('app.titleWithUnread', { count: unread, title: t('app.title') })
        : t('app.title');
  }, [t, unread]);
};
