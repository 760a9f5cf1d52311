import type { EventBus } from '../lib/event-bus.js';

/**
 * What one module tells the others, after its own write has committed. The emitter names the
 * fact; `createServices` (src/server/services.ts) subscribes the modules that act on it.
 */
export interface ModuleEvents {
  /** Presence: the user's last socket closed on every instance and the grace ran out. */
  userWentOffline: { userId: number };
  /** Settings: the user now shows (or hides) being online. */
  showOnlineChanged: { userId: number; showOnline: boolean };
  /** Integration: the user's name, role or credentials changed (or they were erased). */
  userChanged: { userId: number };
  /** Messenger: a send stored a new message (a replayed client_id is not one) and broadcast it. */
  messageStored: { messageId: number; conversationId: number };
}

export type ModuleEventBus = EventBus<ModuleEvents>;
