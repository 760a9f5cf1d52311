import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { EmbedBridge } from '../utils/embed-bridge.js';
import type { EmbedSession } from '../utils/embed-session.js';
import type { FrameParams } from '../utils/frame-params.js';

/** The embedded page's parameters, its line to the host and its session's state. */
export interface Embed {
  params: FrameParams;
  bridge: EmbedBridge;
  session: EmbedSession;
}

const EmbedContext = createContext<Embed | null>(null);

export const EmbedProvider = ({
  embed,
  children,
}: {
  embed: Embed | null;
  children: ReactNode;
}) => <EmbedContext.Provider value={embed}>{children}</EmbedContext.Provider>;

/** The embedding, or null on the messenger's own page. */
export const useEmbed = (): Embed | null => useContext(EmbedContext);

const never = () => () => undefined;

/** Whether the session has ended (always false when not embedded). */
export const useSessionEnded = (embed: Embed | null): boolean =>
  useSyncExternalStore(
    embed ? embed.session.subscribe : never,
    () => embed?.session.ended() ?? false,
  );
