import { QueryClient } from '@tanstack/react-query';
import type { InitialDataResponse } from '../../../../shared/api.js';
import type { MessengerUser } from '../../../../shared/models.js';
import { candidateScenario } from '../../../test/fixtures.js';
import {
  applyChatEventToLists,
  conversationKeys,
  replaceCachedConversation,
} from './conversation-cache.js';

const scenario = candidateScenario();
const [first, second] = scenario.conversations as [MessengerUser, MessengerUser];
const key = conversationKeys.list('');
const at = (minute: number) => `2026-11-20T09:${String(minute).padStart(2, '0')}:00.000Z`;

const withList = (items: MessengerUser[]) => {
  const queryClient = new QueryClient();
  queryClient.setQueryData<InitialDataResponse>(key, {
    jobs: scenario.jobs,
    messengerUsers: items,
    auth: scenario.auth,
  });
  return queryClient;
};
const list = (queryClient: QueryClient) =>
  queryClient.getQueryData<InitialDataResponse>(key)?.messengerUsers ?? [];

describe('conversation cache: an older event or answer does not overwrite a newer row', () => {
  const newer = {
    ...second,
    last_message: 'newer',
    last_message_at: at(30),
    is_seen_messages_count: 2,
  };
  const older = {
    ...second,
    last_message: 'older',
    last_message_at: at(10),
    is_seen_messages_count: 1,
  };

  it('an older ChatMessage event is ignored (no overwrite, no move to the top)', () => {
    const queryClient = withList([{ ...first, last_message_at: at(20) }, newer]);
    applyChatEventToLists(queryClient, older);
    expect(list(queryClient).map((item) => item.id)).toEqual([first.id, second.id]);
    expect(list(queryClient)[1]).toEqual(newer);
  });

  it('a newer (or same-time) event still replaces the row and moves it to the top', () => {
    const queryClient = withList([{ ...first, last_message_at: at(20) }, older]);
    applyChatEventToLists(queryClient, newer);
    expect(list(queryClient)).toEqual([newer, { ...first, last_message_at: at(20) }]);
    const sameTime = { ...newer, is_seen_messages_count: 0 };
    applyChatEventToLists(queryClient, sameTime);
    expect(list(queryClient)[0]).toEqual(sameTime);
  });

  it('an older answer keeps the newer last message and unread count, and brings the rest', () => {
    const queryClient = withList([first, newer]);
    replaceCachedConversation(queryClient, { ...older, candidate_archive: 1 });
    expect(list(queryClient)[1]).toEqual({ ...newer, candidate_archive: 1 });
  });

  it('a newer answer replaces the row', () => {
    const queryClient = withList([first, older]);
    replaceCachedConversation(queryClient, { ...newer, is_seen_messages_count: 0 });
    expect(list(queryClient)[1]).toEqual({ ...newer, is_seen_messages_count: 0 });
  });
});
