import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmbedBridge } from '../features/embed/utils/embed-bridge.js';
import { createEmbedSession } from '../features/embed/utils/embed-session.js';
import { readFrameParams } from '../features/embed/utils/frame-params.js';
import type { Embed } from '../features/embed/hooks/use-embed.js';
import { createApiClient } from '../lib/api-client.js';
import { axeViolations } from '../../../test-support/web/axe.js';
import { hostIdOf } from '../../../test-support/web/fake-api.js';
import { candidateScenario, makeChat, users } from '../../../test-support/web/fixtures.js';
import {
  messageTexts,
  renderMessagesPage,
  rowFor,
} from '../../../test-support/web/render-messages-page.js';

const H = 'https://jobs.example';

/** The host page's window: a frame's, so that it can be a message's source. */
const hostWindow = () => {
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  const parent = frame.contentWindow!;
  const postMessage = vi.spyOn(parent, 'postMessage').mockImplementation(() => undefined);
  return { parent, postMessage };
};

const embedded = (query: string) => {
  const host = hostWindow();
  const params = readFrameParams(`?host_origin=${encodeURIComponent(H)}&${query}`)!;
  const bridge = createEmbedBridge(H, { self: window, parent: host.parent });
  const embed: Embed = { params, bridge, session: createEmbedSession(bridge) };
  /** What the frame posted to the host, each with its target origin. */
  const posted = () => host.postMessage.mock.calls.map(([data, origin]) => ({ data, origin }));
  const types = () => posted().map(({ data }) => (data as { type: string }).type);
  const fromHost = (data: unknown, origin = H, source: Window | null = host.parent) =>
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
    });
  return { embed, host, posted, types, fromHost };
};

const acmeRef = {
  id: 1,
  company_external_id: hostIdOf(users.acme.id),
  candidate_external_id: hostIdOf(users.sara.id),
  job_external_id: hostIdOf(100, 'job'),
};

afterEach(() => {
  document.querySelectorAll('iframe').forEach((frame) => frame.remove());
});

describe('the embedded inbox', () => {
  it('posts ready once the list is shown, unread right after and on every change, to the host origin only', async () => {
    const frame = embedded('embed=inbox');
    const page = await renderMessagesPage({ embed: frame.embed });
    await waitFor(() => expect(frame.types()).toEqual(['ready', 'unread']));
    expect(frame.posted()).toEqual([
      { data: { source: 'job-messenger', type: 'ready' }, origin: H },
      { data: { source: 'job-messenger', type: 'unread', count: 2 }, origin: H },
    ]);

    // a message arrives in Nile's conversation: the total goes up
    const nile = page.fake.state.conversations.find((item) => item.id === 2)!;
    const chat = makeChat(nile, users.nile, 'One more thing', { id: 7201 });
    page.fake.receive(chat);
    act(() => page.realtime.emit(chat));
    await waitFor(() =>
      expect(frame.posted().at(-1)?.data).toEqual({
        source: 'job-messenger',
        type: 'unread',
        count: 3,
      }),
    );
    expect(frame.types().filter((type) => type === 'ready')).toHaveLength(1);
    expect(page.navigate).not.toHaveBeenCalled();
  });

  it('asks for the total again when another frame on the host page saw it change (the badge beside an inbox)', async () => {
    const frame = embedded('embed=inbox');
    const page = await renderMessagesPage({ embed: frame.embed });
    await waitFor(() => expect(frame.types()).toEqual(['ready', 'unread']));
    // read elsewhere (another frame of the same session): the server's total is 0 now
    for (const item of page.fake.state.conversations) item.is_seen_messages_count = 0;
    const peer = new BroadcastChannel('job-messenger-unread');
    try {
      peer.postMessage(0);
      await waitFor(() =>
        expect(frame.posted().at(-1)?.data).toEqual({
          source: 'job-messenger',
          type: 'unread',
          count: 0,
        }),
      );
    } finally {
      peer.close();
    }
  });

  it('tells the host which conversation is opened, with its host ids', async () => {
    const frame = embedded('embed=inbox');
    const page = await renderMessagesPage({ embed: frame.embed });
    const entries = history.length;
    await page.user.click(rowFor('Acme Robotics'));
    await waitFor(() =>
      expect(frame.posted().map(({ data }) => data)).toContainEqual({
        source: 'job-messenger',
        type: 'conversation',
        ...acmeRef,
      }),
    );
    expect(page.api.getEmbedConversation).toHaveBeenCalledWith(1);
    // the frame shares the host page's history: opening adds no entry to it
    expect(history.length).toBe(entries);
    expect(new URLSearchParams(location.search).get('tab')).toBe('1');
    // opening it read its two messages
    await waitFor(() =>
      expect(frame.posted().map(({ data }) => data)).toContainEqual({
        source: 'job-messenger',
        type: 'unread',
        count: 0,
      }),
    );
  });

  it('opens what the host asks, from its origin and its window only', async () => {
    const frame = embedded('embed=inbox');
    const page = await renderMessagesPage({ embed: frame.embed });
    const open = {
      source: 'job-messenger',
      type: 'open',
      company: 'user-11',
      candidate: 'user-1',
      job: 'job-101',
    };
    frame.fromHost(open, 'https://evil.example');
    frame.fromHost(open, H, window);
    frame.fromHost({ ...open, source: 'someone' });
    frame.fromHost({ ...open, company: 42 });
    await act(async () => undefined);
    expect(page.api.openEmbedConversation).not.toHaveBeenCalled();

    frame.fromHost(open);
    await waitFor(() => expect(messageTexts()).toContain('The role is closed, sorry.'));
    expect(page.api.openEmbedConversation).toHaveBeenCalledExactlyOnceWith({
      company: 'user-11',
      candidate: 'user-1',
      job: 'job-101',
    });
    await waitFor(() =>
      expect(frame.posted().map(({ data }) => data)).toContainEqual(
        expect.objectContaining({ type: 'conversation', id: 2 }),
      ),
    );
    // its host ids came with the opening: nothing more to ask
    expect(page.api.getEmbedConversation).not.toHaveBeenCalled();
  });
});

