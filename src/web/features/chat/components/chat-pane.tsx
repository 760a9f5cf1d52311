import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthUser, Job } from '../../../../shared/models.js';
import { EDIT_WINDOW_SECONDS_DEFAULT } from '../../../../shared/message-changes-paths.js';
import { isApiError } from '../../../lib/api-client.js';
import { useServices } from '../../../lib/services.js';
import { useThread } from '../api/get-messages.js';
import { useSendTyping } from '../api/send-typing.js';
import { useChangeableMessages } from '../hooks/use-changeable-messages.js';
import { useDraftFiles } from '../hooks/use-draft-files.js';
import { useMessageFocus, type MessageFocusRequest } from '../hooks/use-message-focus.js';
import { unconfirmed, useSendMessage } from '../hooks/use-send-message.js';
import { collectChats, type ThreadKeyParts } from '../utils/thread-cache.js';
import type { ComposerTools } from '../../../lib/composer-tool.js';
import { ChatFooter } from './chat-footer.js';
import { ChatHeader } from './chat-header.js';
import { ChatPlaceholder } from './chat-placeholder.js';
import { MessageList } from './message-list.js';

export interface OpenConversation extends ThreadKeyParts {
  /** From the list row, shown until the conversation has loaded. */
  name: string;
  imageUrl: string | null;
  job: Job | null;
  /** The other party was erased: the messages stay, but nothing new can be sent. */
  closed?: boolean;
  /** The other party is online now (and shows it). */
  online?: boolean;
  /** When the other party was last online (null: online, hidden or never). */
  lastSeenAt?: string | null;
  /** The other party is typing. */
  typing?: boolean;
  /** The viewer blocked the other party. */
  blocked?: boolean;
}

interface ChatPaneProps {
  viewer: AuthUser;
  conversation: OpenConversation | null;
  /** Small screens: the chat header's back arrow returns to the list. */
  onBack?: (() => void) | undefined;
  /**
   * Raised (a new number) when the user opens a conversation: its message box takes the focus once it
   * accepts input, unless the user is typing in another field by then. 0: never.
   */
  composerFocusRequest?: number;
  /** At the end of the chat header: what the viewer can do with the conversation (its menu). */
  headerActions?: ReactNode;
  /**
   * Said in place of the composer when the viewer may not write here (blocked, suspended); null:
   * the composer. A conversation whose other party was erased says so instead.
   */
  composerNotice?: ReactNode;
  /**
   * A message of this conversation to show (a search result opened): older history is loaded until
   * it is there, then it is scrolled into view, focused and highlighted for a few seconds.
   */
  focusMessage?: MessageFocusRequest | null;
  /** Tools of the composer (saved replies), given the message box. */
  composerTools?: ComposerTools | undefined;
}

/** The placeholder, or the open conversation: header, messages and the footer. */
export const ChatPane = ({ conversation, composerFocusRequest = 0, ...rest }: ChatPaneProps) =>
  conversation ? (
    <OpenChat
      key={conversation.conversationId}
      {...rest}
      conversation={conversation}
      composerFocusRequest={composerFocusRequest}
    />
  ) : (
    <ChatPlaceholder />
  );

/** Whether the user is typing in some field other than `except` (the focus is not taken from there). */
const isTypingElsewhere = (except: Element): boolean => {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === except) return false;
  return active.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(active.tagName);
};

