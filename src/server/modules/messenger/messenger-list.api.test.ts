import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  initialDataResponseSchema,
  type InitialDataResponse,
} from '../../../shared/conversations.js';
import type { MessengerUser } from '../../../shared/models.js';
import { paths } from '../../../shared/paths.js';
import { conversationJob } from '../../db/schema.js';
import { ACME } from '../../../../test-support/accounts.js';
import {
  createTestApp,
  signIn,
  type Session,
  type TestContext,
} from '../../../../test-support/test-app.js';

const dialect = inject('database');

/** The conversation list in pages, searched and filtered. */
describe(`conversation list pages (${dialect})`, () => {
  let ctx: TestContext;
  let company: Session;
  const CONVERSATIONS = 30;
  /** Conversations the company has archived (by index). */
  const ARCHIVED = new Set([3, 8, 13]);
  const SPECIAL_NAME = 'Ahmed 100%_Ready';
  const ARABIC_NAME = 'سارة الحسيني';
  let conversationIds: number[] = [];

  const nameOf = (index: number) =>
    index === 7 ? SPECIAL_NAME : index === 11 ? ARABIC_NAME : `Cand ${index}`;

  beforeAll(async () => {
    ctx = await createTestApp(dialect);
    const db = ctx.database.db.kysely;
    const { password_hash } = await db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', ACME.email)
      .executeTakeFirstOrThrow();
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    const iso = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    const newUser = async (role: 'company' | 'candidate', name: string, email: string) =>
      (
        await db
          .insertInto('users')
          .values({ role, name, email, password_hash, created_at: iso(0) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const companyId = await newUser('company', 'Paging Co', 'paging@example.test');
    const newJob = async (title: string) =>
      (
        await db
          .insertInto('jobs')
          .values({ company_id: companyId, title, status: 'active', created_at: iso(0) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const jobs = [null, await newJob('Warehouse Lead'), await newJob('Robotics Technician')];
    for (let index = 0; index < CONVERSATIONS; index += 1) {
      const candidateId = await newUser('candidate', nameOf(index), `cand${index}@example.test`);
      const jobId = jobs[index % 3] ?? null;
      // Every fifth has no message yet: its activity is its creation, shared by all of them (ties).
      const hasMessage = index % 5 !== 0;
      const at = hasMessage ? iso(60 + index) : iso(10);
      const unread = hasMessage && index % 2 === 0 ? 1 : 0;
      const { id } = await db
        .insertInto('messenger_users')
        .values({
          candidate_id: candidateId,
          company_id: companyId,
          ...conversationJob(jobId),
          last_message: hasMessage ? `hello ${index}` : null,
          last_message_at: hasMessage ? at : null,
          activity_at: at,
          company_unread: unread,
          company_archive: ARCHIVED.has(index) ? 1 : 0,
          created_at: iso(10),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      conversationIds.push(id);
      if (hasMessage)
        await db
          .insertInto('chats')
          .values({
            messenger_user_id: id,
            sender_id: candidateId,
            receiver_id: companyId,
            job_id: jobId,
            message: `hello ${index}`,
            created_at: at,
            seen_at: unread ? null : at,
          })
          .execute();
    }
    company = await signIn(ctx.app, 'paging@example.test');
  });
  afterAll(async () => ctx.close());

  const list = async (session: Session, query: Record<string, string | number> = {}) => {
    const search = new URLSearchParams(
      Object.entries(query).map(([name, value]) => [name, String(value)]),
    ).toString();
    const response = await session.call('GET', `${paths.initialData}${search ? `?${search}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    return initialDataResponseSchema.parse(response.json());
  };

  /** Every page from the first, calling `between` after each page but the last. */
  const allPages = async (
    query: Record<string, string | number>,
    between: (page: InitialDataResponse, index: number) => Promise<void> = async () => {},
  ) => {
    const seen: MessengerUser[] = [];
    let cursor: string | null | undefined;
    for (let index = 0; index < 100; index += 1) {
      const page = await list(company, cursor ? { ...query, cursor } : query);
      expect(page.messengerUsers.length).toBeLessThanOrEqual(Number(query.limit));
      seen.push(...page.messengerUsers);
      cursor = page.next_cursor;
      if (cursor === null) return seen;
      expect(typeof cursor).toBe('string');
      await between(page, index);
    }
    throw new Error('the pages never ended');
  };

  const send = (item: MessengerUser, message: string) =>
    company.call('POST', paths.sendMessage, {
      receiver_id: item.candidate_id,
      messenger_user: item.id,
      job_id: item.job_id,
      message,
    });

  it('without limit answers with every conversation, newest first, with the counters', async () => {
    const data = await list(company);
    expect(data).not.toHaveProperty('next_cursor');
    expect(data.messengerUsers.map((item) => item.id).sort((a, b) => a - b)).toEqual(
      [...conversationIds].sort((a, b) => a - b),
    );
    const times = data.messengerUsers.map((item) => item.last_message_at ?? '');
    expect(times.filter(Boolean)).toEqual([...times.filter(Boolean)].sort().reverse());
    expect(data.archived_count).toBe(ARCHIVED.size);
    expect(data.unread_total).toBe(
      data.messengerUsers.reduce((sum, item) => sum + item.is_seen_messages_count, 0),
    );
    expect(data.jobs.map((job) => job.title).sort()).toEqual([
      'Robotics Technician',
      'Warehouse Lead',
    ]);
  });

  it('pages of 7 cover every conversation exactly once while messages reorder the list', async () => {
    const everything = (await list(company)).messengerUsers;
    const firstPage = await list(company, { limit: 7 });
    // The first page is the head of the full list, in its order.
    expect(firstPage.messengerUsers.map((item) => item.id)).toEqual(
      everything.slice(0, 7).map((item) => item.id),
    );
    const seen = await allPages({ limit: 7 }, async (page, index) => {
      const shown = new Set(page.messengerUsers.map((item) => item.id));
      const current = (await list(company)).messengerUsers;
      // Move to the top: a conversation not reached yet (from far below the cursor) and one
      // already shown; each would be skipped or repeated by a plain keyset on the activity time.
      const later = current.filter((item) => !shown.has(item.id)).at(-1 - index);
      const earlier = page.messengerUsers[0];
      for (const item of [later, earlier])
        if (item) expect((await send(item, `moving up ${index}`)).statusCode).toBe(200);
    });
    const ids = seen.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual([...conversationIds].sort((a, b) => a - b));
    // Afterwards a new first page shows the moved conversations on top.
    const again = await list(company, { limit: 7 });
    expect(again.messengerUsers[0]?.last_message).toMatch(/^moving up/);
  });

  it('leaves out of later pages a conversation started after the first page', async () => {
    const first = await list(company, { limit: 5 });
    const db = ctx.database.db.kysely;
    const now = new Date().toISOString();
    const candidateId = (
      await db
        .insertInto('users')
        .values({
          role: 'candidate',
          name: 'Late Comer',
          email: 'late@example.test',
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const { id } = await db
      .insertInto('messenger_users')
      .values({
        candidate_id: candidateId,
        company_id: company.user.id,
        ...conversationJob(null),
        activity_at: now,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rest: number[] = first.messengerUsers.map((item) => item.id);
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await list(company, { limit: 5, cursor });
      rest.push(...page.messengerUsers.map((item) => item.id));
      cursor = page.next_cursor;
    }
    expect(rest).not.toContain(id);
    expect(new Set(rest).size).toBe(rest.length);
    expect(rest).toHaveLength(CONVERSATIONS);
    // A new first page has it.
    expect((await list(company, { limit: 5 })).messengerUsers.map((item) => item.id)).toContain(id);
    conversationIds = [...conversationIds, id];
  });

  it('puts on the first page a message from a clock running ahead (or of this very millisecond), once', async () => {
    // Another instance whose clock is 3 s ahead wrote the newest message of one conversation.
    const db = ctx.database.db.kysely;
    const ahead = new Date(Date.now() + 3000).toISOString();
    const target = (await list(company, { limit: 200 })).messengerUsers.at(-1);
    if (!target) throw new Error('no conversation');
    await db
      .updateTable('messenger_users')
      .set({ last_message: 'from the future', last_message_at: ahead, activity_at: ahead })
      .where('id', '=', target.id)
      .execute();
    await db
      .insertInto('chats')
      .values({
        messenger_user_id: target.id,
        sender_id: target.candidate_id,
        receiver_id: company.user.id,
        job_id: target.job_id,
        message: 'from the future',
        created_at: ahead,
        seen_at: ahead,
      })
      .execute();
    const first = await list(company, { limit: 5 });
    expect(first.messengerUsers[0]?.id).toBe(target.id);
    const ids = (await allPages({ limit: 5 })).map((item) => item.id);
    expect(ids.filter((id) => id === target.id)).toHaveLength(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(conversationIds.length);
  });

  it('searches (case-insensitive contains) on the other party’s name and the job title, with the job filter', async () => {
    const everything = (await list(company)).messengerUsers;
    const matching = (text: string, jobId: number | null = null) =>
      everything
        .filter(
          (item) =>
            (jobId === null || item.job_id === jobId) &&
            (item.candidate.user.name.toLowerCase().includes(text.toLowerCase()) ||
              (item.job?.title ?? '').toLowerCase().includes(text.toLowerCase())),
        )
        .map((item) => item.id);
    const ids = (data: InitialDataResponse) => data.messengerUsers.map((item) => item.id);

    const byName = await list(company, { search: 'cAND 1' });
    expect(ids(byName)).toEqual(matching('cand 1'));
    expect(ids(byName).length).toBeGreaterThan(5);

    const warehouse = everything.find((item) => item.job?.title === 'Warehouse Lead');
    const jobId = warehouse?.job_id ?? 0;
    const byTitle = await list(company, { search: 'WAREHOUSE' });
    expect(ids(byTitle)).toEqual(matching('warehouse'));
    expect(ids(byTitle)).toHaveLength(10);

    const both = await list(company, { search: 'cand 1', job_id: jobId });
    expect(ids(both)).toEqual(matching('cand 1', jobId));
    expect(ids(both).length).toBeGreaterThan(0);
    expect(both.messengerUsers.every((item) => item.job_id === jobId)).toBe(true);

    // Paged, the search gives the same conversations.
    const paged = await allPages({ search: 'cand', limit: 4 });
    expect(paged.map((item) => item.id)).toEqual(matching('cand'));

    // `%` and `_` match only themselves; Arabic text matches as given.
    expect(ids(await list(company, { search: '0%_r' }))).toEqual(matching('0%_r'));
    expect(ids(await list(company, { search: '0%_r' }))).toHaveLength(1);
    expect(ids(await list(company, { search: '%' }))).toHaveLength(1);
    expect(ids(await list(company, { search: '_' }))).toHaveLength(1);
    expect(ids(await list(company, { search: 'الحسي' }))).toEqual(matching('الحسي'));
    expect(ids(await list(company, { search: 'الحسي' }))).toHaveLength(1);
    expect(ids(await list(company, { search: 'nobody like this' }))).toEqual([]);
  });

  it('filters by the viewer’s archive flag; archived_count follows archive and unarchive', async () => {
    // the sends of the paging test brought some back (a send unarchives for both sides): archive
    // the fixture's set again (archiving is idempotent)
    for (const index of ARCHIVED)
      expect(
        (await company.call('POST', `/user/messenger/${conversationIds[index]}/archive`))
          .statusCode,
      ).toBe(200);
    const archived = await list(company, { archived: 1 });
    expect(archived.messengerUsers).toHaveLength(ARCHIVED.size);
    expect(archived.messengerUsers.every((item) => item.company_archive === 1)).toBe(true);
    expect(archived.archived_count).toBe(ARCHIVED.size);
    const active = await allPages({ archived: 0, limit: 6 });
    expect(active).toHaveLength(conversationIds.length - ARCHIVED.size);
    expect(active.every((item) => item.company_archive === 0)).toBe(true);

    const target = active[2];
    if (!target) throw new Error('no active conversation');
    const archive = await company.call('POST', `/user/messenger/${target.id}/archive`);
    expect(archive.statusCode).toBe(200);
    const after = await list(company, { archived: 1, limit: 2 });
    expect(after.archived_count).toBe(ARCHIVED.size + 1);
    expect(after.next_cursor).toEqual(expect.any(String));
    const archivedPaged = await allPages({ archived: 1, limit: 2 });
    expect(archivedPaged.map((item) => item.id)).toContain(target.id);
    expect(archivedPaged).toHaveLength(ARCHIVED.size + 1);
    // Search and archive together.
    const searched = await list(company, { archived: 1, search: target.candidate.user.name });
    expect(searched.messengerUsers.map((item) => item.id)).toContain(target.id);

    await company.call('POST', `/user/messenger/${target.id}/unarchive`);
    expect((await list(company, { limit: 1 })).archived_count).toBe(ARCHIVED.size);
  });

  it('counts unread messages over all conversations, whatever the filters', async () => {
    const everything = (await list(company)).messengerUsers;
    const total = everything.reduce((sum, item) => sum + item.is_seen_messages_count, 0);
    expect(total).toBeGreaterThan(0);
    const filtered = await list(company, { search: 'nobody like this', limit: 3 });
    expect(filtered.unread_total).toBe(total);
    expect(filtered.next_cursor).toBeNull();
    const unread = everything.find((item) => item.is_seen_messages_count > 0);
    if (!unread) throw new Error('nothing unread');
    expect((await company.call('GET', paths.unseen(unread.id))).statusCode).toBe(200);
    expect((await list(company, { limit: 3 })).unread_total).toBe(
      total - unread.is_seen_messages_count,
    );
  });

  it('ends with next_cursor null; limit 200 gives everything at once', async () => {
    const all = await list(company, { limit: 200 });
    expect(all.messengerUsers).toHaveLength(conversationIds.length);
    expect(all.next_cursor).toBeNull();
  });

  it('refuses a bad limit, cursor or archived value with 422 naming the field', async () => {
    const refused = async (query: string, field: string) => {
      const response = await company.call('GET', `${paths.initialData}?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(Object.keys(response.json<{ errors: object }>().errors), query).toEqual([field]);
    };
    for (const limit of ['0', '201', 'abc', '1.5', '-1', ''])
      await refused(`limit=${limit}`, 'limit');
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const cursor of [
      'not-a-cursor',
      encode({ a: 1 }),
      encode({ t0: 'yesterday', at: '2026-01-01T00:00:00.000Z', id: 1 }),
      encode({ t0: '2026-01-01T00:00:00.000Z', at: '2026-01-01T00:00:00.000Z', id: 0 }),
      'a+b/c=',
    ])
      await refused(`limit=5&cursor=${encodeURIComponent(cursor)}`, 'cursor');
    const first = await list(company, { limit: 5 });
    await refused(`cursor=${first.next_cursor ?? ''}`, 'cursor');
    await refused('archived=2', 'archived');
    await refused(`search=${'x'.repeat(201)}`, 'search');
  });
});
