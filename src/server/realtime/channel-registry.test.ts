import { describe, expect, it } from 'vitest';
import { ChannelRegistry, type Subscriber } from './channel-registry.js';

const socket = (id: string): Subscriber => ({ id, send: () => undefined });

describe('ChannelRegistry', () => {
  it('tracks subscribers and forgets empty channels', () => {
    const registry = new ChannelRegistry<Subscriber>();
    const a = socket('1.1');
    registry.add('news', a);
    expect(registry.isSubscribed('news', a)).toBe(true);
    expect(registry.subscribers('news')?.size).toBe(1);
    registry.remove('news', a);
    expect(registry.subscribers('news')).toBeUndefined();
    expect(registry.channelCount()).toBe(0);
  });

  it('adds a presence member once per user and removes it with its last socket', () => {
    const registry = new ChannelRegistry<Subscriber>();
    const [a1, a2, b] = [socket('1.1'), socket('1.2'), socket('2.1')];
    expect(registry.addPresence('presence-room', a1, '1', { name: 'A' })).toEqual({ added: true });
    expect(registry.addPresence('presence-room', a2, '1', { name: 'A' })).toEqual({ added: false });
    expect(registry.addPresence('presence-room', b, '2', undefined)).toEqual({ added: true });
    expect(registry.presenceSnapshot('presence-room')).toEqual({
      presence: { ids: ['1', '2'], hash: { '1': { name: 'A' }, '2': null }, count: 2 },
    });
    expect(registry.remove('presence-room', a1, '1')).toEqual({});
    expect(registry.remove('presence-room', a2, '1')).toEqual({ removedUserId: '1' });
    expect(registry.presenceSnapshot('presence-room').presence.count).toBe(1);
    expect(registry.remove('presence-room', b, '2')).toEqual({ removedUserId: '2' });
    expect(registry.presenceSnapshot('presence-room')).toEqual({
      presence: { ids: [], hash: {}, count: 0 },
    });
    expect(registry.channelCount()).toBe(0);
  });
});