const OpenChat = ({
  viewer,
  conversation,
  onBack,
  composerFocusRequest,
  headerActions,
  composerNotice,
  focusMessage = null,
  composerTools,
}: ChatPaneProps & { conversation: OpenConversation; composerFocusRequest: number }) => {
  const { t } = useTranslation();
  const headingId = useId();
  const sectionRef = useRef<HTMLElement>(null);
  const handledFocusRequest = useRef(0);
  const { conversationId, receiverId, jobId } = conversation;
  const parts = useMemo(
    () => ({ conversationId, receiverId, jobId }),
    [conversationId, receiverId, jobId],
  );
  const thread = useThread(parts);
  const chats = useMemo(() => collectChats(thread.data), [thread.data]);
  const latest = thread.data?.pages[0];
  const loading = thread.isPending && thread.fetchStatus !== 'idle';
  const outbox = useSendMessage(parts, viewer.id);
  const { outgoing, failedAttachments } = outbox;
  const writable = !conversation.closed && !composerNotice;
  // after a reload, the draft's files (and a failed message's) are back in the composer
  const { uploads, expiredNames } = useDraftFiles(viewer.id, conversationId, failedAttachments);
  const canAttach = writable && !loading && !(thread.isError && !thread.data);
  const drop = useFileDrop(canAttach, uploads.add);
  const pending = useMemo(() => unconfirmed(outgoing, chats), [outgoing, chats]);
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = thread;
  const loadOlder = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const onTyping = useSendTyping(conversationId);
  // the viewer's own recent messages offer Edit and Delete while they may write here
  const { config } = useServices();
  const editWindowMs = (config.edit_window_seconds ?? EDIT_WINDOW_SECONDS_DEFAULT) * 1000;
  const changeable = useChangeableMessages(chats, viewer.id, writable ? editWindowMs : 0);
  const edits = useMemo(() => ({ changeable, threadParts: parts }), [changeable, parts]);
  const focus = useMessageFocus(parts, thread.data, chats, focusMessage);

  useEffect(() => {
    if (composerFocusRequest === handledFocusRequest.current) return;
    const composer = sectionRef.current?.querySelector('textarea');
    if (!composer || composer.disabled) return; // again once the messages are there
    handledFocusRequest.current = composerFocusRequest;
    if (!isTypingElsewhere(composer)) composer.focus();
  }, [composerFocusRequest, loading, thread.isError]);

  // The composer coming back in place of a notice (an unblock from it) takes the focus the
  // notice's button had (that button is gone).
  const hadNotice = useRef(Boolean(composerNotice));
  useEffect(() => {
    const had = hadNotice.current;
    hadNotice.current = Boolean(composerNotice);
    if (!had || composerNotice) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    sectionRef.current?.querySelector('textarea')?.focus();
  }, [composerNotice]);

  // the message list is named by the heading (the job); the whole chat by the other party
  const partyName = latest?.receiver.user.name ?? conversation.name;
  return (
    <section
      ref={sectionRef}
      className="chat"
      aria-label={
        partyName ? t('chat.conversationWith', { name: partyName }) : t('chat.conversation')
      }
      data-testid="chat-pane"
      {...drop.handlers}
    >
      {drop.dragging ? (
        <div className="chat__drop-hint" data-testid="drop-hint">
          <p>{t('chat.files.dropHint')}</p>
        </div>
      ) : null}
      <ChatHeader
        viewerRole={viewer.role}
        receiver={latest?.receiver ?? null}
        job={latest ? latest.receiverJob : conversation.job}
        applicationGroup={latest?.application_group ?? null}
        fallbackName={conversation.name}
        fallbackImageUrl={conversation.imageUrl}
        headingId={headingId}
        onBack={onBack}
        online={conversation.online ?? false}
        lastSeenAt={conversation.lastSeenAt ?? null}
        // a conversation that could not be loaded offers nothing to do with it
        actions={thread.isError && !thread.data ? null : headerActions}
      />
      {thread.isError && !thread.data ? (
        <ChatLoadError
          notFound={
            isApiError(thread.error) && (thread.error.status === 404 || thread.error.status === 403)
          }
          onRetry={() => void thread.refetch()}
          retrying={thread.isFetching}
        />
      ) : (
        <>
          <MessageList
            threadKey={String(conversationId)}
            chats={chats}
            viewerId={viewer.id}
            loading={loading}
            hasOlder={hasNextPage}
            loadingOlder={isFetchingNextPage || focus.seeking}
            onLoadOlder={loadOlder}
            labelledBy={headingId}
            pending={pending}
            edits={edits}
            focus={focus}
          />
          <p className="chat__typing" data-testid="typing-indicator" role="status">
            {conversation.typing && partyName ? t('chat.typing', { name: partyName }) : ''}
          </p>
          {expiredNames.length > 0 && writable ? (
            <p
              className="chat-footer__draft-expired"
              data-testid="draft-files-expired"
              role="status"
            >
              {t('pageNotices.draftFilesExpired', {
                count: expiredNames.length,
                names: expiredNames.join(', '),
              })}
            </p>
          ) : null}
          {conversation.closed ? (
            <p className="chat__closed" data-testid="conversation-closed" role="note">
              {t('chat.closedDeleted')}
            </p>
          ) : composerNotice ? (
            composerNotice
          ) : (
            <ChatFooter
              loading={loading}
              outbox={outbox}
              draftOf={{ viewerId: viewer.id, conversationId }}
              uploads={uploads}
              onTyping={onTyping}
              tools={composerTools}
            />
          )}
        </>
      )}
    </section>
  );
};

const hasFiles = (event: DragEvent) =>
  Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Files dragged over the conversation: a hint covers it while they are over it, and a drop
 * attaches them. Enter and leave fire for every child crossed, so a depth count tells when the
 * drag really left. Over a pane that takes no files (closed, not loaded) the drop is refused, not
 * left to the browser (which would open the file in place of the page).
 */
const useFileDrop = (enabled: boolean, onFiles: (files: File[]) => void) => {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const end = () => {
    depth.current = 0;
    setDragging(false);
  };
  return {
    dragging: dragging && enabled,
    handlers: {
      onDragEnter: (event: DragEvent) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        depth.current += 1;
        setDragging(true);
      },
      onDragOver: (event: DragEvent) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = enabled ? 'copy' : 'none';
      },
      onDragLeave: (event: DragEvent) => {
        if (!hasFiles(event)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      },
      onDrop: (event: DragEvent) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        end();
        if (enabled) onFiles(Array.from(event.dataTransfer.files));
      },
    },
  };
};

/**
 * A conversation that could not be loaded is not an empty one: say so, and offer no composer whose
 * sends could never succeed. Not found (or not the viewer's): nothing to retry.
 */
const ChatLoadError = ({
  notFound,
  onRetry,
  retrying,
}: {
  notFound: boolean;
  onRetry: () => void;
  retrying: boolean;
}) => {
  const { t } = useTranslation();
  return (
    <div className="centered-column chat__error" role="alert" data-testid="chat-load-error">
      <p>{t(notFound ? 'chat.notFound' : 'chat.loadFailed')}</p>
      {notFound ? null : (
        <button type="button" className="button" onClick={onRetry} disabled={retrying}>
          {t('chat.tryAgain')}
        </button>
      )}
    </div>
  );
};
