import { memo, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chat, ChatAttachment } from '../../../../shared/models.js';
import { hasBidiControl, isolateBidiControls } from '../../../../shared/text.js';
import { formatFullDateTime, formatMessageTime, shownName } from '../../../lib/format.js';
import { LineIcon } from '../../../components/line-icon.js';
import { formatFileSize, kindLabel } from '../utils/file-kind.js';
import { linkify } from '../utils/linkify.js';
import type { ThreadKeyParts } from '../utils/thread-cache.js';
import { useOwnMessageChanges } from './own-message-changes.js';

interface MessageBubbleProps {
  chat: Chat;
  own: boolean;
  /** Continues a run of the same sender: no name/time header (the time stays as a tooltip and for screen readers). */
  continued?: boolean;
  /** The viewer may still edit or delete it (their own, within the edit window). */
  changeable?: boolean;
  /** The open conversation's thread (where a deletion is recorded); without it nothing is offered. */
  threadParts?: ThreadKeyParts | undefined;
  /** Shown highlighted (and current): the message a search result opened. */
  highlighted?: boolean;
  /** Takes the focus from script (the message a search result opened). */
  focusable?: boolean;
}

/**
 * A part of a message's text. One holding bidi controls is drawn isolated (`<bdi>`), its overrides
 * and embeddings turned into isolates: it cannot draw letters backwards ("x \u202eevil" as
 * "x live") nor reorder the text around it.
 */
const TextRun = ({ text }: { text: string }) =>
  hasBidiControl(text) ? <bdi>{isolateBidiControls(text)}</bdi> : text;

const MessageText = ({ text }: { text: string }) => (
  <p className="message__text" dir="auto">
    {linkify(text).map((part, index) =>
      part.kind === 'link' ? (
        <a
          key={index}
          href={part.href}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="message__link"
        >
          <TextRun text={part.text} />
        </a>
      ) : (
        <TextRun key={index} text={part.text} />
      ),
    )}
  </p>
);

const BubbleFrame = ({
  own,
  continued,
  extraClass = '',
  children,
  liRef,
  ...attributes
}: {
  own: boolean;
  continued: boolean;
  extraClass?: string;
  children: ReactNode;
  'data-testid': string;
  'data-chat-id'?: number;
  'aria-busy'?: boolean;
  liRef?: Ref<HTMLLIElement>;
  'aria-current'?: 'true';
  'data-highlighted'?: 'true';
  tabIndex?: number;
}) => (
  <li
    ref={liRef}
    className={`message ${own ? 'message--own' : 'message--other'}${continued ? ' message--continued' : ''}${extraClass}`}
    {...attributes}
  >
    {children}
  </li>
);

/**
 * Own messages on the end side; others on the start side with the sender's name and the time.
 * The first bubble of a run carries the name and time, the ones after it only the text.
 */
