import { vi } from 'vitest';
import type { Chat } from '../../shared/models.js';
import type { ConnectRealtime, RealtimeConnection } from '../lib/realtime.js';

/** A live connection the test drives: `emit` a ChatMessage, `reconnect` after a drop. */
export const createFakeRealtime = () => {
  const chatHandlers = new Set<(chat: Chat) => void>();
  const reconnectHandlers = new Set<() => void>();
  const listenedUserIds: number[] = [];
  const connection: RealtimeConnection = {
    socketId: () => '1234.5678',
    listenForChatMessages: (userId, handler) => {
      listenedUserIds.push(userId);
      chatHandlers.add(handler);
      return () => chatHandlers.delete(handler);
    },
    onReconnected: (handler) => {
      reconnectHandlers.add(handler);
      return () => reconnectHandlers.delete(handler);
    },
    disconnect: vi.fn(),
  };
  const connect: ConnectRealtime = vi.fn(async () => connection);
  return {
    connect,
    connection,
    listenedUserIds,
    get listening() {
      return chatHandlers.size > 0;
    },
    emit: (chat: Chat) => chatHandlers.forEach((handler) => handler(chat)),
    reconnect: () => reconnectHandlers.forEach((handler) => handler()),
  };
};

export type FakeRealtime = ReturnType<typeof createFakeRealtime>;
