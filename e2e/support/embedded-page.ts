import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { waitForValue } from '../../test-support/wait.js';

/**
 * The example job board's pages (examples/host-site) seen from a test: the frames it mounts with
 * embed.js and the events it records (`window.events`, one entry per event a frame raised).
 */
export interface BoardEvent {
  /** Which of the page's frames raised it (`inbox`, `badge`, `conversation`, `react`). */
  frame: string;
  type: 'ready' | 'unread' | 'conversation' | 'signin-required';
  detail: Record<string, unknown> | null;
  /** performance.timeOrigin + performance.now() when the page heard it. */
  at: number;
}

/** The iframe of a board's mount point (`#inbox`, `#badge`, `#conversation`, `#react-root`). */
export const embedFrame = (page: Page, mountPoint: string): FrameLocator =>
  page.frameLocator(`${mountPoint} iframe`);

/** The `Frame` itself (to evaluate in it, or to scan it), once the iframe is there. */
export const embedFrameHandle = async (page: Page, mountPoint: string): Promise<Frame> => {
  const element = await page.locator(`${mountPoint} iframe`).elementHandle();
  const frame = await element?.contentFrame();
  if (!frame) throw new Error(`no frame in ${mountPoint}`);
  return frame;
};

/** The conversation rows inside a frame, by the other party's name. */
export const frameRow = (frame: FrameLocator, name: string): Locator =>
  frame.getByTestId('conversation-row').filter({ hasText: name });

export const boardEvents = (page: Page): Promise<BoardEvent[]> =>
  page.evaluate(() => (window as unknown as { events?: BoardEvent[] }).events ?? []);

/** The events of one frame, optionally of one type. */
export const eventsOf = async (
  page: Page,
  frame: string,
  type?: BoardEvent['type'],
): Promise<BoardEvent[]> =>
  (await boardEvents(page)).filter(
    (event) => event.frame === frame && (type === undefined || event.type === type),
  );

/** Waits until `frame` has raised at least `count` events of `type`; answers them. */
export const waitForEvents = async (
  page: Page,
  frame: string,
  type: BoardEvent['type'],
  count = 1,
): Promise<BoardEvent[]> => {
  await waitForValue(
    async () => (await eventsOf(page, frame, type)).length >= count,
    true,
    `${count} "${type}" event(s) from the ${frame} frame`,
  );
  return eventsOf(page, frame, type);
};

/** The count of the last `unread` event of a frame (null before the first). */
export const lastUnread = async (page: Page, frame: string): Promise<number | null> => {
  const unread = await eventsOf(page, frame, 'unread');
  const last = unread.at(-1)?.detail?.count;
  return typeof last === 'number' ? last : null;
};

/** Calls `handle.open(ids)` of one of the board's mounted frames (the page keeps them in `board.handles`). */
export const openByHostIds = (
  page: Page,
  frame: string,
  ids: { company: string; candidate: string; job?: string | null },
): Promise<void> =>
  page.evaluate(
    ({ name, hostIds }) => {
      const { handles } = (
        window as unknown as { board: { handles: Record<string, { open: (ids: object) => void }> } }
      ).board;
      const handle = handles[name];
      if (!handle) throw new Error(`the board has no ${name} frame mounted`);
      handle.open(hostIds);
    },
    { name: frame, hostIds: ids },
  );
