/**
 * The board's React page: the inbox through the typed component src/embed/react.tsx ships
 * (`<JobMessenger mode="inbox" … />`), bundled with React by esbuild when the board starts.
 */
import { StrictMode, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { JobMessenger } from '../../src/embed/react.js';

interface BoardConfig {
  messengerUrl: string;
  signInUrl: string;
  locale: 'en' | 'ar';
  theme: {
    color: string;
    colorScheme: 'light' | 'dark' | 'auto';
    radius: string;
    fontFamily: string;
  };
}

const config = JSON.parse(
  document.getElementById('board-config')?.textContent ?? '{}',
) as BoardConfig;
const events: { frame: string; type: string; detail: unknown; at: number }[] = [];
Object.assign(window, { events });
const record = (type: string, detail?: unknown) =>
  events.push({
    frame: 'react',
    type,
    detail: detail ?? null,
    at: performance.timeOrigin + performance.now(),
  });

const Inbox = () => {
  const [signInUrl, setSignInUrl] = useState(config.signInUrl);
  const [unread, setUnread] = useState<number | null>(null);
  // the count the component reported, in the board's own markup beside it
  useEffect(() => {
    const output = document.getElementById('react-unread');
    if (output) output.textContent = unread === null ? '…' : String(unread);
  }, [unread]);
  const signInAgain = useCallback(() => {
    record('signin-required');
    void fetch('/signin-url')
      .then((response) => response.json() as Promise<{ signInUrl: string }>)
      .then((answer) => setSignInUrl(answer.signInUrl));
  }, []);
  return (
    <JobMessenger
      url={config.messengerUrl}
      mode="inbox"
      signInUrl={signInUrl}
      locale={config.locale}
      theme={config.theme}
      className="board-react-frame"
      style={{ blockSize: '100%' }}
      onReady={() => record('ready')}
      onUnread={(event) => {
        record('unread', event);
        setUnread(event.count);
      }}
      onConversation={(event) => record('conversation', event)}
      onSigninRequired={signInAgain}
    />
  );
};

const root = document.getElementById('react-root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <Inbox />
    </StrictMode>,
  );
