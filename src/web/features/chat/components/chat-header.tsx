import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Job, Receiver, Role } from '../../../../shared/models.js';
import { Avatar } from '../../../components/avatar.js';
import { formatDeadline, formatRelativeTime, shownName } from '../../../lib/format.js';
import { LineIcon } from '../../../components/line-icon.js';

interface ChatHeaderProps {
  viewerRole: Role;
  receiver: Receiver | null;
  job: Job | null;
  applicationGroup: { id: number; name: string } | null;
  /** While loading: the name from the list row, so the header doesn't jump. */
  fallbackName: string;
  fallbackImageUrl: string | null;
  headingId: string;
  /** Small screens: a back arrow that returns to the conversation list. */
  onBack?: (() => void) | undefined;
  /** The other party is online now (and shows it). */
  online: boolean;
  /** When they were last online (null: online, hidden or never seen). */
  lastSeenAt: string | null;
  /** At the header's end: what the viewer can do with the conversation (its menu). */
  actions?: ReactNode;
}

/** True once the deadline's day is over, in the viewer's calendar. */
const isPastDeadline = (deadline: string, now = new Date()): boolean => {
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return deadline.slice(0, 10) < today;
};

/** Job title (or 'No Title'), active/inactive badge, deadline; the other party's logo or photo and name. */
export const ChatHeader = ({
  viewerRole,
  receiver,
  job,
  applicationGroup,
  fallbackName,
  fallbackImageUrl,
  headingId,
  onBack,
  online,
  lastSeenAt,
  actions,
}: ChatHeaderProps) => {
  const { t, i18n } = useTranslation();
  const isCandidateViewer = viewerRole === 'candidate';
  const name = shownName(receiver?.user.name ?? fallbackName, () => t('app.deletedUser'));
  const imageUrl = receiver
    ? isCandidateViewer
      ? receiver.logo
      : receiver.user.image_url
    : fallbackImageUrl;
  const active = job?.status === 'active';

  return (
    <header className="chat-header">
      <div className="chat-header__party">
        {onBack ? (
          <button
            type="button"
            className="icon-button chat-header__back"
            data-testid="back-to-list"
            title={t('chat.backToList')}
            onClick={onBack}
          >
            <LineIcon path="M15 5l-7 7 7 7" />
            <span className="visually-hidden">{t('chat.backToList')}</span>
          </button>
        ) : null}
        <Avatar name={name} imageUrl={imageUrl ?? null} size="lg" />
        <div className="chat-header__party-text">
          <p className="chat-header__name truncate" dir="auto">
            {name}
          </p>
          <p className="chat-header__presence" data-testid="presence-status" aria-live="polite">
            {online
              ? t('chat.online')
              : lastSeenAt
                ? t('chat.lastSeen', {
                    when: formatRelativeTime(lastSeenAt, i18n.language, Date.now()) ?? '',
                  })
                : ''}
          </p>
          {!isCandidateViewer && applicationGroup ? (
            <p className="chat-header__group truncate" dir="auto">
              {t('chat.applicationGroup', { name: applicationGroup.name })}
            </p>
          ) : null}
        </div>
      </div>
      {/* after the job on wide screens, beside the name on narrow ones (chat.css) */}
      {actions ? <div className="chat-header__actions">{actions}</div> : null}
      <div className="chat-header__job">
        <h2
          className={`chat-header__title truncate${job?.title ? '' : ' is-none'}`}
          id={headingId}
          dir="auto"
        >
          {job?.title || t('chat.noTitle')}
        </h2>
        <div className="chat-header__meta">
          {job ? (
            <span
              className={`status-badge ${active ? 'status-badge--active' : 'status-badge--inactive'}`}
            >
              {active ? t('chat.active') : t('chat.inactive')}
            </span>
          ) : null}
          {job?.deadline ? (
            <span className="chat-header__deadline">
              {/* A past deadline or a closed job is never said to "expire in" the past. */}
              {active && !isPastDeadline(job.deadline)
                ? t('chat.jobExpiresIn')
                : t('chat.jobExpiredOn')}{' '}
              <time dateTime={job.deadline}>{formatDeadline(job.deadline, i18n.language)}</time>
            </span>
          ) : null}
        </div>
      </div>
    </header>
  );
};
