/**
 * Searching messages: words and word prefixes (case, Latin accents, Arabic short vowels, tatweel
 * and alef forms ignored), all words of the query, only the viewer's conversations (archived
 * included), newest first a page at a time, the snippet, each result's conversation as the list
 * shows it, the refusals; and the migration that indexes the messages stored before it.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACME, NILE, OMAR, SARA } from '../../../../test-support/accounts.js';
import { createTestDatabase, type TestDatabase } from '../../../../test-support/databases.js';
import {
  createTestApp,
  signIn,
  withTestKey,
  type Session,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { initialDataResponseSchema } from '../../../shared/conversations.js';
import { sendMessageResponseSchema } from '../../../shared/messages.js';
import type { MessengerUser } from '../../../shared/models.js';
import { paths } from '../../../shared/paths.js';
import {
  searchMessagesResponseSchema,
  SNIPPET_MAX_LENGTH,
  messageSearchPaths,
  type SearchMessagesResponse,
} from '../../../shared/message-search.js';
import { messageChangesPaths } from '../../../shared/message-changes.js';
import { createSearchRepository } from './search.repository.js';
import { encodeSearchCursor } from './search.service.js';

const dialect = inject('database');

describe(`searching messages (${dialect})`, { timeout: 30_000 }, () => {
  let ctx: TestContext;
  let sara: Session; // candidate
  let omar: Session; // candidate
  let acme: Session; // company
  let nile: Session; // company

  beforeAll(async () => {
    ctx = await createTestApp(dialect, { NOTIFICATIONS: 'off' });
    sara = await signIn(ctx.app, SARA.email);
    omar = await signIn(ctx.app, OMAR.email);
    acme = await signIn(ctx.app, ACME.email);
    nile = await signIn(ctx.app, NILE.email);
  });
  afterAll(async () => ctx.close());

  const list = async (session: Session): Promise<MessengerUser[]> => {
    const response = await session.call('GET', paths.initialData);
    expect(response.statusCode).toBe(200);
    return initialDataResponseSchema.parse(response.json()).messengerUsers;
  };
  const conversationOf = async (viewer: Session, otherId: number): Promise<MessengerUser> => {
    const found = (await list(viewer)).find(
      (item) => item.candidate_id === otherId || item.company_id === otherId,
    );
    if (!found) throw new Error(`${viewer.user.name} has no conversation with ${otherId}`);
    return found;
  };
  const send = async (from: Session, toId: number, message: string, extra = {}) => {
    const conversation = await conversationOf(from, toId);
    const response = await from.call('POST', paths.sendMessage, {
      receiver_id: toId,
      messenger_user: conversation.id,
      job_id: conversation.job_id,
      message,
      client_id: randomUUID(),
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(200);
    return sendMessageResponseSchema.parse(response.json()).message;
  };
  const searchCall = (session: Session, query: Record<string, string | number>) =>
    session.call(
      'GET',
      `${messageSearchPaths.searchMessages}?${new URLSearchParams(
        Object.entries(query).map(([key, value]) => [key, String(value)]),
      ).toString()}`,
    );
  const search = async (
    session: Session,
    q: string,
    extra: Record<string, string | number> = {},
  ): Promise<SearchMessagesResponse> => {
    const response = await searchCall(session, { q, ...extra });
    expect(response.statusCode, response.body).toBe(200);
    return searchMessagesResponseSchema.parse(response.json());
  };
  const foundIds = async (session: Session, q: string) =>
    (await search(session, q)).results.map((result) => result.message.id);

  it('finds words and word prefixes, whatever their case and Latin accents', async () => {
    const sent = await send(
      sara,
      acme.user.id,
      'Meet the Ingénieur at the CAFÉ near Zürich station',
    );
    for (const q of ['ingenieur', 'INGÉNIEUR', 'ingen', 'cafe', 'Café', 'zurich', 'zür', 'near'])
      expect(await foundIds(acme, q), q).toEqual([sent.id]);
    // a word inside another word is not a prefix of it
    expect(await foundIds(acme, 'genieur')).toEqual([]);
  });

  it('finds a prefix that starts very many different words, and words edited in and out', async () => {
    // more words starting with "qz" than a prefix is expanded into (SQLite then asks the prefix)
    const many = Array.from({ length: 230 }, (_, i) => `qz${i.toString(36)}x`).join(' ');
    const crowd = await send(omar, acme.user.id, many);
    expect(await foundIds(acme, 'qz')).toEqual([crowd.id]);
    expect(await foundIds(acme, 'qz5')).toEqual([crowd.id]);
    expect(await foundIds(acme, 'qzy9')).toEqual([]);
    // an edit's new words are found at once, its old ones no longer; a deletion leaves nothing
    const typo = await send(omar, acme.user.id, 'Kubernetis experience');
    expect(await foundIds(acme, 'kubernetis')).toEqual([typo.id]);
    const edited = await omar.call('PATCH', messageChangesPaths.message(typo.id), {
      message: 'Kubernetes experience',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await foundIds(acme, 'kubernetis')).toEqual([]);
    expect(await foundIds(acme, 'kubernete')).toEqual([typo.id]);
    const deleted = await omar.call('DELETE', messageChangesPaths.message(typo.id));
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await foundIds(acme, 'kubernetes')).toEqual([]);
  });

  it('needs every word of the query', async () => {
    const both = await send(
      acme,
      sara.user.id,
      'quartzite brochure for the quartzite quarry visit',
    );
    await send(acme, sara.user.id, 'quartzite samples only');
    expect(await foundIds(sara, 'brochure quartzite')).toEqual([both.id]);
    expect(await foundIds(sara, 'quartz broch')).toEqual([both.id]);
    expect(await foundIds(sara, 'quartzite nowhereword')).toEqual([]);
  });

  it('ignores Arabic short vowels, tatweel and the forms of alef', async () => {
    const sent = await send(omar, acme.user.id, 'سَأُرسِلُ السيرة الذاتيـــة إلى أحمد قبل المُقابَلة');
    for (const q of ['سارسل', 'سأرسل', 'الذاتية', 'احمد', 'أَحْمَد', 'إحمد', 'المقابلة', 'المقا'])
      expect(await foundIds(acme, q), q).toEqual([sent.id]);
    const vowelled = await search(acme, 'المُقَا');
    expect(vowelled.results.map((result) => result.message.id)).toEqual([sent.id]);
    expect(vowelled.results[0]?.message.message).toBe(
      'سَأُرسِلُ السيرة الذاتيـــة إلى أحمد قبل المُقابَلة',
    );
  });

  it("finds only the viewer's conversations", async () => {
    const omars = await send(omar, acme.user.id, 'marmalade confidential offer');
    // Sara and Nile are in neither conversation; Acme is
    expect(await foundIds(sara, 'marmalade')).toEqual([]);
    expect(await foundIds(nile, 'marmalade')).toEqual([]);
    expect(await foundIds(omar, 'marmalade')).toEqual([omars.id]);
    expect(await foundIds(acme, 'marmalade')).toEqual([omars.id]);
  });

  it('includes archived conversations', async () => {
    const nileSide = await conversationOf(sara, nile.user.id);
    const sent = await send(nile, sara.user.id, 'the xylophone audition is confirmed');
    const archived = await sara.call('POST', paths.archive(nileSide.id));
    expect(archived.statusCode).toBe(200);
    const found = await search(sara, 'xylophone');
    expect(found.results.map((result) => result.message.id)).toEqual([sent.id]);
    expect(found.results[0]?.messenger_user.candidate_archive).toBe(1);
  });

  it('shows each conversation as the list does, and the message as the viewer sees it', async () => {
    const sent = await send(acme, sara.user.id, 'pelican interview on Tuesday');
    const found = await search(sara, 'pelican');
    expect(found.results).toHaveLength(1);
    const [result] = found.results;
    const listed = (await list(sara)).find((item) => item.id === sent.messenger_user_id);
    expect(result?.messenger_user).toEqual(listed);
    expect(result?.message).toMatchObject({
      id: sent.id,
      sender_id: acme.user.id,
      receiver_id: sara.user.id,
      messenger_user_id: sent.messenger_user_id,
      message: 'pelican interview on Tuesday',
      sender: { id: acme.user.id, name: acme.user.name },
      attachments: [],
      edited_at: null,
      deleted_at: null,
    });
    expect(result?.snippet).toBe('pelican interview on Tuesday');
  });

  it('gives a snippet of at most 200 characters around the first match', async () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(20);
    const text = `${filler}the walrus arrives ${filler}`;
    await send(sara, acme.user.id, text);
    const [result] = (await search(acme, 'walrus')).results;
    expect(result?.snippet.length).toBeLessThanOrEqual(SNIPPET_MAX_LENGTH);
    expect(result?.snippet).toContain('the walrus arrives');
    expect(result?.snippet.startsWith('…')).toBe(true);
    expect(result?.snippet.endsWith('…')).toBe(true);
    expect(result?.message.message).toBe(text.trim());
  });

  it('pages newest first with next_cursor, without repeats or gaps', async () => {
    const sent: number[] = [];
    for (const [from, to] of [
      [acme, sara],
      [sara, acme],
      [acme, omar],
      [omar, acme],
      [acme, sara],
      [acme, omar],
      [sara, acme],
    ] as const)
      sent.push((await send(from, to.user.id, `kumquat delivery ${sent.length}`)).id);
    const newestFirst = [...sent].reverse();
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: SearchMessagesResponse = await search(acme, 'kumquat', {
        limit: 3,
        ...(cursor === null ? {} : { cursor }),
      });
      expect(page.results.length).toBeLessThanOrEqual(3);
      seen.push(...page.results.map((result) => result.message.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual(newestFirst);
    expect(pages).toBe(3);
    // Sara sees only her own conversation's four, in the same order
    expect(await foundIds(sara, 'kumquat')).toEqual(
      newestFirst.filter((id) => [sent[0], sent[1], sent[4], sent[6]].includes(id)),
    );
    // the default page is 20; an exact last page says there is no next one
    const exact = await search(acme, 'kumquat', { limit: 7 });
    expect(exact.results).toHaveLength(7);
    expect(exact.next_cursor).toBeNull();
  });

  it('finds a message sent with files', async () => {
    const boundary = `----search${randomUUID()}`;
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: withTestKey(paths.attachments),
      cookies: acme.cookies,
      headers: {
        'x-xsrf-token': acme.csrf,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="offer.txt"\r\nContent-Type: text/plain\r\n\r\n`,
        ),
        Buffer.from('the offer letter'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(uploaded.statusCode).toBe(201);
    const fileId = (uploaded.json() as { attachment: { id: number } }).attachment.id;
    const sent = await send(acme, sara.user.id, 'gooseberry contract attached', {
      attachment_ids: [fileId],
    });
    const [result] = (await search(sara, 'gooseberry')).results;
    expect(result?.message.id).toBe(sent.id);
    expect(result?.message.attachments.map((file) => file.id)).toEqual([fileId]);
  });

  it('answers a query without any word with no result', async () => {
    expect(await search(acme, '!?')).toEqual({ results: [], next_cursor: null });
    expect(await search(acme, '  --  ')).toEqual({ results: [], next_cursor: null });
  });

  it('refuses a bad q, limit or cursor (422 naming it), and anyone not signed in (401)', async () => {
    for (const [query, field] of [
      [{}, 'q'],
      [{ q: 'a' }, 'q'],
      [{ q: '   a  ' }, 'q'],
      [{ q: 'x'.repeat(101) }, 'q'],
      [{ q: 'kumquat', limit: 0 }, 'limit'],
      [{ q: 'kumquat', limit: 51 }, 'limit'],
      [{ q: 'kumquat', limit: 'ten' }, 'limit'],
      [{ q: 'kumquat', cursor: '!!!' }, 'cursor'],
      [{ q: 'kumquat', cursor: Buffer.from('abc').toString('base64url') }, 'cursor'],
      [{ q: 'kumquat', cursor: Buffer.from('-5').toString('base64url') }, 'cursor'],
      [{ q: 'kumquat', cursor: 'x'.repeat(201) }, 'cursor'],
    ] as const) {
      const response = await searchCall(acme, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(422);
      expect(response.json(), JSON.stringify(query)).toMatchObject({
        errors: { [field]: [expect.any(String)] },
      });
    }
    expect((await searchCall(acme, { q: 'kumquat', limit: 50 })).statusCode).toBe(200);
    expect(
      (await searchCall(acme, { q: 'kumquat', cursor: encodeSearchCursor(1) })).statusCode,
    ).toBe(200);
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: withTestKey(`${messageSearchPaths.searchMessages}?q=kumquat`),
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe(
  `migration 016 indexes the messages stored before it (${dialect})`,
  { timeout: 30_000 },
  () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect, { migrateTo: '014-message-edits' });
    });
    afterAll(async () => database.drop());

    it('finds the earlier messages, but not deleted ones nor ones without words', async () => {
      const db = database.db.kysely;
      const now = new Date().toISOString();
      const user = async (role: string, name: string) => {
        const { rows } = await sql<{ id: number }>`
        insert into users (role, name, email, created_at)
        values (${role}, ${name}, ${`${name.toLowerCase()}@backfill.test`}, ${now}) returning id`.execute(
          db,
        );
        return rows[0]!.id;
      };
      const candidate = await user('candidate', 'Rana');
      const company = await user('company', 'Delta');
      const stranger = await user('candidate', 'Stranger');
      const conversation = async (candidateId: number) => {
        const { rows } = await sql<{ id: number }>`
        insert into messenger_users (candidate_id, company_id, job_id, job_key, activity_at, created_at)
        values (${candidateId}, ${company}, null, 0, ${now}, ${now}) returning id`.execute(db);
        return rows[0]!.id;
      };
      const ours = await conversation(candidate);
      const theirs = await conversation(stranger);
      const message = async (
        conversationId: number,
        from: number,
        to: number,
        text: string,
        deleted = false,
      ) => {
        const { rows } = await sql<{ id: number }>`
        insert into chats (messenger_user_id, sender_id, receiver_id, message, created_at, deleted_at)
        values (${conversationId}, ${from}, ${to}, ${text}, ${now}, ${deleted ? now : null})
        returning id`.execute(db);
        return rows[0]!.id;
      };
      const early = await message(
        ours,
        candidate,
        company,
        'An ÉARLY question about the déménagement',
      );
      // more than one batch of the backfill, and more than the newest messages the search walks first
      const { rows: backlog } = await sql<{ id: number }>`
      insert into chats (messenger_user_id, sender_id, receiver_id, message, created_at)
      values ${sql.join(
        Array.from(
          { length: 2100 },
          (_, i) =>
            sql`(${ours}, ${i % 2 ? candidate : company}, ${i % 2 ? company : candidate}, ${`Backlog ${i}`}, ${now})`,
        ),
      )}
      returning id`.execute(db);
      const many = backlog.map((row) => row.id).sort((a, b) => a - b);
      const gone = await message(ours, company, candidate, 'early and deleted', true);
      await message(ours, company, candidate, '?!');
      const elsewhere = await message(theirs, stranger, company, 'early elsewhere');

      await database.migrate();

      const repository = createSearchRepository(database.db);
      const before = 2 ** 31 - 1;
      expect(await repository.matchingIds(db, candidate, ['early'], before, 10)).toEqual([early]);
      expect(await repository.matchingIds(db, company, ['early'], before, 10)).toEqual([
        elsewhere,
        early,
      ]);
      expect(await repository.matchingIds(db, candidate, ['demenag'], before, 10)).toEqual([early]);
      expect(await repository.matchingIds(db, candidate, ['backlog', '7'], before, 3)).toEqual([
        many[799],
        many[798],
        many[797],
      ]);
      expect(gone).toBeGreaterThan(0);
      // nothing indexed for the deleted message nor the one without words
      const indexed =
        dialect === 'postgres'
          ? await sql<{
              count: number;
            }>`select count(*)::integer as count from chats where search_vector is not null`.execute(
              db,
            )
          : await sql<{ count: number }>`select count(*) as count from chats_search`.execute(db);
      expect(indexed.rows[0]?.count).toBe(2102);
    });
  },
);
