import { useEffect, useRef } from 'react';
import type { Embed } from './use-embed.js';

/**
 * The channel on which a host page's frames of the messenger tell each other that the viewer's
 * total changed (they share one session: the same origin inside the same top-level site), so that
 * a badge drops as soon as the inbox beside it reads a conversation. The server tells only the
 * sender of a read; without this the badge would keep its count until the next message.
 */
const PEER_CHANNEL = 'job-messenger-unread';
/** After a peer's change, the total is fetched at once and again after these delays while it differs. */
const PEER_RECHECK_MS = [1000, 3000];

/**
 * `ready` once the first data is shown, then `unread` {count} right after it and on every change
 * of the viewer's total (the page title's: `unread_total`). `onPeerChange` runs when another frame
 * of the messenger on the same host page saw the total change (to fetch it again).
 */
export const useEmbedEvents = (
  embed: Embed | null,
  {
    shown,
    unreadTotal,
    onPeerChange,
  }: { shown: boolean; unreadTotal: number | undefined; onPeerChange?: () => void },
): void => {
  const ready = useRef(false);
  const lastCount = useRef<number | null>(null);
  const channel = useRef<BroadcastChannel | null>(null);
  const peerChange = useRef(onPeerChange);
  useEffect(() => {
    peerChange.current = onPeerChange;
  });
  useEffect(() => {
    if (!embed || typeof BroadcastChannel === 'undefined') return;
    const peers = new BroadcastChannel(PEER_CHANNEL);
    const later = new Set<ReturnType<typeof setTimeout>>();
    peers.onmessage = (event: MessageEvent<unknown>) => {
      const theirs = event.data;
      if (typeof theirs !== 'number' || theirs === lastCount.current) return;
      peerChange.current?.();
      // The other frame's count changes as it opens a conversation, which may be before the server
      // recorded the read: asked again a little later while the two counts still differ.
      for (const delay of PEER_RECHECK_MS) {
        const timer = setTimeout(() => {
          later.delete(timer);
          if (lastCount.current !== theirs) peerChange.current?.();
        }, delay);
        later.add(timer);
      }
    };
    channel.current = peers;
    return () => {
      channel.current = null;
      for (const timer of later) clearTimeout(timer);
      peers.close();
    };
  }, [embed]);
  useEffect(() => {
    if (!embed || !shown || ready.current) return;
    ready.current = true;
    embed.bridge.post({ type: 'ready' });
  }, [embed, shown]);
  useEffect(() => {
    if (!embed || !shown || unreadTotal === undefined || lastCount.current === unreadTotal) return;
    const first = lastCount.current === null;
    lastCount.current = unreadTotal;
    embed.bridge.post({ type: 'unread', count: unreadTotal });
    if (!first) channel.current?.postMessage(unreadTotal);
  }, [embed, shown, unreadTotal]);
};
