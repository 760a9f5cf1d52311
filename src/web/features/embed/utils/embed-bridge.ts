import { EMBED_SOURCE, type FrameMessage } from '../../../../shared/embed-protocol.js';
import type { HostMessageData } from '../../../../shared/embed.js';

/** A message to the host, without its `source` (the bridge adds it). */
export type FrameMessageBody = FrameMessage extends infer M
  ? M extends FrameMessage
    ? Omit<M, 'source'>
    : never
  : never;

export interface EmbedBridge {
  /** Posts to the host page (its origin only); nothing when the page is not in a frame. */
  post(message: FrameMessageBody): void;
  /**
   * The host's `open` messages (checked: its origin, its window, the schema), in the order they
   * came; the first waits for the schema's code (zod, loaded on the first listener).
   */
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
 * The schema (src/shared/embed.ts, with zod) is imported on the first `onOpen`: a page that is not
 * in a frame never needs it, and zod stays out of the page's first scripts (docs/performance.md).
 */
export const createEmbedBridge = (
  hostOrigin: string,
  windows: BridgeWindows = { self: window, parent: window.parent },
): EmbedBridge => {
  const { self, parent } = windows;
  let schema: Promise<(typeof import('../../../../shared/embed.js'))['hostMessageSchema']> | null =
    null;
  const loadSchema = () =>
    (schema ??= import('../../../../shared/embed.js').then((module) => module.hostMessageSchema));
  return {
    post(message) {
      if (parent === self) return;
      parent.postMessage({ ...message, source: EMBED_SOURCE }, hostOrigin);
    },
    onOpen(listener) {
      if (parent === self) return () => undefined;
      const schemaLoaded = loadSchema();
      let listening = true;
      const onMessage = (event: MessageEvent) => {
        if (event.origin !== hostOrigin || event.source !== parent) return;
        const data: unknown = event.data;
        // one promise for every message: its callbacks run in the order the messages came
        void schemaLoaded.then(
          (hostMessageSchema) => {
            const parsed = hostMessageSchema.safeParse(data);
            if (listening && parsed.success) listener(parsed.data);
          },
          (error: unknown) => console.error('The embedding messages could not be loaded', error),
        );
      };
      self.addEventListener('message', onMessage);
      return () => {
        listening = false;
        self.removeEventListener('message', onMessage);
      };
    },
  };
};
