import { describe, expect, it } from 'vitest';
import { createEventBus } from './event-bus.js';

interface TestEvents {
  greeted: { name: string };
  left: { id: number };
}

describe('event bus', () => {
  it('runs every handler of the event, in the order they subscribed, before emit resolves', async () => {
    const bus = createEventBus<TestEvents>();
    const seen: string[] = [];
    bus.on('greeted', async ({ name }) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(`first ${name}`);
    });
    bus.on('greeted', ({ name }) => {
      seen.push(`second ${name}`);
    });
    bus.on('left', () => {
      seen.push('left');
    });
    await bus.emit('greeted', { name: 'Sara' });
    expect(seen).toEqual(['first Sara', 'second Sara']);
  });

  it('hands a failing handler’s error to the emitter', async () => {
    const bus = createEventBus<TestEvents>();
    bus.on('left', () => {
      throw new Error('could not forget');
    });
    await expect(bus.emit('left', { id: 1 })).rejects.toThrow('could not forget');
  });

  it('does nothing for an event nobody subscribed to', async () => {
    const bus = createEventBus<TestEvents>();
    await expect(bus.emit('left', { id: 1 })).resolves.toBeUndefined();
  });
});
