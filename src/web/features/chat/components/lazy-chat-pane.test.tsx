import { act, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useEffect, type ComponentProps, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { AuthUser } from '../../../../shared/models.js';
import { createTestI18n } from '../../../../../test-support/web/render-messages-page.js';
import type { OpenConversation } from './chat-pane.js';

/**
 * The chat pane's chunk, stood in for by a pane that counts its mounts: each test imports
 * lazy-chat-pane.tsx afresh (its "loaded" state is per module) and decides when, and whether, the
 * chunk arrives.
 */
let mounts = 0;
const StandInPane = ({ conversation }: { conversation: OpenConversation | null }) => {
  useEffect(() => {
    mounts += 1;
  }, []);
  return <div data-testid="stand-in-pane">{conversation?.name ?? 'none'}</div>;
};

interface Chunk {
  arrive: () => void;
  fail: () => void;
}
/** The chunk's next import: it waits until the test says it arrives or fails. */
const nextChunk = (): Chunk => {
  let arrive!: () => void;
  let fail!: () => void;
  const gate = new Promise<void>((resolve, reject) => {
    arrive = resolve;
    fail = () => reject(new Error('Failed to fetch dynamically imported module'));
  });
  vi.doMock('./chat-pane.js', async () => {
    await gate;
    return { ChatPane: StandInPane };
  });
  return { arrive, fail };
};

const viewer = { id: 1, name: 'Sara', role: 'candidate' } as unknown as AuthUser;
const conversation = (name: string): OpenConversation => ({
  conversationId: 10,
  receiverId: 20,
  jobId: null,
  name,
  imageUrl: null,
  job: null,
});

const setup = async () => {
  vi.resetModules();
  const chunk = nextChunk();
  const { LazyChatPane } = await import('./lazy-chat-pane.js');
  const appI18n = await createTestI18n('en');
  const wrap = (node: ReactNode) => <I18nextProvider i18n={appI18n.i18n}>{node}</I18nextProvider>;
  type Props = ComponentProps<typeof LazyChatPane>;
  const props = (name: string): Props => ({
    viewer,
    conversation: conversation(name),
  });
  const view = render(wrap(<LazyChatPane {...props('Acme')} />));
  const rerender = (name: string) => view.rerender(wrap(<LazyChatPane {...props(name)} />));
  return { chunk, rerender };
};

beforeEach(() => {
  mounts = 0;
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.doUnmock('./chat-pane.js');
});

describe('lazy chat pane', () => {
  it('keeps a conversation opened before its code arrived mounted once the code is there', async () => {
    const page = await setup();
    expect(screen.getByText('Loading…')).toBeInTheDocument();

    await act(async () => page.chunk.arrive());
    await waitFor(() => expect(screen.getByTestId('stand-in-pane')).toHaveTextContent('Acme'));
    expect(mounts).toBe(1);

    // the page renders again (a new message, a presence change): the same pane, not a new one
    page.rerender('Acme Robotics');
    expect(screen.getByTestId('stand-in-pane')).toHaveTextContent('Acme Robotics');
    expect(mounts).toBe(1);
  });

  it('says so with a Retry when the code fails to load, and loads it on Retry', async () => {
    // React reports the error the boundary caught
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const page = await setup();
    await act(async () => page.chunk.fail());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The conversation could not be shown.');

    const again = nextChunk();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Loading…')).toBeInTheDocument();
    await act(async () => again.arrive());
    await waitFor(() => expect(screen.getByTestId('stand-in-pane')).toHaveTextContent('Acme'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
