import { useTranslation } from 'react-i18next';
import { LineIcon } from '../../../components/line-icon.js';

/** Shown while no conversation is selected (as tall as the chat would be). */
export const ChatPlaceholder = () => {
  const { t } = useTranslation();
  return (
    <div className="chat-placeholder" data-testid="chat-placeholder">
      <LineIcon
        path="M10 14h44a4 4 0 0 1 4 4v24a4 4 0 0 1-4 4H28l-10 8v-8h-8a4 4 0 0 1-4-4V18a4 4 0 0 1 4-4zM20 27h24M20 34h16"
        viewSize={64}
        size={64}
        strokeWidth={3}
      />
      <h2 className="chat-placeholder__title">{t('chat.placeholderTitle')}</h2>
      <p className="chat-placeholder__text">{t('chat.placeholderText')}</p>
      <p className="chat-placeholder__hint">{t('chat.placeholderHint')}</p>
    </div>
  );
};
