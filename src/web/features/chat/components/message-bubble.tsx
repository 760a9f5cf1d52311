import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chat } from '../../../../shared/models.js';
import { formatFullDateTime, formatMessageTime } from '../../../lib/format.js';
import { linkify } from '../utils/linkify.js';

interface MessageBubbleProps {
  chat: Chat;
  own: boolean;
}

/** Own messages on the end side; others on the start side with the sender's name and the time. */
export const MessageBubble = memo(function MessageBubble({ chat, own }: MessageBubbleProps) {
  const { t, i18n } = useTranslation();
  const time = formatMessageTime(chat.created_at, chat.messaging_time, i18n.language);
  return (
    <li
      className={`message ${own ? 'message--own' : 'message--other'}`}
      data-testid="chat-message"
      data-chat-id={chat.id}
    >
      <div className="message__bubble">
        <p className="message__meta">
          {own ? (
            <span className="visually-hidden">{t('chat.you')}</span>
          ) : (
            <span className="message__sender" dir="auto">
              {chat.sender.name}
            </span>
          )}
          <time
            className="message__time"
            dateTime={chat.created_at}
            title={formatFullDateTime(chat.created_at, i18n.language)}
          >
            {time}
          </time>
        </p>
        <p className="message__text" dir="auto">
          {linkify(chat.message).map((part, index) =>
            part.kind === 'link' ? (
              <a
                key={index}
                href={part.href}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="message__link"
              >
                {part.text}
              </a>
            ) : (
              part.text
            ),
          )}
        </p>
      </div>
    </li>
  );
});