describe('the embedded conversation', () => {
  it('opens the conversation of its host ids and shows only its chat and composer', async () => {
    const frame = embedded('embed=conversation&company=user-10&candidate=user-1&job=job-100');
    const page = await renderMessagesPage({ embed: frame.embed });
    await waitFor(() => expect(messageTexts()).toContain('Can you do an interview on Monday?'));
    expect(page.api.openEmbedConversation).toHaveBeenCalledWith({
      company: 'user-10',
      candidate: 'user-1',
      job: 'job-100',
    });
    const main = screen.getByRole('main');
    expect(within(main).getByRole('textbox', { name: 'Message' })).toBeEnabled();
    expect(screen.queryByTestId('conversation-list')).not.toBeInTheDocument();
    expect(screen.queryByTestId('conversation-row')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Back to conversations' })).not.toBeInTheDocument();
    expect(document.querySelector('.topbar')).toBeNull();
    expect(await axeViolations(page.container)).toEqual([]);

    await waitFor(() => expect(frame.types()).toContain('ready'));
    expect(frame.posted().map(({ data }) => data)).toContainEqual({
      source: 'job-messenger',
      type: 'conversation',
      ...acmeRef,
    });

    // the host switches it to another conversation
    frame.fromHost({
      source: 'job-messenger',
      type: 'open',
      company: 'user-11',
      candidate: 'user-1',
      job: 'job-101',
    });
    await waitFor(() => expect(messageTexts()).toContain('The role is closed, sorry.'));
    expect(messageTexts()).not.toContain('Can you do an interview on Monday?');
  });

  it.each([
    ['refused', 'company=user-99&candidate=user-1'],
    ['without its ids', 'company=user-10'],
  ])('says so when the conversation cannot be opened (%s)', async (_case, ids) => {
    const frame = embedded(`embed=conversation&${ids}`);
    await renderMessagesPage({ embed: frame.embed });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This conversation could not be opened.',
    );
    // the host hears that the frame is there, and its count
    await waitFor(() => expect(frame.types()).toEqual(['ready', 'unread']));
  });
});

describe('the embedded badge', () => {
  it('shows the unread count as text with an accessible name, live, empty at 0', async () => {
    const frame = embedded('embed=badge');
    const scenario = candidateScenario();
    const page = await renderMessagesPage({ embed: frame.embed, scenario });
    const badge = await screen.findByRole('status', { name: '2 unread messages' });
    expect(badge).toHaveTextContent(/^2$/);
    expect(await axeViolations(page.container)).toEqual([]);
    expect(screen.queryByRole('main')).not.toBeInTheDocument();
    await waitFor(() => expect(frame.types()).toEqual(['ready', 'unread']));

    const nile = page.fake.state.conversations.find((item) => item.id === 2)!;
    const chat = makeChat(nile, users.nile, 'Still there?', { id: 7301 });
    page.fake.receive(chat);
    act(() => page.realtime.emit(chat));
    await waitFor(() => expect(badge).toHaveAccessibleName('3 unread messages'));
    expect(badge).toHaveTextContent(/^3$/);
    expect(page.sound.play).not.toHaveBeenCalled();
  });

  it('is empty at 0', async () => {
    const frame = embedded('embed=badge');
    const scenario = candidateScenario();
    scenario.conversations.forEach((item) => (item.is_seen_messages_count = 0));
    await renderMessagesPage({ embed: frame.embed, scenario });
    const badge = await screen.findByRole('status', { name: 'No unread messages' });
    expect(badge).toHaveTextContent(/^$/);
  });
});

describe('a 401 in the frame', () => {
  it('tells the host signin-required and shows a notice instead of navigating', async () => {
    const frame = embedded('embed=inbox');
    const client = createApiClient({
      fetchImpl: async () =>
        new Response(JSON.stringify({ message: 'Unauthenticated.' }), { status: 401 }),
      onUnauthorized: frame.embed.session.end,
    });
    const page = await renderMessagesPage({ embed: frame.embed, client, noWait: true });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your session has ended. Sign in again.',
    );
    expect(frame.posted()).toEqual([
      { data: { source: 'job-messenger', type: 'signin-required' }, origin: H },
    ]);
    expect(page.navigate).not.toHaveBeenCalled();
  });

  it('says it in Arabic too', async () => {
    const frame = embedded('embed=badge');
    const client = createApiClient({
      fetchImpl: async () => new Response('{}', { status: 401 }),
      onUnauthorized: frame.embed.session.end,
    });
    await renderMessagesPage({ embed: frame.embed, client, noWait: true, language: 'ar' });
    expect(await screen.findByRole('alert')).toHaveTextContent('انتهت جلستك. سجّل الدخول من جديد.');
    expect(frame.types()).toEqual(['signin-required']);
  });
});
