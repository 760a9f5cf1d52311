import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Drawer } from '../components/drawer.js';
import { LiveRegion, useAnnouncer } from '../components/live-region.js';
import { Spinner } from '../components/spinner.js';
import { Toast } from '../components/toast.js';
import { LazyChatPane as ChatPane } from '../features/chat/components/lazy-chat-pane.js';
import { threadKeys } from '../features/chat/utils/thread-cache.js';
import { ConversationPanel } from '../features/conversations/components/conversation-panel.js';
import { useArchiveWithUndo } from '../features/conversations/hooks/use-archive-with-undo.js';
import {
  useConversationLists,
  useOpenRow,
} from '../features/conversations/hooks/use-conversation-lists.js';
import { useLiveLists } from '../features/conversations/hooks/use-live-lists.js';
import { EmbedBadge } from '../features/embed/components/embed-badge.js';
import { SessionEndedNotice } from '../features/embed/components/session-ended-notice.js';
import { useEmbed, useSessionEnded } from '../features/embed/hooks/use-embed.js';
import { useEmbedEvents } from '../features/embed/hooks/use-embed-events.js';
import { useMuted } from '../features/language-and-sound/hooks/use-muted.js';
import { useLiveConnection } from '../lib/realtime.js';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../lib/use-media-query.js';
import { useEmbedHost } from './hooks/use-embed-host.js';
import { useMessageAlerts } from './hooks/use-message-alerts.js';
import { useMessageSearchSlots } from './message-search-slots.js';
import { useOpenConversation } from './hooks/use-open-conversation.js';
import { useSafetySlots } from './safety-slots.js';
import { useSavedRepliesTools } from './saved-replies-slot.js';
import { useSelection } from './hooks/use-selection.js';
import { useUnreadTitle } from './hooks/use-unread-title.js';
import { Topbar } from './topbar.js';

/** The chat area: the skip link's target. */
const MAIN_ID = 'messages-main';

/**
 * The messaging page: conversation panel (sidebar or drawer), chat pane, live updates. Embedded
 * (`?embed=`, features/embed): the inbox is the whole page in its frame, the conversation mode only
 * the open conversation's chat, the badge mode only the unread count.
 */
