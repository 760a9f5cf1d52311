import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_UPDATED_EVENT, messageUpdatedEventSchema } from '../../../shared/events.js';
import { messageChangesPaths } from '../../../shared/message-changes.js';
import { ACME, SARA } from '../../../../test-support/accounts.js';
import { signInOverHttp, type HttpSession } from '../../../../test-support/http-session.js';
import { conversationWith, initialData, sendMessage } from '../../../../test-support/messaging.js';
import { listenForEvents, type EventListener } from '../../../../test-support/pusher-js.js';
import {
  APP_KEY,
  createTestApp,
  listen,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { sleep } from '../../../../test-support/wait.js';

describe('edits and deletes go live to both parties (one instance)', () => {
  let ctx: TestContext;
  let baseUrl: string;
  const clients: EventListener[] = [];
  const live = async (session: HttpSession) => {
    const client = await listenForEvents(baseUrl, session, { pusherKey: ctx.config.pusher.key });
    clients.push(client);
    return client;
  };
  const signIn = (email: string) => signInOverHttp(baseUrl, email, { appKey: APP_KEY });

  beforeAll(async () => {
    ctx = await createTestApp('sqlite');
    baseUrl = await listen(ctx.app);
  });
  afterAll(async () => {
    clients.forEach((client) => client.disconnect());
    await ctx.close();
  });

  it('tells both parties’ sockets of an edit and a delete, each with its own view, not the socket that asked', async () => {
    const sara = await signIn(SARA.email);
    const acme = await signIn(ACME.email);
    const saraTab = await live(sara);
    const acmeAskingTab = await live(acme);
    const acmeOtherTab = await live(acme);
    const conversation = await conversationWith(acme, sara.userId);
    const sent = await sendMessage(acme, conversation, 'Interview at 9');
    if (!sent.ok) throw new Error(`send answered ${sent.status}`);
    const socketId = acmeAskingTab.pusher.connection.socket_id;

    const edited = await acme.call(
      'PATCH',
      messageChangesPaths.message(sent.chat.id),
      { message: 'Interview at 10' },
      { 'x-socket-id': socketId },
    );
    expect(edited.status).toBe(200);
    const [toSara] = await saraTab.waitFor(MESSAGE_UPDATED_EVENT, 1);
    const [toAcme] = await acmeOtherTab.waitFor(MESSAGE_UPDATED_EVENT, 1);
    const saraEvent = messageUpdatedEventSchema.parse(toSara);
    const acmeEvent = messageUpdatedEventSchema.parse(toAcme);
    for (const event of [saraEvent, acmeEvent]) {
      expect(event.messenger_user_id).toBe(conversation.id);
      expect(event.message).toMatchObject({
        id: sent.chat.id,
        message: 'Interview at 10',
        edited_at: expect.any(String),
        deleted_at: null,
      });
    }
    // each party's own view of the conversation: the receiver's unread count is theirs
    const saraView = (await initialData(sara)).messengerUsers.find(
      (item) => item.id === conversation.id,
    );
    expect(saraEvent.messengerUser).toMatchObject({
      id: conversation.id,
      last_message: 'Interview at 10',
      is_seen_messages_count: saraView?.is_seen_messages_count,
    });
    expect(acmeEvent.messengerUser).toEqual(
      (await edited.json()).messengerUser as typeof acmeEvent.messengerUser,
    );

    const deleted = await acme.call(
      'DELETE',
      messageChangesPaths.message(sent.chat.id),
      undefined,
      {
        'x-socket-id': socketId,
      },
    );
    expect(deleted.status).toBe(204);
    const updates = await saraTab.waitFor(MESSAGE_UPDATED_EVENT, 2);
    await acmeOtherTab.waitFor(MESSAGE_UPDATED_EVENT, 2);
    expect(messageUpdatedEventSchema.parse(updates[1]).message).toMatchObject({
      id: sent.chat.id,
      message: '',
      attachments: [],
      deleted_at: expect.any(String),
    });
    // the socket named in X-Socket-ID heard of neither (the events to the others have arrived)
    await sleep(200);
    expect(acmeAskingTab.named(MESSAGE_UPDATED_EVENT)).toEqual([]);
  });
});