export const MessageBubble = memo(function MessageBubble({
  chat,
  own,
  continued = false,
  changeable = false,
  threadParts,
  highlighted = false,
  focusable = false,
}: MessageBubbleProps) {
  const { t, i18n } = useTranslation();
  const time = formatMessageTime(chat.created_at, chat.messaging_time, i18n.language);
  const fullTime = formatFullDateTime(chat.created_at, i18n.language);
  const deleted = Boolean(chat.deleted_at);
  const changes = useOwnMessageChanges(chat, changeable, threadParts);
  const edited =
    chat.edited_at && !deleted ? (
      <span
        className="message__edited"
        data-testid="message-edited"
        title={formatFullDateTime(chat.edited_at, i18n.language)}
      >
        {t('messageEdits.edited')}
      </span>
    ) : null;
  return (
    <BubbleFrame
      own={own}
      continued={continued}
      extraClass={`${deleted ? ' message--deleted' : ''}${changes.extraClass}${highlighted ? ' message--highlighted' : ''}`}
      data-testid="chat-message"
      data-chat-id={chat.id}
      liRef={changes.frameRef}
      {...(highlighted ? { 'aria-current': 'true', 'data-highlighted': 'true' } : {})}
      {...(focusable ? { tabIndex: -1 } : {})}
    >
      {changes.actions}
      <div
        className="message__bubble"
        title={continued ? fullTime : undefined}
        {...changes.bubbleHandlers}
      >
        {continued ? (
          <time className="visually-hidden" dateTime={chat.created_at}>
            {time}
          </time>
        ) : (
          <p className="message__meta" data-testid="message-meta">
            {own ? (
              <span className="visually-hidden">{t('chat.you')}</span>
            ) : (
              <span className="message__sender" dir="auto">
                {shownName(chat.sender.name, () => t('app.deletedUser'))}
              </span>
            )}
            <time className="message__time" dateTime={chat.created_at} title={fullTime}>
              {time}
            </time>
            {edited}
          </p>
        )}
        {deleted ? (
          <p className="message__deleted" data-testid="message-deleted">
            {t('messageEdits.deleted')}
          </p>
        ) : (
          (changes.editor ?? (chat.message ? <MessageText text={chat.message} /> : null))
        )}
        {continued && edited ? <p className="message__edited-line">{edited}</p> : null}
        {chat.attachments.length > 0 && !deleted ? <MessageFiles files={chat.attachments} /> : null}
      </div>
      {changes.overlays}
    </BubbleFrame>
  );
});

/** The files of a message: images as thumbnails opening full size, other files as cards (name, kind, size). */
const MessageFiles = ({ files }: { files: ChatAttachment[] }) => {
  const { t, i18n } = useTranslation();
  return (
    <ul className="plain-list" data-testid="message-files">
      {files.map((file) =>
        file.thumbnail_url ? (
          <li key={file.id}>
            <a href={file.url} target="_blank" rel="noopener" className="message__image">
              <img
                src={file.thumbnail_url}
                alt={file.name}
                width={file.width && file.height ? Math.min(240, file.width) : 240}
                height={
                  file.width && file.height
                    ? Math.round((Math.min(240, file.width) * file.height) / file.width)
                    : 160
                }
                loading="lazy"
              />
            </a>
          </li>
        ) : (
          <li key={file.id}>
            <a
              href={file.url}
              download={file.name}
              className="message__file"
              title={t('chat.files.download', { name: file.name })}
            >
              <span className="message__file-icon" aria-hidden="true">
                <LineIcon
                  path="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5"
                  strokeWidth={1.3}
                />
                <span className="message__file-kind">{kindLabel(file.mime, file.name) ?? ''}</span>
              </span>
              <span className="message__file-text">
                <span className="message__file-name" dir="auto">
                  {file.name}
                </span>
                <span className="message__file-meta">
                  {kindLabel(file.mime) ?? file.mime} · {formatFileSize(file.size, i18n.language)}
                  <span className="visually-hidden"> · {t('chat.files.downloadCue')}</span>
                </span>
              </span>
              <span className="message__file-download" aria-hidden="true">
                <LineIcon path="M12 4v11m-5-5 5 5 5-5M5 20h14" size={20} />
              </span>
            </a>
          </li>
        ),
      )}
    </ul>
  );
};

/**
 * An own message on its way to the server: shown at once, marked "Sending…" until it is confirmed.
 * Its files show by name only: their links and thumbnails come with the stored message.
 */
export const PendingBubble = ({
  text,
  files = [],
  continued,
}: {
  text: string;
  files?: readonly { id: number; name: string }[];
  continued: boolean;
}) => {
  const { t } = useTranslation();
  return (
    <BubbleFrame
      own
      continued={continued}
      extraClass=" message--pending"
      data-testid="pending-message"
      aria-busy
    >
      <div className="message__bubble">
        {text ? <MessageText text={text} /> : null}
        {files.length > 0 ? (
          <ul className="message__pending-files" data-testid="pending-files">
            {files.map((file) => (
              <li key={file.id} dir="auto">
                {file.name}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="message__status">{t('chat.sending')}</p>
      </div>
    </BubbleFrame>
  );
};
