import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmbedBridge } from './embed-bridge.js';
import { createEmbedSession } from './embed-session.js';

const H = 'https://jobs.example';

const parentWindow = () => {
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  const parent = frame.contentWindow!;
  return {
    parent,
    postMessage: vi.spyOn(parent, 'postMessage').mockImplementation(() => undefined),
  };
};

const send = (data: unknown, origin: string, source: Window | null) =>
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));

const open = { source: 'job-messenger', type: 'open', company: 'acme', candidate: 'c-1' };

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the frame’s bridge', () => {
  it('posts to the host origin only, and nothing when not in a frame', () => {
    const { parent, postMessage } = parentWindow();
    createEmbedBridge(H, { self: window, parent }).post({ type: 'unread', count: 4 });
    expect(postMessage).toHaveBeenCalledExactlyOnceWith(
      { source: 'job-messenger', type: 'unread', count: 4 },
      H,
    );
    const own = vi.spyOn(window, 'postMessage');
    createEmbedBridge(H, { self: window, parent: window }).post({ type: 'ready' });
    expect(own).not.toHaveBeenCalled();
    own.mockRestore();
  });

  it('accepts open from the host origin and the parent window only, as the schema says', async () => {
    const { parent } = parentWindow();
    const listener = vi.fn();
    const stop = createEmbedBridge(H, { self: window, parent }).onOpen(listener);
    send(open, 'https://evil.example', parent);
    send(open, H, window);
    send(open, H, null);
    send({ ...open, source: 'other' }, H, parent);
    send({ ...open, type: 'close' }, H, parent);
    send({ ...open, candidate: '' }, H, parent);
    send('open', H, parent);
    send({ ...open, job: 'j-1' }, H, parent);
    send({ ...open, candidate: 'c-2' }, H, parent);
    // the schema's code is loaded on the first listener: the valid ones, in the order they came
    await vi.waitFor(() => expect(listener).toHaveBeenCalledTimes(2));
    expect(listener.mock.calls).toEqual([
      [{ ...open, job: 'j-1' }],
      [{ ...open, candidate: 'c-2' }],
    ]);
    send(open, H, parent);
    stop();
    send(open, H, parent);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('listens to nothing when not in a frame (the parent is the page itself)', () => {
    const listener = vi.fn();
    createEmbedBridge(H, { self: window, parent: window }).onOpen(listener);
    send(open, H, window);
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('the embedded session', () => {
  it('posts signin-required once, however many 401s', () => {
    const { parent, postMessage } = parentWindow();
    const session = createEmbedSession(createEmbedBridge(H, { self: window, parent }));
    const changed = vi.fn();
    session.subscribe(changed);
    expect(session.ended()).toBe(false);
    session.end();
    session.end();
    expect(session.ended()).toBe(true);
    expect(changed).toHaveBeenCalledOnce();
    expect(postMessage).toHaveBeenCalledExactlyOnceWith(
      { source: 'job-messenger', type: 'signin-required' },
      H,
    );
  });
});
