import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Job, MessengerUser } from '../../../../shared/models.js';
import { useListCounts } from '../api/get-initial-data.js';
import { refetchFirstPages, setCachedUnread } from '../utils/conversation-cache.js';
import { useConversations } from './use-conversations.js';

/** The job filter's options: every job seen so far, so choosing one job never hides the others. */
const useJobOptions = (jobs: readonly Job[] | undefined): Job[] => {
  const known = useRef(new Map<number, Job>());
  return useMemo(() => {
    for (const job of jobs ?? []) known.current.set(job.id, job);
    return [...known.current.values()];
  }, [jobs]);
};

/**
 * The panel's two lists (active, and archived once the viewer has archived something) under one
 * job filter and search, and the counters.
 */
export const useConversationLists = () => {
  const queryClient = useQueryClient();
  const [jobFilter, setJobFilter] = useState('');
  const [search, setSearch] = useState('');
  const active = useConversations({ jobFilter, search, archived: false });
  const counts = useListCounts();
  const archived = useConversations(
    { jobFilter, search, archived: true },
    (counts?.archived_count ?? 0) > 0,
  );
  const jobs = useJobOptions(active.firstPage?.jobs);

  // the filter form asks again for the first page of what it shows (further pages as it scrolls)
  const activeKey = active.queryKey;
  const archivedKey = archived.queryKey;
  const refetch = useCallback(
    () =>
      Promise.all([
        refetchFirstPages(queryClient, activeKey),
        refetchFirstPages(queryClient, archivedKey),
      ]),
    [queryClient, activeKey, archivedKey],
  );
  const retry = useCallback(
    () => void refetchFirstPages(queryClient, activeKey),
    [queryClient, activeKey],
  );

  return {
    /** The viewer, from the first page (undefined until it is there). */
    auth: active.firstPage?.auth,
    jobs,
    active,
    archived,
    unreadTotal: counts?.unread_total,
    jobFilter,
    setJobFilter,
    search,
    setSearch,
    refetch,
    /** The first page failed: ask again. */
    retry,
  };
};

/**
 * The open conversation's row in the loaded pages, if one holds it. It is being read: a list
 * fetched before its messages were marked seen (a catch-up racing the opening) must not bring its
 * old unread count back.
 */
export const useOpenRow = (
  { active, archived }: ReturnType<typeof useConversationLists>,
  openId: number | undefined,
): MessengerUser | undefined => {
  const queryClient = useQueryClient();
  const openRow =
    openId === undefined
      ? undefined
      : (active.items.find((item) => item.id === openId) ??
        archived.items.find((item) => item.id === openId));
  const staleUnread = (openRow?.is_seen_messages_count ?? 0) > 0;
  useEffect(() => {
    if (staleUnread && openId !== undefined) setCachedUnread(queryClient, openId, 0);
  }, [staleUnread, openId, queryClient]);
  return openRow;
};
