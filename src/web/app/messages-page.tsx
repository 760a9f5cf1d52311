import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SendMessageResponse } from '../../shared/api.js';
import type { Chat, Job, MessengerUser } from '../../shared/models.js';
import { LiveRegion, useAnnouncer } from '../components/live-region.js';
import { Drawer } from '../components/drawer.js';
import { Spinner } from '../components/spinner.js';
import { Toast } from '../components/toast.js';
import type { OpenConversation } from '../features/chat/components/chat-pane.js';
import { LazyChatPane as ChatPane } from '../features/chat/components/lazy-chat-pane.js';
import { useThread } from '../features/chat/hooks/use-thread.js';
import { threadKeys } from '../features/chat/utils/thread-cache.js';
import { ConversationPanel } from '../features/conversations/components/conversation-panel.js';
import { useArchiveConversation } from '../features/conversations/hooks/use-archive-conversation.js';
import {
  useConversations,
  useListCounts,
} from '../features/conversations/hooks/use-conversations.js';
import {
  applyChatEventToLists,
  findCachedConversation,
  refetchFirstPages,
  setCachedUnread,
} from '../features/conversations/utils/conversation-cache.js';
import {
  otherPartyOf,
  selectionFor,
  withArchiveFlag,
  type ConversationSelection,
} from '../features/conversations/utils/conversation-view.js';
import { LanguageSwitch } from '../features/preferences/components/language-switch.js';
import { MuteToggle } from '../features/preferences/components/mute-toggle.js';
import { useMuted } from '../features/preferences/hooks/use-muted.js';
import { SettingsMenu } from '../features/settings/components/settings-menu.js';
import { useSaveLanguageAndTimeZone } from '../features/settings/hooks/use-save-language-and-time-zone.js';
import { pagePaths } from '../lib/contract.js';
import { useApi } from '../lib/api.js';
import { useServices } from '../lib/services.js';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../lib/use-media-query.js';
import { useLiveUpdates } from './hooks/use-live-updates.js';
import { useMessageNotifications } from './hooks/use-message-notifications.js';
import { useUnreadTitle } from './hooks/use-unread-title.js';
import {
  clearSelectionFromUrl,
  isPushedConversationEntry,
  readSelectionFromSearch,
  writeSelectionToUrl,
} from './url-selection.js';

/** The job filter's options: every job seen so far, so choosing one job never hides the others. */
const useJobOptions = (jobs: readonly Job[] | undefined): Job[] => {
  const known = useRef(new Map<number, Job>());
  return useMemo(() => {
    for (const job of jobs ?? []) known.current.set(job.id, job);
    return [...known.current.values()];
  }, [jobs]);
};

/**
 * Focuses the row of a conversation once it is drawn (it moves back into the list a moment after
 * an Undo), else `fallback`; a few frames at most.
 */
const focusRowSoon = (conversationId: number, fallback: HTMLElement | null, frames = 20) => {
  const row = document.querySelector<HTMLElement>(
    `[data-testid="conversation-list"] [data-conversation-id="${conversationId}"]`,
  );
  if (row) {
    row.focus();
    return;
  }
  if (frames <= 0) {
    fallback?.focus();
    return;
  }
  requestAnimationFrame(() => focusRowSoon(conversationId, fallback, frames - 1));
};

/** The chat area: the skip link's target. */
const MAIN_ID = 'messages-main';

