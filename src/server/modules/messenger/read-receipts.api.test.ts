/**
 * Read receipts are decided when a message is read: with the
 * reader's `read_receipts` off nothing is revealed to the sender — not in the history, not in a
 * send replayed by its `client_id` — and switching receipts on later does not reveal what was read
 * meanwhile; the reader's own view keeps the time they read it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACME, SARA } from '../../../../test-support/accounts.js';
import {
  createTestApp,
  signIn,
  type Session,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { initialDataResponseSchema } from '../../../shared/conversations.js';
import { getMessageResponseSchema, sendMessageResponseSchema } from '../../../shared/messages.js';
import type { MessengerUser } from '../../../shared/models.js';
import { paths } from '../../../shared/paths.js';

const dialect = inject('database');

describe(`read receipts are decided when read (${dialect})`, () => {
  let ctx: TestContext;
  let sara: Session; // the reader (candidate)
  let acme: Session; // the sender (company)
  let conversation: MessengerUser;

  beforeAll(async () => {
    ctx = await createTestApp(dialect);
    sara = await signIn(ctx.app, SARA.email);
    acme = await signIn(ctx.app, ACME.email);
    const list = initialDataResponseSchema.parse(
      (await acme.call('GET', paths.initialData)).json(),
    );
    const found = list.messengerUsers.find((item) => item.candidate_id === sara.user.id);
    if (!found) throw new Error('the seed has no conversation between Acme and Sara');
    conversation = found;
  });
  afterAll(async () => ctx.close());

  const send = async (message: string, clientId: string) => {
    const response = await acme.call('POST', paths.sendMessage, {
      receiver_id: sara.user.id,
      messenger_user: conversation.id,
      job_id: conversation.job_id,
      message,
      client_id: clientId,
    });
    expect(response.statusCode).toBe(200);
    return sendMessageResponseSchema.parse(response.json()).message;
  };
  /** The conversation as `viewer` opens it (Sara opening it marks Acme's messages seen). */
  const open = async (viewer: Session, otherId: number) => {
    const response = await viewer.call('POST', paths.getMessage, {
      receiver_id: otherId,
      job_id: conversation.job_id,
    });
    expect(response.statusCode).toBe(200);
    return getMessageResponseSchema.parse(response.json()).messages.flatMap((group) => group.chats);
  };
  const seenAtFor = async (viewer: Session, otherId: number, chatId: number) =>
    (await open(viewer, otherId)).find((chat) => chat.id === chatId)?.seen_at;
  const receipts = async (on: boolean) =>
    expect((await sara.call('PATCH', paths.settings, { read_receipts: on })).statusCode).toBe(200);

  it('read with receipts off: hidden from the sender for good, shown to the reader', async () => {
    await receipts(false);
    const clientId = randomUUID();
    const privately = await send('Read while receipts are off', clientId);
    await open(sara, acme.user.id);
    expect(await seenAtFor(acme, sara.user.id, privately.id)).toBeNull();
    expect(await seenAtFor(sara, acme.user.id, privately.id)).toEqual(expect.any(String));
    // the same send again (a retry after a lost answer) reveals nothing either
    const replayed = await send('Read while receipts are off', clientId);
    expect(replayed.id).toBe(privately.id);
    expect(replayed.seen_at).toBeNull();

    // receipts on again: what was read meanwhile stays unrevealed; what is read now shows
    await receipts(true);
    expect(await seenAtFor(acme, sara.user.id, privately.id)).toBeNull();
    const openly = await send('Read with receipts on', randomUUID());
    await open(sara, acme.user.id);
    expect(await seenAtFor(acme, sara.user.id, openly.id)).toEqual(expect.any(String));
    expect(await seenAtFor(acme, sara.user.id, privately.id)).toBeNull();
  });
});
