import { useEffect, useRef, useState } from 'react';
import type { EmbedConversationRef } from '../../../shared/embed-protocol.js';
import type { AuthUser, MessengerUser } from '../../../shared/models.js';
import { getEmbedConversation } from '../../features/embed/api/get-embed-conversation.js';
import { openEmbedConversation } from '../../features/embed/api/open-embed-conversation.js';
import type { Embed } from '../../features/embed/hooks/use-embed.js';
import { useApiClient } from '../../lib/api-provider.js';

/**
 * The embedded page and its host: the conversation mode opens the conversation of its host ids,
 * the host's `open` opens another (inbox: selects it; conversation: switches; badge: ignored), and
 * each conversation opened is told to the host (`conversation`, with its host ids: from the
 * opening's answer, else asked of the server). `failed`: the last opening was refused (or the
 * conversation mode was given no ids).
 */
export const useEmbedHost = ({
  embed,
  auth,
  openId,
  selectFromHost,
}: {
  embed: Embed | null;
  auth: AuthUser | undefined;
  openId: number | undefined;
  selectFromHost: (item: MessengerUser) => void;
}): { failed: boolean } => {
  const client = useApiClient();
  const [failed, setFailed] = useState(false);
  const refs = useRef(new Map<number, EmbedConversationRef>());
  const selectRef = useRef(selectFromHost);
  selectRef.current = selectFromHost;
  const mode = embed?.params.mode;
  const signedIn = auth !== undefined;

  useEffect(() => {
    if (!embed || !signedIn || mode === 'badge') return;
    let current = true;
    // only the latest opening's answer counts: two quick ones may be answered out of order
    let latest = 0;
    const open = (ids: { company: string; candidate: string; job?: string | null }) => {
      const request = ++latest;
      const isLatest = () => current && request === latest;
      openEmbedConversation(client, {
        company: ids.company,
        candidate: ids.candidate,
        job: ids.job ?? null,
      }).then(
        ({ messengerUser, conversation }) => {
          refs.current.set(conversation.id, conversation);
          if (!isLatest()) return;
          setFailed(false);
          selectRef.current(messengerUser);
        },
        () => {
          if (isLatest()) setFailed(true);
        },
      );
    };
    const wanted = embed.params.conversation;
    if (mode === 'conversation' && wanted) open(wanted);
    const stop = embed.bridge.onOpen(open);
    return () => {
      current = false;
      stop();
    };
  }, [client, embed, mode, signedIn]);

  useEffect(() => {
    if (!embed || openId === undefined || mode === 'badge') return;
    const post = (ref: EmbedConversationRef) => embed.bridge.post({ type: 'conversation', ...ref });
    const known = refs.current.get(openId);
    if (known) {
      post(known);
      return;
    }
    let current = true;
    getEmbedConversation(client, openId).then(
      ({ conversation }) => {
        refs.current.set(conversation.id, conversation);
        if (current) post(conversation);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, embed, mode, openId]);

  // a conversation mode without its ids has nothing to open
  return { failed: failed || (mode === 'conversation' && embed?.params.conversation === null) };
};
