import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chat } from '../../../shared/models.js';
import { containBidiControls } from '../../../shared/text.js';
import { settingsQueryOptions } from '../../features/settings/api/get-settings.js';
import { useApiClient } from '../../lib/api-provider.js';
import { useLiveEvent } from '../../lib/realtime.js';
import { useServices } from '../../lib/services.js';
import { truncateForNotification } from '../../lib/system-notifications.js';

/**
 * `notify(chat, viewerId)`: a system notification for a live message addressed to the viewer while
 * the tab is hidden, when the browser allows it and the viewer's `browser_notifications` setting is
 * on (fetched the first time it is needed, then the menu's copy). Clicking it focuses the tab and
 * calls `onOpen` with the message (the page opens its conversation).
 */
const useMessageNotifications = (onOpen: (chat: Chat) => void) => {
  const { notifications } = useServices();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const { i18n } = useTranslation();
  const onOpenRef = useRef(onOpen);
  useEffect(() => {
    onOpenRef.current = onOpen;
  });

  return useCallback(
    (chat: Chat, viewerId: number) => {
      if (chat.receiver_id !== viewerId || chat.sender_id === viewerId) return;
      if (document.visibilityState !== 'hidden') return;
      if (notifications.permission() !== 'granted') return;
      queryClient
        .fetchQuery(settingsQueryOptions(client))
        .then((settings) => {
          if (!settings.browser_notifications || document.visibilityState !== 'hidden') return;
          const language = i18n.language;
          // plain text with no <bdi> around it: overrides become isolates, closed on each line
          notifications.show(containBidiControls(chat.sender.name), {
            body: containBidiControls(truncateForNotification(chat.message)),
            tag: `conversation-${chat.messenger_user_id}`,
            lang: language,
            dir: i18n.dir(language) === 'rtl' ? 'rtl' : 'ltr',
            onClick: () => {
              window.focus();
              onOpenRef.current(chat);
            },
          });
        })
        .catch((error: unknown) => console.error('Could not show a notification', error));
    },
    [client, i18n, notifications, queryClient],
  );
};

/**
 * What a live message from someone else tells the viewer: the sound when it is addressed to them
 * and they have not muted it, the screen reader's "New message from …", and a system notification
 * when the tab is hidden (`useMessageNotifications`).
 */
export const useMessageAlerts = ({
  viewerId,
  muted,
  announce,
  onOpenNotification,
}: {
  viewerId: number | undefined;
  muted: boolean;
  announce: (message: string) => void;
  onOpenNotification: (chat: Chat) => void;
}) => {
  const { sound } = useServices();
  const { t } = useTranslation();
  const notify = useMessageNotifications(onOpenNotification);
  useLiveEvent('ChatMessage', ({ chatMessage: chat }) => {
    if (viewerId === undefined) return;
    if (chat.receiver_id === viewerId && !muted) sound.play();
    notify(chat, viewerId);
    if (chat.sender_id !== viewerId)
      announce(t('chat.newMessageFrom', { name: chat.sender.name, message: chat.message }));
  });
};
