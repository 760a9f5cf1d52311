import { useTranslation } from 'react-i18next';
import { MESSAGE_MAX_LENGTH } from '../../../lib/contract.js';

/** The characters counted so far near the limit; past it, by how many the message is too long (an alert). */
export const MessageLengthCounter = ({ id, length }: { id: string; length: number }) => {
  const { t } = useTranslation();
  const tooLong = length > MESSAGE_MAX_LENGTH;
  return (
    <p
      className={`chat-footer__counter${tooLong ? ' is-over' : ''}`}
      id={id}
      data-testid="message-counter"
      role={tooLong ? 'alert' : undefined}
    >
      {tooLong
        ? t('chat.tooLong', { count: length - MESSAGE_MAX_LENGTH, max: MESSAGE_MAX_LENGTH })
        : t('chat.counter', { count: length, max: MESSAGE_MAX_LENGTH })}
    </p>
  );
};