export const MessagesPage = () => {
  const { t } = useTranslation();
  const embed = useEmbed();
  const embedMode = embed?.params.mode;
  const sessionEnded = useSessionEnded(embed);
  const queryClient = useQueryClient();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  const mainRef = useRef<HTMLElement>(null);
  const [muted, setMuted] = useMuted();
  const [announcement, announce] = useAnnouncer();
  const isSmallScreen = useMediaQuery(SMALL_SCREEN_QUERY);

  const lists = useConversationLists();
  const { auth } = lists;
  const {
    selection,
    openedFrom,
    composerFocusRequest,
    selectFromList,
    selectFromSearch,
    selectFromHost,
    ...navigation
  } = useSelection(auth, closeDrawer);
  const openId = selection?.selectedItem;
  const messageSearch = useMessageSearchSlots({
    auth,
    conversationSearch: lists.search,
    onConversationSearchChange: lists.setSearch,
    openId,
    selectFromSearch,
  });
  useLiveLists(openId);
  const openRow = useOpenRow(lists, openId);
  const archiving = useArchiveWithUndo({
    viewerRole: auth?.role,
    announce,
    focusFallback: mainRef,
  });

  // While the live connection is gone nobody can tell who is online: no "online" is claimed (the
  // catch-up after the reconnection asks for presence again).
  const liveDown = useLiveConnection(auth?.id) === 'reconnecting';
  useMessageAlerts({
    viewerId: auth?.id,
    // the badge shows a number, nothing more: no sound from it
    muted: muted || embedMode === 'badge',
    announce,
    onOpenNotification: navigation.openFromNotification,
  });
  useUnreadTitle(lists.unreadTotal ?? 0);
  const openConversation = useOpenConversation({
    auth,
    selection,
    openRow,
    openedFrom,
    liveDown,
  });
  const embedHost = useEmbedHost({ embed, auth, openId, selectFromHost });
  useEmbedEvents(embed, {
    shown:
      embedMode === 'badge'
        ? lists.unreadTotal !== undefined
        : embedMode === 'conversation'
          ? // the conversation, or the notice that it could not be opened: the host hears either way
            auth !== undefined && (openConversation !== null || embedHost.failed)
          : auth !== undefined,
    unreadTotal: lists.unreadTotal,
    onPeerChange: () => void lists.refetch(),
  });
  const safety = useSafetySlots({ auth, conversation: openConversation, announce });
  const composerTools = useSavedRepliesTools(auth, openConversation);

  // back on the list (phones): the list is the page, so the drawer has nothing to add
  useEffect(() => {
    if (!selection) setDrawerOpen(false);
  }, [selection]);

  // read receipts and online status work both ways: switching one changes what the viewer sees
  const { refetch } = lists;
  const onReciprocalChanged = useCallback(() => {
    void refetch();
    void queryClient.invalidateQueries({ queryKey: threadKeys.all });
  }, [refetch, queryClient]);

  const panel = (inDrawer: boolean) =>
    auth ? (
      <ConversationPanel
        viewerRole={auth.role}
        jobs={lists.jobs}
        active={lists.active}
        archived={lists.archived}
        unreadTotal={lists.unreadTotal}
        loading={lists.active.isFetching}
        selectedId={openId ?? null}
        search={lists.search}
        onSearchChange={lists.setSearch}
        jobFilter={lists.jobFilter}
        onJobFilterChange={lists.setJobFilter}
        onFilter={refetch}
        onSelect={selectFromList}
        onToggleArchive={archiving.onToggleArchive}
        inDrawer={inDrawer}
        messageSearch={messageSearch.panel}
      />
    ) : null;

  // the skip link: to the open conversation's message box when it takes input, else to the chat area
  const skipToChat = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const composer = mainRef.current?.querySelector<HTMLTextAreaElement>('textarea:enabled');
    (composer ?? mainRef.current)?.focus();
  };

  if (sessionEnded)
    return (
      <div className="messenger messenger--embed">
        <SessionEndedNotice />
      </div>
    );
  if (embedMode === 'badge') return <EmbedBadge count={lists.unreadTotal} />;

  const chatPane = (onBack: (() => void) | undefined) =>
    auth ? (
      <ChatPane
        viewer={auth}
        conversation={openConversation}
        onBack={onBack}
        composerFocusRequest={composerFocusRequest}
        headerActions={safety.headerActions}
        composerNotice={safety.composerNotice}
        focusMessage={messageSearch.focusMessage}
        composerTools={composerTools}
      />
    ) : null;
  const pageStatus = (failed: boolean) =>
    failed ? (
      <div className="page-status" role="alert">
        <p>{t(lists.active.isError ? 'app.loadFailed' : 'embed.conversationFailed')}</p>
        {lists.active.isError ? (
          <button type="button" className="button button--primary" onClick={lists.retry}>
            {t('app.retry')}
          </button>
        ) : null}
      </div>
    ) : (
      <div className="page-status">
        <Spinner label={t('app.loading')} />
      </div>
    );

  if (embedMode === 'conversation')
    // one conversation: its chat and composer, no list, no top bar, no way back
    return (
      <div className={`messenger messenger--embed${liveDown ? ' messenger--live-down' : ''}`}>
        <div className="live-status" role="status" data-testid="live-status">
          {liveDown ? <p className="live-status__message">{t('pageNotices.offline')}</p> : null}
        </div>
        <main
          className="messenger__main messenger__embed-chat"
          id={MAIN_ID}
          ref={mainRef}
          tabIndex={-1}
        >
          {auth && openConversation
            ? chatPane(undefined)
            : pageStatus(lists.active.isError || embedHost.failed)}
        </main>
        <LiveRegion message={announcement} />
      </div>
    );

  return (
    <div
      className={`messenger${embed ? ' messenger--embed' : ''}${liveDown ? ' messenger--live-down' : ''}`}
    >
      <div className="messenger__layout" inert={drawerOpen && isSmallScreen}>
        <a className="skip-link" href={`#${MAIN_ID}`} onClick={skipToChat}>
          {openConversation ? t('app.skipToMessageBox') : t('app.skipToConversation')}
        </a>
        <Topbar
          viewerId={auth?.id}
          // phones: the list is the first screen itself; the drawer serves an open conversation
          drawer={
            isSmallScreen && selection
              ? { open: drawerOpen, onOpen: () => setDrawerOpen(true) }
              : null
          }
          muted={muted}
          onMutedChange={setMuted}
          onReciprocalChanged={onReciprocalChanged}
        />

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
              pageStatus(lists.active.isError)
            ) : isSmallScreen && !selection ? (
              // Phones start on the list (the drawer holds it while a conversation is open)
              drawerOpen ? null : (
                <div className="messenger__phone-list">{panel(false)}</div>
              )
            ) : (
              chatPane(isSmallScreen ? navigation.backToList : undefined)
            )}
          </main>
        </div>
      </div>

      {archiving.toast ? (
        <Toast
          key={archiving.toast.key}
          testId="archive-toast"
          message={t('pageNotices.archived')}
          actionLabel={t('pageNotices.undo')}
          onAction={archiving.toast.undo}
          onDismiss={archiving.toast.dismiss}
        />
      ) : null}
      {isSmallScreen && drawerOpen ? (
        <Drawer
          title={t('conversations.drawerTitle')}
          closeLabel={t('conversations.closeDrawer')}
          onClose={closeDrawer}
        >
          {panel(true)}
        </Drawer>
      ) : null}
      <LiveRegion message={announcement} />
    </div>
  );
};