/** The messaging page: conversation panel (sidebar or drawer), chat pane, live updates. */
export const MessagesPage = () => {
  const { t } = useTranslation();
  const services = useServices();
  const api = useApi();
  const queryClient = useQueryClient();
  const [jobFilter, setJobFilter] = useState('');
  const [search, setSearch] = useState('');
  const [selection, setSelection] = useState<ConversationSelection | null>(null);
  const [openedFrom, setOpenedFrom] = useState<MessengerUser | null>(null);
  /** Bumped by every opening: an answer that comes after the user moved on opens nothing. */
  const openings = useRef(0);
  const [drawerOpen, setDrawerOpen] = useState(false);
  /** Bumped when a conversation is opened from the list: the chat then focuses its message box. */
  const [composerFocusRequest, setComposerFocusRequest] = useState(0);
  const mainRef = useRef<HTMLElement>(null);
  const [muted, setMuted] = useMuted();
  const [announcement, announce] = useAnnouncer();
  const isSmallScreen = useMediaQuery(SMALL_SCREEN_QUERY);

  const conversations = useConversations({ jobFilter, search, archived: false });
  const counts = useListCounts();
  // the archived section's own pages, asked for only when the viewer has archived something
  const archivedConversations = useConversations(
    { jobFilter, search, archived: true },
    (counts?.archived_count ?? 0) > 0,
  );
  const data = conversations.firstPage;
  const auth = data?.auth;
  const jobs = useJobOptions(data?.jobs);
  const { mutate: archiveConversation, mutateAsync: archiveConversationAsync } =
    useArchiveConversation(auth?.role);
  /**
   * "Archived · Undo" after an archive: the conversation as it was, and the archive's outcome
   * (true once archived, false if the call failed).
   */
  const [archiveToast, setArchiveToast] = useState<{
    key: number;
    item: MessengerUser;
    done: Promise<boolean>;
  } | null>(null);
  const { saveLanguage } = useSaveLanguageAndTimeZone(auth?.id);

  const selectionRef = useRef(selection);
  selectionRef.current = selection;

  // back on the list (phones): the list is the page, so the drawer has nothing to add
  useEffect(() => {
    if (!selection) setDrawerOpen(false);
  }, [selection]);

  /**
   * Opens a conversation. From the list (`push`) it becomes a history entry when none was open, so
   * Back returns to the list (phones); switching between conversations replaces the entry.
   */
  const open = useCallback(
    (item: MessengerUser, history: 'push' | 'replace' | 'none') => {
      if (!auth) return;
      const next = selectionFor(item, auth.role);
      const wasOpen = selectionRef.current !== null;
      setSelection((current) =>
        current &&
        current.selectedItem === next.selectedItem &&
        current.receiverId === next.receiverId &&
        current.jobId === next.jobId
          ? current
          : next,
      );
      setOpenedFrom(item);
      setCachedUnread(queryClient, item.id, 0);
      setDrawerOpen(false);
      if (history !== 'none')
        writeSelectionToUrl(
          next.receiverId,
          item.id,
          history === 'push' && !wasOpen ? 'push' : 'replace',
        );
    },
    [auth, queryClient],
  );
  const select = useCallback(
    (item: MessengerUser) => {
      openings.current += 1;
      open(item, 'push');
    },
    [open],
  );

  const selectFromList = useCallback(
    (item: MessengerUser) => {
      select(item);
      setComposerFocusRequest((request) => request + 1);
    },
    [select],
  );

  /** A system notification was clicked: its conversation opens as if chosen in the list. */
  const openFromNotification = useCallback(
    (chat: Chat) => {
      const item = findCachedConversation(queryClient, chat.messenger_user_id);
      if (item) {
        selectFromList(item);
        return;
      }
      // not in a cached list (live events add rows, so only when no list is loaded): open it by
      // its ids; the header fills in from the thread
      setSelection({
        jobId: chat.job_id,
        receiverId: chat.sender_id,
        selectedItem: chat.messenger_user_id,
      });
    },
    [queryClient, selectFromList],
  );
  const notify = useMessageNotifications(openFromNotification);

  const { liveStatus, typingIn } = useLiveUpdates({ auth, selection, muted, announce, notify });
  // While the live connection is gone nobody can tell who is online: no "online" is claimed (the
  // catch-up after the reconnection asks for presence again).
  const liveDown = liveStatus === 'reconnecting';
  useUnreadTitle(counts?.unread_total ?? 0);

  // The open conversation is being read: a list fetched before its messages were marked seen
  // (a catch-up racing the opening) must not bring its old unread count back.
  const openId = selection?.selectedItem;
  const openRow =
    openId === undefined
      ? undefined
      : (conversations.items.find((item) => item.id === openId) ??
        archivedConversations.items.find((item) => item.id === openId));
  const staleUnread = (openRow?.is_seen_messages_count ?? 0) > 0;
  useEffect(() => {
    if (staleUnread && openId !== undefined) setCachedUnread(queryClient, openId, 0);
  }, [staleUnread, openId, queryClient]);

  /**
   * Opens the conversation an address names. One the loaded list pages do not hold (a link from
   * an e-mail to a conversation far down a long list) is asked of the server (the unseen call,
   * which opening does anyway): its job is needed to load its messages.
   */
  const openWanted = useCallback(
    (wanted: { target: number; tab: number }, history: 'replace' | 'none') => {
      const opening = (openings.current += 1);
      const item = findCachedConversation(queryClient, wanted.tab);
      if (item) {
        open(item, history);
        return;
      }
      const stillWanted = () => openings.current === opening;
      api.markSeen(wanted.tab).then(
        ({ messengerUser }) => {
          if (stillWanted()) open(messengerUser, history);
        },
        () => {
          if (stillWanted())
            setSelection({ jobId: null, receiverId: wanted.target, selectedItem: wanted.tab });
        },
      );
    },
    [api, open, queryClient],
  );

  // ?target=&tab= open a conversation once the list is there (the focus stays where it is)
  const openedFromUrl = useRef(false);
  useEffect(() => {
    if (openedFromUrl.current || !data) return;
    openedFromUrl.current = true;
    const wanted = readSelectionFromSearch(services.initialSearch);
    if (!wanted) return;
    openWanted(wanted, 'replace');
  }, [data, openWanted, services.initialSearch]);

  // Back and Forward: the address says which conversation is open, or none (the list)
  useEffect(() => {
    const onPopState = () => {
      const wanted = readSelectionFromSearch(location.search);
      if (!wanted) {
        setSelection(null);
        setOpenedFrom(null);
        return;
      }
      openWanted(wanted, 'none');
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [openWanted]);

  /** The chat's back arrow (small screens): the same as Back when the page opened it. */
  const backToList = useCallback(() => {
    if (isPushedConversationEntry()) {
      history.back();
      return;
    }
    setSelection(null);
    setOpenedFrom(null);
    clearSelectionFromUrl();
  }, []);

  const onToggleArchive = useCallback(
    (item: MessengerUser, toArchive: boolean) => {
      if (!auth) return;
      if (toArchive) {
        // Undo waits for the archive's answer, so the two calls never cross
        const done = archiveConversationAsync({ item, archive: true }).then(
          () => true,
          () => {
            // not archived (the row is back already): nothing to undo
            setArchiveToast((current) => (current?.item.id === item.id ? null : current));
            return false;
          },
        );
        setArchiveToast((current) => ({ key: (current?.key ?? 0) + 1, item, done }));
      } else {
        archiveConversation({ item, archive: false });
        setArchiveToast((current) => (current?.item.id === item.id ? null : current));
      }
      const name = otherPartyOf(item, auth.role).name;
      announce(
        toArchive
          ? t('conversations.archivedNotice', { name })
          : t('conversations.unarchivedNotice', { name }),
      );
    },
    [auth, archiveConversation, archiveConversationAsync, announce, t],
  );

  /** Undo: the conversation goes back to the list; a keyboard user's focus goes with it. */
  const undoArchive = useCallback(() => {
    if (!archiveToast) return;
    const { item, done } = archiveToast;
    const focusWasInToast =
      document.activeElement instanceof HTMLElement &&
      document.activeElement.closest('.toast') !== null;
    setArchiveToast(null);
    void done.then((archived) => {
      if (!archived || !auth) return;
      // the row as it is now, archived (`item` is the row before the archive): what a failed
      // unarchive puts back
      const current = findCachedConversation(queryClient, item.id) ?? item;
      onToggleArchive(withArchiveFlag(current, auth.role, true), false);
      if (focusWasInToast) focusRowSoon(item.id, mainRef.current);
    });
  }, [archiveToast, auth, queryClient, onToggleArchive]);

  const onSent = useCallback(
    (response: SendMessageResponse) => {
      // the answer is the conversation as it is now: the list needs nothing else
      applyChatEventToLists(queryClient, response.messengerUser);
    },
    [queryClient],
  );

  // the filter form asks again for the first page of what it shows (further pages as it scrolls)
  const activeKey = conversations.queryKey;
  const archivedKey = archivedConversations.queryKey;
  const onFilter = useCallback(
    () =>
      Promise.all([
        refetchFirstPages(queryClient, activeKey),
        refetchFirstPages(queryClient, archivedKey),
      ]),
    [queryClient, activeKey, archivedKey],
  );

  // read receipts and online status work both ways: switching one changes what the viewer sees
  const onReciprocalChanged = useCallback(() => {
    void onFilter();
    void queryClient.invalidateQueries({ queryKey: threadKeys.all });
  }, [onFilter, queryClient]);

  const signOut = async () => {
    try {
      await api.logout();
    } catch (error) {
      console.error(error);
    }
    services.navigate(pagePaths.login);
  };

  // The open conversation's thread (the chat pane's query): its record is the fallback when no
  // loaded list page holds the conversation (opened from a link), kept current by live events.
  const threadParts = useMemo(
    () =>
      selection
        ? {
            conversationId: selection.selectedItem,
            receiverId: selection.receiverId,
            jobId: selection.jobId,
          }
        : null,
    [selection],
  );
  const threadRecord = useThread(threadParts).data?.pages[0]?.messengerUser;

  const openConversation: OpenConversation | null = useMemo(() => {
    if (!selection) return null;
    const item =
      openRow ??
      findCachedConversation(queryClient, selection.selectedItem) ??
      (threadRecord?.id === selection.selectedItem ? threadRecord : undefined) ??
      (openedFrom?.id === selection.selectedItem ? openedFrom : undefined);
    const party = item && auth ? otherPartyOf(item, auth.role) : null;
    return {
      conversationId: selection.selectedItem,
      receiverId: selection.receiverId,
      jobId: selection.jobId,
      name: party?.name ?? '',
      imageUrl: party?.imageUrl ?? null,
      job: item?.job ?? null,
      closed: item?.closed === true,
      online: !liveDown && (item?.other_online ?? false),
      lastSeenAt: liveDown ? null : (item?.other_last_seen_at ?? null),
      typing: typingIn.has(selection.selectedItem),
    };
  }, [selection, openRow, queryClient, threadRecord, openedFrom, auth, typingIn, liveDown]);

  const panel = (inDrawer: boolean) =>
    auth ? (
      <ConversationPanel
        viewerRole={auth.role}
        jobs={jobs}
        active={conversations}
        archived={archivedConversations}
        unreadTotal={counts?.unread_total}
        loading={conversations.isFetching}
        selectedId={selection?.selectedItem ?? null}
        search={search}
        onSearchChange={setSearch}
        jobFilter={jobFilter}
        onJobFilterChange={setJobFilter}
        onFilter={onFilter}
        onSelect={selectFromList}
        onToggleArchive={onToggleArchive}
        inDrawer={inDrawer}
      />
    ) : null;

  // the skip link: to the open conversation's message box when it takes input, else to the chat area
  const skipToChat = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const composer = mainRef.current?.querySelector<HTMLTextAreaElement>('textarea:enabled');
    (composer ?? mainRef.current)?.focus();
  };

  return (
    <div className={`messenger${liveDown ? ' messenger--live-down' : ''}`}>
      <div className="messenger__layout" inert={drawerOpen && isSmallScreen}>
        <a className="skip-link" href={`#${MAIN_ID}`} onClick={skipToChat}>
          {openConversation ? t('app.skipToMessageBox') : t('app.skipToConversation')}
        </a>
        <header className="topbar">
          {/* Phones: the list is the first screen itself; the drawer (spec) serves an open chat. */}
          {isSmallScreen && selection ? (
            <button
              type="button"
              className="icon-button topbar__drawer-button"
              data-testid="open-drawer"
              aria-haspopup="dialog"
              aria-expanded={drawerOpen}
              title={t('conversations.openDrawer')}
              onClick={() => setDrawerOpen(true)}
            >
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <path
                  d="M4 6h16M4 12h16M4 18h16"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              </svg>
              <span className="visually-hidden">{t('conversations.openDrawer')}</span>
            </button>
          ) : null}
          <div className="topbar__brand">
            <span className="topbar__logo" aria-hidden="true" />
            <h1 className="topbar__title">{t('app.title')}</h1>
          </div>
          <div className="topbar__controls">
            <LanguageSwitch
              onChange={(language) => {
                void services.appI18n.changeLanguage(language);
                saveLanguage(language);
              }}
            />
            <MuteToggle muted={muted} onChange={setMuted} />
            <SettingsMenu onReciprocalChanged={onReciprocalChanged} />
            <button
              type="button"
              className="button button--ghost topbar__sign-out"
              title={t('app.signOut')}
              onClick={() => void signOut()}
            >
              <svg
                className="topbar__sign-out-icon"
                viewBox="0 0 24 24"
                width="18"
                height="18"
                aria-hidden="true"
                focusable="false"
              >
                <path
                  d="M10 4H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h4M15 8l4 4-4 4M19 12H9"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
              <span className="topbar__button-label">{t('app.signOut')}</span>
            </button>
          </div>
        </header>

        <div className="live-status" role="status" data-testid="live-status">
          {liveDown ? <p className="live-status__message">{t('pageNotices.offline')}</p> : null}
        </div>

        <div className="messenger__body">
          {!isSmallScreen ? (
            <aside className="messenger__sidebar" aria-label={t('conversations.heading')}>
              {panel(false)}
            </aside>
          ) : null}
          <main className="messenger__main" id={MAIN_ID} ref={mainRef} tabIndex={-1}>
            {!auth ? (
              conversations.isError ? (
                <div className="page-status" role="alert">
                  <p>{t('app.loadFailed')}</p>
                  <button
                    type="button"
                    className="button button--primary"
                    onClick={() => void refetchFirstPages(queryClient, conversations.queryKey)}
                  >
                    {t('app.retry')}
                  </button>
                </div>
              ) : (
                <div className="page-status">
                  <Spinner label={t('app.loading')} />
                </div>
              )
            ) : isSmallScreen && !selection ? (
              // Phones start on the list (the drawer holds it while a conversation is open)
              drawerOpen ? null : (
                <div className="messenger__phone-list">{panel(false)}</div>
              )
            ) : (
              <ChatPane
                viewer={auth}
                conversation={openConversation}
                onSent={onSent}
                onBack={isSmallScreen ? backToList : undefined}
                composerFocusRequest={composerFocusRequest}
              />
            )}
          </main>
        </div>
      </div>

      {archiveToast ? (
        <Toast
          key={archiveToast.key}
          testId="archive-toast"
          message={t('pageNotices.archived')}
          actionLabel={t('pageNotices.undo')}
          onAction={undoArchive}
          onDismiss={() => setArchiveToast(null)}
        />
      ) : null}
      {isSmallScreen && drawerOpen ? (
        <Drawer
          title={t('conversations.drawerTitle')}
          closeLabel={t('conversations.closeDrawer')}
          onClose={() => setDrawerOpen(false)}
        >
          {panel(true)}
        </Drawer>
      ) : null}
      <LiveRegion message={announcement} />
    </div>
  );
};
