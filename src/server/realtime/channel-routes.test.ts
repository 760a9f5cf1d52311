import { describe, expect, it } from 'vitest';
import { ShardedChannelRoutes, type RouteCommands } from './channel-routes.js';

/** Commands that answer only when the test says so, in any order, as a slow broker would. */
const heldCommands = () => {
  const sent: { command: 'subscribe' | 'unsubscribe'; channel: string; answer: () => void }[] = [];
  const commands: RouteCommands = {
    subscribe: (channel) =>
      new Promise((resolve) =>
        sent.push({ command: 'subscribe', channel, answer: () => resolve(1) }),
      ),
    unsubscribe: (channel) =>
      new Promise((resolve) =>
        sent.push({ command: 'unsubscribe', channel, answer: () => resolve(1) }),
      ),
  };
  const answerNext = async () => {
    sent.shift()!.answer();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { sent, commands, answerNext };
};

describe('per-user channel routes', () => {
  it('opens once for the first socket, confirms after the broker answers, and closes after the last', async () => {
    const { sent, commands, answerNext } = heldCommands();
    const routes = new ShardedChannelRoutes(commands);
    routes.open('private-chat.1');
    let confirmed = false;
    void routes.whenOpen('private-chat.1')?.then(() => (confirmed = true));
    expect(sent.map((each) => each.command)).toEqual(['subscribe']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(confirmed).toBe(false);
    await answerNext();
    expect(confirmed).toBe(true);
    expect(routes.whenOpen('private-chat.1')).toBeUndefined();
    expect(routes.activeCount()).toBe(1);
    routes.close('private-chat.1');
    expect(sent.map((each) => each.command)).toEqual(['unsubscribe']);
    await answerNext();
    expect(routes.activeCount()).toBe(0);
  });

  it('ends subscribed when a socket joins while the last one’s unsubscribe is under way', async () => {
    const { sent, commands, answerNext } = heldCommands();
    const routes = new ShardedChannelRoutes(commands);
    routes.open('private-chat.2');
    await answerNext();
    routes.close('private-chat.2');
    routes.open('private-chat.2');
    const confirmed = routes.whenOpen('private-chat.2');
    expect(confirmed).toBeDefined();
    // one command at a time: the subscribe goes out once the unsubscribe is answered
    expect(sent.map((each) => each.command)).toEqual(['unsubscribe']);
    await answerNext();
    expect(sent.map((each) => each.command)).toEqual(['subscribe']);
    await answerNext();
    await confirmed;
    expect(routes.activeCount()).toBe(1);
    expect(sent).toEqual([]);
  });

  it('tries a refused subscribe again, and lets its sockets wait until it is open', async () => {
    const warnings: string[] = [];
    /** Whether the sockets had been confirmed when each refusal was said. */
    const confirmedAtRefusals: boolean[] = [];
    let confirmed = false;
    let refusals = 2;
    let subscribes = 0;
    const routes = new ShardedChannelRoutes(
      {
        subscribe: () => {
          subscribes += 1;
          if (refusals === 0) return Promise.resolve(1);
          refusals -= 1;
          return Promise.reject(new Error("ERR unknown command 'ssubscribe'"));
        },
        unsubscribe: () => Promise.resolve(1),
      },
      {
        info: () => undefined,
        warn: (_details, message) => {
          warnings.push(message ?? '');
          confirmedAtRefusals.push(confirmed);
        },
      },
      5,
    );
    routes.open('private-chat.3');
    await routes.whenOpen('private-chat.3')!.then(() => (confirmed = true));
    expect(subscribes).toBe(3);
    expect(routes.activeCount()).toBe(1);
    expect(confirmedAtRefusals).toEqual([false, false]);
    expect(warnings[0]).toMatch(/could not open a channel's route/);
  });

  it('lets the waiting sockets go when the channel is left while its subscribe is refused', async () => {
    const routes = new ShardedChannelRoutes(
      {
        subscribe: () => Promise.reject(new Error('NOPERM')),
        unsubscribe: () => Promise.resolve(1),
      },
      undefined,
      60_000,
    );
    routes.open('private-chat.4');
    const waiting = routes.whenOpen('private-chat.4');
    await new Promise((resolve) => setImmediate(resolve));
    routes.close('private-chat.4');
    await waiting;
    expect(routes.activeCount()).toBe(0);
  });
});
