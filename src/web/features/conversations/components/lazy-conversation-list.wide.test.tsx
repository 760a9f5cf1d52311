import {
  renderMessagesPage,
  rowIds,
  conversationList,
} from '../../../../../test-support/web/render-messages-page.js';
import { preloadConversationList } from './lazy-conversation-list.js';

const LIST_SPINNER = 'Loading conversations…';

/** Whether `node` (or anything inside it) reads `text`. */
const contains = (node: Node, text: string): boolean => node.textContent?.includes(text) ?? false;

// Its own file: the list's code is loaded once per module graph, and this checks the very first
// time the list renders (each test file gets a fresh one).
describe('the conversation list code, loaded at startup (wide screen)', () => {
  it('the rows arrive with the first data, never behind a list spinner', async () => {
    await preloadConversationList();
    let spinnerShown = false;
    const observer = new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) if (contains(node, LIST_SPINNER)) spinnerShown = true;
    });
    observer.observe(document.body, { childList: true, subtree: true });

    await renderMessagesPage();
    observer.disconnect();

    expect(rowIds(conversationList())).toEqual([1, 2, 3]);
    expect(spinnerShown).toBe(false);
  });
});
