import { candidateScenario, makeChat, users } from '../../../../../test-support/web/fixtures.js';
import { groupChatsByDate, applyMessageUpdateToThread, type ThreadData } from './thread-cache.js';
import {
  deletedVersion,
  isChangeable,
  nextWindowEnd,
  previewOfChat,
  recordAfterDeletion,
} from './message-edits.js';

const WINDOW = 900_000;
const scenario = candidateScenario();
const acme = scenario.conversations[0]!;
const at = (msAgo: number) => new Date(Date.parse('2026-11-28T10:00:00Z') - msAgo).toISOString();
const NOW = Date.parse('2026-11-28T10:00:00Z');

const threadOf = (...chats: ReturnType<typeof makeChat>[]): ThreadData => ({
  pages: [
    {
      receiver: { id: 2010, user: { name: 'Acme Robotics' } },
      receiverJob: acme.job,
      messages: groupChatsByDate(chats),
      has_more: false,
      messengerUser: { ...acme, last_message: chats[chats.length - 1]?.message ?? null },
      application_group: null,
    },
  ],
  pageParams: [undefined],
});

describe('message edits: rules and cache', () => {
  it('only the viewer’s own messages, not deleted, younger than the window, are changeable', () => {
    const own = makeChat(acme, users.sara, 'mine', { createdAt: at(60_000) });
    const old = makeChat(acme, users.sara, 'old', { createdAt: at(WINDOW) });
    const theirs = makeChat(acme, users.acme, 'theirs', { createdAt: at(60_000) });
    expect(isChangeable(own, users.sara.id, NOW, WINDOW)).toBe(true);
    expect(isChangeable(old, users.sara.id, NOW, WINDOW)).toBe(false);
    expect(isChangeable(theirs, users.sara.id, NOW, WINDOW)).toBe(false);
    expect(isChangeable(deletedVersion(own, at(0)), users.sara.id, NOW, WINDOW)).toBe(false);
    // the controls are evaluated again when the youngest-but-oldest one leaves the window
    expect(nextWindowEnd([own, old, theirs], users.sara.id, NOW, WINDOW)).toBe(
      NOW - 60_000 + WINDOW,
    );
    expect(nextWindowEnd([old, theirs], users.sara.id, NOW, WINDOW)).toBeUndefined();
  });

  it('previews a message as the server does: 100 characters of text, or its first file’s name', () => {
    const long = makeChat(acme, users.sara, 'é'.repeat(150));
    expect(previewOfChat(long)).toBe('é'.repeat(100));
    const file = {
      ...makeChat(acme, users.sara, ''),
      attachments: [{ id: 1, name: 'cv.pdf', size: 10, mime: 'application/pdf', url: '/f/1' }],
    };
    expect(previewOfChat(file)).toBe('cv.pdf');
  });

  it('a deletion of the latest message previews the newest remaining one that is not deleted', () => {
    const a = makeChat(acme, users.sara, 'first', { id: 1, createdAt: at(3000) });
    const b = deletedVersion(makeChat(acme, users.sara, 'gone', { id: 2 }), at(1000));
    const c = makeChat(acme, users.sara, 'latest', { id: 3, createdAt: at(1000) });
    expect(recordAfterDeletion(threadOf(a, b, c), 3)?.last_message).toBe('first');
    expect(recordAfterDeletion(threadOf(c), 3)?.last_message).toBeNull();
    // not the latest: the preview stays
    expect(recordAfterDeletion(threadOf(a, c), 1)?.last_message).toBe('latest');
    expect(recordAfterDeletion(undefined, 1)).toBeUndefined();
  });

  it('an update replaces the loaded message, never adds one, and an older version never wins', () => {
    const a = makeChat(acme, users.sara, 'first', { id: 1 });
    const data = threadOf(a);
    const edited = { ...a, message: 'second', edited_at: at(1000) };
    const record = data.pages[0]!.messengerUser;
    const after = applyMessageUpdateToThread(data, edited, record)!;
    expect(after.pages[0]!.messages[0]!.chats[0]!.message).toBe('second');
    // an older edit (an answer overtaken by a live event) keeps the newer text
    const older = { ...a, message: 'stale', edited_at: at(5000) };
    expect(
      applyMessageUpdateToThread(after, older, record)!.pages[0]!.messages[0]!.chats[0]!.message,
    ).toBe('second');
    // a deletion is final
    const deleted = applyMessageUpdateToThread(after, deletedVersion(a, at(0)), record)!;
    expect(
      applyMessageUpdateToThread(deleted, edited, record)!.pages[0]!.messages[0]!.chats[0]!
        .deleted_at,
    ).not.toBeNull();
    // a message not loaded is not added
    const other = makeChat(acme, users.acme, 'elsewhere', { id: 9 });
    expect(applyMessageUpdateToThread(after, other, record)).toBe(after);
  });
});
