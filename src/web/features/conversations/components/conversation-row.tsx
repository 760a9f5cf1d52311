import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessengerUser, Role } from '../../../../shared/models.js';
import { hasBidiControl, isolateBidiControls } from '../../../../shared/text.js';
import { Avatar } from '../../../components/avatar.js';
import { formatRelativeTime, shownName } from '../../../lib/format.js';
import { otherPartyOf } from '../utils/conversation-view.js';

interface ConversationRowProps {
  item: MessengerUser;
  /** The viewer's role: whose name and picture the row shows (props stay equal while scrolling, so rows are not drawn again). */
  viewerRole: Role;
  selected: boolean;
  archived: boolean;
  index: number;
  /** The list's one Tab stop (roving tabindex): this row and its archive button are in the Tab order. */
  tabStop: boolean;
  now: number;
  onSelect: (item: MessengerUser) => void;
  onToggleArchive: (item: MessengerUser, archive: boolean) => void;
}

/**
 * One conversation: the row itself is a button named by what it shows (name, unread count, time, job,
 * preview: the visible text is the accessible name, WCAG 2.5.3); the archive button sits beside it, not
 * inside it. Only the list's current row (`tabStop`) and its archive button are in the Tab order.
 */
export const ConversationRow = memo(function ConversationRow({
  item,
  viewerRole,
  selected,
  archived,
  index,
  tabStop,
  now,
  onSelect,
  onToggleArchive,
}: ConversationRowProps) {
  const { t, i18n } = useTranslation();
  const party = otherPartyOf(item, viewerRole);
  const name = shownName(party.name, () => t('app.deletedUser'));
  const unread = item.is_seen_messages_count;
  const unreadText = unread > 0 ? t('conversations.unread', { count: unread }) : null;
  const when =
    formatRelativeTime(item.last_message_at, i18n.language, now) ?? item.last_message_time;
  const nameId = `conversation-${item.id}-name`;

  return (
    <div className={`conversation-item${selected ? ' is-selected' : ''}`}>
      <button
        type="button"
        className="conversation-row"
        data-testid="conversation-row"
        data-conversation-id={item.id}
        data-index={index}
        tabIndex={tabStop ? 0 : -1}
        aria-current={selected ? 'true' : undefined}
        onClick={() => onSelect(item)}
      >
        <span className="conversation-row__avatar">
          <Avatar name={name} imageUrl={party.imageUrl} defer />
          {item.other_online ? (
            <span className="online-marker" data-testid="online-marker" aria-hidden="true" />
          ) : null}
        </span>
        <span className="conversation-row__body">
          <span className="conversation-row__top">
            <span
              className="conversation-row__name truncate"
              id={nameId}
              dir="auto"
              aria-hidden={unreadText ? true : undefined}
            >
              {name}
            </span>
            {unreadText ? (
              // read in place of the name: "Sara Haddad, 2 unread", then what the row shows
              <span className="visually-hidden" dir="auto">
                {t('conversations.rowNameUnread', { name, unread: unreadText })}
              </span>
            ) : null}
            {item.blocked === true ? (
              // the visible word is the row's accessible text too ("Sara Haddad Blocked …")
              <span className="blocked-badge" data-testid="blocked-badge">
                {t('conversations.blocked')}
              </span>
            ) : null}
            {when ? <span className="conversation-row__time">{when}</span> : null}
          </span>
          <span className="conversation-row__details">
            <span
              className={`conversation-row__job truncate${party.jobTitle ? '' : ' is-none'}`}
              dir="auto"
            >
              {party.jobTitle || t('conversations.noTitle')}
            </span>
            <span className="conversation-row__last">
              <span className="conversation-row__preview truncate" dir="auto">
                {item.last_message === null ? (
                  t('conversations.noMessagesYet')
                ) : hasBidiControl(item.last_message) ? (
                  // as in the bubble: overrides become isolates, closed by the <bdi>
                  <bdi>{isolateBidiControls(item.last_message)}</bdi>
                ) : (
                  item.last_message
                )}
              </span>
              {unread > 0 ? (
                <span className="unread-badge" data-testid="unread-badge" aria-hidden="true">
                  {unread > 99 ? '99+' : unread}
                </span>
              ) : null}
            </span>
          </span>
        </span>
      </button>
      <button
        type="button"
        className="conversation-item__archive icon-button"
        aria-label={archived ? t('conversations.unarchive') : t('conversations.archive')}
        aria-describedby={nameId}
        tabIndex={tabStop ? 0 : -1}
        title={archived ? t('conversations.unarchive') : t('conversations.archive')}
        onClick={() => onToggleArchive(item, !archived)}
      >
        <svg
          viewBox="0 0 24 24"
          width="16"
          height="16"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
          focusable="false"
        >
          <rect x="3" y="4" width="18" height="4" rx="1" />
          <path d="M5 8v10a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8" />
          <path
            d={archived ? 'M12 17v-6m-2.5 2.5L12 11l2.5 2.5' : 'M12 11v6m-2.5-2.5L12 17l2.5-2.5'}
          />
        </svg>
      </button>
    </div>
  );
});
