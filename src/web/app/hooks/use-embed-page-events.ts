import type { Embed } from '../../features/embed/hooks/use-embed.js';
import { useEmbedEvents } from '../../features/embed/hooks/use-embed-events.js';

/**
 * What the embedded page tells its host (features/embed): `ready` once its first data is shown —
 * the badge's count; in the conversation mode the conversation, or the notice that it could not be
 * opened (the host hears either way); else the signed-in page — then the unread total.
 */
export const useEmbedPageEvents = ({
  embed,
  signedIn,
  conversationShown,
  unreadTotal,
  onPeerChange,
}: {
  embed: Embed | null;
  signedIn: boolean;
  /** The open conversation, or the notice that it could not be opened, is on the page. */
  conversationShown: boolean;
  unreadTotal: number | undefined;
  /** Another frame of the messenger on the host page saw the total change. */
  onPeerChange: () => void;
}) => {
  const embedMode = embed?.params.mode;
  useEmbedEvents(embed, {
    shown:
      embedMode === 'badge'
        ? unreadTotal !== undefined
        : embedMode === 'conversation'
          ? signedIn && conversationShown
          : signedIn,
    unreadTotal,
    onPeerChange,
  });
};
