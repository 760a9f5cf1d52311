import type { EmbedBridge } from './embed-bridge.js';

/** Whether the embedded page's session has ended (a 401): the page then says so, and stays. */
export interface EmbedSession {
  readonly ended: () => boolean;
  /** The first call posts `signin-required` to the host; later ones change nothing. */
  end: () => void;
  subscribe: (listener: () => void) => () => void;
}

export const createEmbedSession = (bridge: EmbedBridge): EmbedSession => {
  let ended = false;
  const listeners = new Set<() => void>();
  return {
    ended: () => ended,
    end() {
      if (ended) return;
      ended = true;
      bridge.post({ type: 'signin-required' });
      listeners.forEach((listener) => listener());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
