import type { ReactNode, RefObject } from 'react';
import { LiveRegion } from '../components/live-region.js';
import { LiveStatus } from './live-status.js';
import { MAIN_ID } from './skip-to-chat-link.js';

/** The embedded conversation mode's page: one conversation, its chat and composer, no list, no top bar. */
export const EmbeddedConversationPage = ({
  liveDown,
  main,
  announcement,
  children,
}: {
  liveDown: boolean;
  main: RefObject<HTMLElement | null>;
  /** The page's polite live region's text. */
  announcement: string;
  /** The chat, or the page's status in its place. */
  children: ReactNode;
}) => (
  <div className={`messenger messenger--embed${liveDown ? ' messenger--live-down' : ''}`}>
    <LiveStatus liveDown={liveDown} />
    <main className="messenger__main messenger__embed-chat" id={MAIN_ID} ref={main} tabIndex={-1}>
      {children}
    </main>
    <LiveRegion message={announcement} />
  </div>
);
