import { EMBED_SOURCE, type FrameMessage } from '../../../../shared/embed-protocol.js';
import { hostMessageSchema, type HostMessageData } from '../../../../shared/embed.js';

/** A message to the host, without its `source` (the bridge adds it). */
export type FrameMessageBody = FrameMessage extends infer M
  ? M extends FrameMessage
    ? Omit<M, 'source'>
    : never
  : never;

export interface EmbedBridge {
  /** Posts to the host page (its origin only); nothing when the page is not in a frame. */
  post(message: FrameMessageBody): void;
  /** The host's `open` messages (checked: its origin, its window, the schema). */
  onOpen(listener: (message: HostMessageData) => void): () => void;
}

interface BridgeWindows {
  /** This page's window (listened to). */
  self: Window;
  /** The embedding page's window (posted to; the only accepted source). */
  parent: Window;
}

/**
 * The frame's side of the postMessage protocol. The server's CSP says `frame-ancestors <host
 * origin>` for this page, so the embedding page is that origin: the frame posts with it as
 * targetOrigin and accepts only messages whose origin is it and whose source is the parent window.
 */
export const createEmbedBridge = (
  hostOrigin: string,
  windows: BridgeWindows = { self: window, parent: window.parent },
): EmbedBridge => {
  const { self, parent } = windows;
  return {
    post(message) {
      if (parent === self) return;
      parent.postMessage({ ...message, source: EMBED_SOURCE }, hostOrigin);
    },
    onOpen(listener) {
      const onMessage = (event: MessageEvent) => {
        if (event.origin !== hostOrigin || event.source !== parent || parent === self) return;
        const parsed = hostMessageSchema.safeParse(event.data);
        if (parsed.success) listener(parsed.data);
      };
      self.addEventListener('message', onMessage);
      return () => self.removeEventListener('message', onMessage);
    },
  };
};
