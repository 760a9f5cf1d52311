import type { MouseEvent, RefObject } from 'react';
import { useTranslation } from 'react-i18next';

/** The chat area: the skip link's target. */
export const MAIN_ID = 'messages-main';

/**
 * The skip link: to the open conversation's message box when it takes input, else to the chat
 * area (`main`).
 */
export const SkipToChatLink = ({
  main,
  conversationOpen,
}: {
  main: RefObject<HTMLElement | null>;
  conversationOpen: boolean;
}) => {
  const { t } = useTranslation();
  const skipToChat = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const composer = main.current?.querySelector<HTMLTextAreaElement>('textarea:enabled');
    (composer ?? main.current)?.focus();
  };
  return (
    <a className="skip-link" href={`#${MAIN_ID}`} onClick={skipToChat}>
      {conversationOpen ? t('app.skipToMessageBox') : t('app.skipToConversation')}
    </a>
  );
};
