import { useEffect, useRef } from 'react';
import type { Embed } from './use-embed.js';

/**
 * `ready` once the first data is shown, then `unread` {count} right after it and on every change
 * of the viewer's total (the page title's: `unread_total`).
 */
export const useEmbedEvents = (
  embed: Embed | null,
  { shown, unreadTotal }: { shown: boolean; unreadTotal: number | undefined },
): void => {
  const ready = useRef(false);
  const lastCount = useRef<number | null>(null);
  useEffect(() => {
    if (!embed || !shown || ready.current) return;
    ready.current = true;
    embed.bridge.post({ type: 'ready' });
  }, [embed, shown]);
  useEffect(() => {
    if (!embed || !shown || unreadTotal === undefined || lastCount.current === unreadTotal) return;
    lastCount.current = unreadTotal;
    embed.bridge.post({ type: 'unread', count: unreadTotal });
  }, [embed, shown, unreadTotal]);
};
