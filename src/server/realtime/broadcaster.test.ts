import { describe, expect, it } from 'vitest';
import { ExternalBroadcaster, prepareEvent } from './broadcaster.js';

describe('prepareEvent', () => {
  it('serializes data once and dedupes channels', () => {
    expect(prepareEvent(['a', 'b', 'a'], 'e', { chatMessage: { id: 1 } }, '1.2')).toEqual({
      channels: ['a', 'b'],
      event: 'e',
      data: '{"chatMessage":{"id":1}}',
      exceptSocketId: '1.2',
    });
  });

  it('refuses bad channels and events, and ignores a malformed socket id', () => {
    expect(() => prepareEvent([], 'e', 1)).toThrow();
    expect(() => prepareEvent(['bad name'], 'e', 1)).toThrow();
    expect(() => prepareEvent(['a'], '', 1)).toThrow();
    expect(prepareEvent(['a'], 'e', 1, 'garbage')).toEqual({
      channels: ['a'],
      event: 'e',
      data: '1',
    });
  });
});

describe('ExternalBroadcaster', () => {
  it('triggers through the pusher client one publish after another, in order', async () => {
    const calls: unknown[][] = [];
    const pending: (() => void)[] = [];
    const client = {
      trigger: (...args: unknown[]) => {
        calls.push(args);
        return new Promise<never>((resolve) => pending.push(() => resolve(undefined as never)));
      },
    };
    const broadcaster = new ExternalBroadcaster(client as never);
    const first = broadcaster.publish(
      ['private-chat.1'],
      'App\\Events\\ChatMessage',
      { n: 1 },
      '1.2',
    );
    const second = broadcaster.publish(['private-chat.1'], 'App\\Events\\ChatMessage', { n: 2 });
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual([
      ['private-chat.1'],
      'App\\Events\\ChatMessage',
      '{"n":1}',
      { socket_id: '1.2' },
    ]);
    pending.shift()!();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual([
      ['private-chat.1'],
      'App\\Events\\ChatMessage',
      '{"n":2}',
      undefined,
    ]);
    pending.shift()!();
    await second;
  });

  it('rejects a failed trigger and keeps going', async () => {
    let n = 0;
    const client = {
      trigger: async () => {
        n += 1;
        if (n === 1) throw new Error('down');
        return undefined as never;
      },
    };
    const broadcaster = new ExternalBroadcaster(client as never);
    await expect(broadcaster.publish(['a'], 'e', 1)).rejects.toThrow('down');
    await expect(broadcaster.publish(['a'], 'e', 2)).resolves.toBeUndefined();
  });
});
