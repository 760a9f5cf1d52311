import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { initialDataResponseSchema } from '../../../shared/conversations.js';
import { paths } from '../../../shared/paths.js';
import {
  applicationResponseSchema,
  integrationJobResponseSchema,
  integrationPaths,
  integrationUserResponseSchema,
  startConversationResponseSchema,
} from '../../../shared/integration.js';
import { ACME, SARA } from '../../../../test-support/accounts.js';
import {
  createTestApp,
  signIn,
  type Session,
  type TestContext,
} from '../../../../test-support/test-app.js';

const dialect = inject('database');

const KEY_OLD = 'integration-key-old-0123456789abcdef0123456789';
const KEY_NEW = 'integration-key-new-0123456789abcdef0123456789';
const PUBLIC_URL = 'https://messages.board.example';

describe(`integration API (${dialect})`, () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp(dialect, {
      INTEGRATION_KEYS: `${KEY_OLD}, ${KEY_NEW}`,
      PUBLIC_URL,
    });
  });
  afterAll(async () => ctx.close());

  const call = (
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
    key: string | null = KEY_NEW,
  ): Promise<LightMyRequestResponse> =>
    ctx.app.inject({
      method,
      url,
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  const putUser = async (externalId: string, body: Record<string, unknown>) => {
    const response = await call('PUT', integrationPaths.user(externalId), body);
    return { status: response.statusCode, json: response.json<unknown>() };
  };
  const errorsOf = (response: LightMyRequestResponse) =>
    response.json<{ errors?: Record<string, string[]> }>().errors ?? {};

  describe('keys', () => {
    it('refuses a missing, malformed or wrong key with 401, before reading the body', async () => {
      for (const authorization of [
        undefined,
        'Bearer',
        `Basic ${KEY_NEW}`,
        `Bearer ${KEY_NEW}x`,
        `Bearer ${KEY_NEW.slice(0, -1)}`,
      ]) {
        const response = await ctx.app.inject({
          method: 'PUT',
          url: integrationPaths.user('anyone'),
          headers: authorization === undefined ? {} : { authorization },
          payload: { role: 'candidate', name: 'X' },
        });
        expect(response.statusCode, String(authorization)).toBe(401);
      }
    });

    it('accepts each configured key, so a key can be rotated without downtime', async () => {
      for (const key of [KEY_OLD, KEY_NEW]) {
        const response = await call('GET', integrationPaths.user('nobody-here'), undefined, key);
        expect(response.statusCode).toBe(404);
      }
    });

    it('is off (404) without INTEGRATION_KEYS, whatever the key', async () => {
      const off = await createTestApp(dialect, { INTEGRATION_KEYS: '' });
      try {
        const response = await off.app.inject({
          method: 'GET',
          url: integrationPaths.user('x'),
          headers: { authorization: `Bearer ${KEY_NEW}` },
        });
        expect(response.statusCode).toBe(404);
      } finally {
        await off.close();
      }
    });
  });

  describe('users', () => {
    it('creates (201), then updates (200) by external id; GET returns it', async () => {
      const created = await putUser('cand:100', {
        role: 'candidate',
        name: 'Lina Farouk',
        email: 'lina@board.example',
        image_url: 'https://cdn.board.example/lina.png',
        locale: 'ar',
      });
      expect(created.status).toBe(201);
      const { user } = integrationUserResponseSchema.parse(created.json);
      expect(user).toMatchObject({
        external_id: 'cand:100',
        role: 'candidate',
        name: 'Lina Farouk',
        email: 'lina@board.example',
        image_url: 'https://cdn.board.example/lina.png',
        locale: 'ar',
      });

      const again = await putUser('cand:100', { role: 'candidate', name: 'Lina F.' });
      expect(again.status).toBe(200);
      const updated = integrationUserResponseSchema.parse(again.json).user;
      expect(updated.id).toBe(user.id);
      // fields left out are kept
      expect(updated).toMatchObject({ name: 'Lina F.', email: 'lina@board.example', locale: 'ar' });

      const same = await putUser('cand:100', { role: 'candidate', name: 'Lina F.' });
      expect(same).toEqual(again);

      const got = await call('GET', integrationPaths.user('cand:100'));
      expect(got.statusCode).toBe(200);
      expect(integrationUserResponseSchema.parse(got.json()).user).toEqual(updated);
    });

    it('concurrent first PUTs of one id create one user (one 201, the rest 200)', async () => {
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          putUser('race:1', { role: 'candidate', name: 'Racer', email: 'racer@board.example' }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(
        statuses,
        JSON.stringify(responses.find((response) => response.status === 422)?.json),
      ).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
      const ids = new Set(
        responses.map((response) => integrationUserResponseSchema.parse(response.json).user.id),
      );
      expect(ids.size).toBe(1);
    });

    it('answers 404 for an unknown user and 422 for an external id outside the pattern', async () => {
      expect((await call('GET', integrationPaths.user('unknown-1'))).statusCode).toBe(404);
      // the longest id, even percent-encoded all the way, is a valid id
      const longest = ':@'.repeat(64);
      expect((await putUser(longest, { role: 'candidate', name: 'Long Id' })).status).toBe(201);
      expect((await call('GET', integrationPaths.user(longest))).statusCode).toBe(200);
      for (const bad of ['a b', 'x'.repeat(129), 'é', 'a/b']) {
        const response = await call('GET', integrationPaths.user(bad));
        expect(response.statusCode, bad).toBe(422);
        expect(Object.keys(errorsOf(response))).toEqual(['externalId']);
      }
    });

    it('refuses bad bodies with 422 naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ name: 'No role' }, 'role'],
        [{ role: 'admin', name: 'X' }, 'role'],
        [{ role: 'candidate', name: '   ' }, 'name'],
        [{ role: 'candidate', name: 'X', email: 'not-an-address' }, 'email'],
        [{ role: 'candidate', name: 'X', image_url: 'javascript:alert(1)' }, 'image_url'],
        [{ role: 'candidate', name: 'X', locale: 'fr' }, 'locale'],
        [{ role: 'candidate', name: 'X', settings: { loud: true } }, 'settings'],
        [{ role: 'candidate', name: 'X', password: 'secret' }, 'password'],
      ];
      for (const [body, field] of cases) {
        const response = await call('PUT', integrationPaths.user('bad-body'), body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(Object.keys(errorsOf(response)).join(), JSON.stringify(body)).toContain(field);
      }
      expect((await call('GET', integrationPaths.user('bad-body'))).statusCode).toBe(404);
    });

    it.each([
      ['only zero-width characters', '\u200b\u200c\u200d\u2060'],
      ['only a blank Braille pattern', '\u2800'],
      ['a line break', 'Lina\nSupport team'],
      ['a carriage return', 'Lina\r'],
      ['a line separator', 'Lina\u2028Admin'],
      ['a tab', 'Li\tna'],
      ['an escape', 'Lina\u001b[31m'],
      ['a right-to-left override', 'Lina \u202eevil'],
      ['a left-to-right embedding', '\u202aLina'],
      ['a first-strong isolate', 'Lina\u2068x\u2069'],
      ['a NUL', 'Li\u0000na'],
    ])('refuses a name with %s (422 name), and creates no user', async (_label, name) => {
      const response = await call('PUT', integrationPaths.user('bad-name'), {
        role: 'candidate',
        name,
      });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(errorsOf(response))).toEqual(['name']);
      expect((await call('GET', integrationPaths.user('bad-name'))).statusCode).toBe(404);
    });

    it('keeps a name whose invisible characters stand beside visible text (Arabic with its marks)', async () => {
      const name = '\u0644\u064a\u0646\u0627 \u200fLina';
      const created = await putUser('name:ok', { role: 'candidate', name: ` ${name} ` });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ user: { name } });
    });

    it('refuses an e-mail address another user holds (422 email)', async () => {
      const response = await call('PUT', integrationPaths.user('cand:dup'), {
        role: 'candidate',
        name: 'Copycat',
        email: SARA.email,
      });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(errorsOf(response))).toEqual(['email']);
    });

    it('stores e-mail addresses in lower case and refuses one another user holds in another case (422 email)', async () => {
      const first = await putUser('case:1', {
        role: 'candidate',
        name: 'Lina',
        email: 'Lina7@Example.com',
      });
      expect(first.status).toBe(201);
      expect(first.json).toMatchObject({ user: { email: 'lina7@example.com' } });
      for (const email of ['LINA7@example.com', 'lina7@EXAMPLE.COM', 'Lina7@Example.com']) {
        const response = await call('PUT', integrationPaths.user('case:2'), {
          role: 'candidate',
          name: 'Lina twin',
          email,
        });
        expect(response.statusCode, email).toBe(422);
        expect(Object.keys(errorsOf(response))).toEqual(['email']);
      }
      // the holder itself may send its address in any case
      const again = await putUser('case:1', {
        role: 'candidate',
        name: 'Lina',
        email: 'LINA7@EXAMPLE.COM',
      });
      expect(again).toMatchObject({ status: 200, json: { user: { email: 'lina7@example.com' } } });
    });

    it('changing the role of a user who has conversations is a 409; without any it is allowed', async () => {
      expect((await putUser('flex:1', { role: 'candidate', name: 'Flex' })).status).toBe(201);
      expect((await putUser('flex:1', { role: 'company', name: 'Flex' })).status).toBe(200);
      await putUser('flex:co', { role: 'company', name: 'Flex Co' });
      await putUser('flex:cand', { role: 'candidate', name: 'Flex Cand' });
      const started = await call('POST', integrationPaths.conversations, {
        company: 'flex:co',
        candidate: 'flex:cand',
      });
      expect(started.statusCode).toBe(201);
      const refused = await putUser('flex:cand', { role: 'company', name: 'Flex Cand' });
      expect(refused.status).toBe(409);
    });
  });

  describe('jobs and applications', () => {
    it('creates and updates a job of a company; unknown or non-company owners are 422 company', async () => {
      await putUser('co:1', { role: 'company', name: 'Delta Ports' });
      await putUser('cand:1', { role: 'candidate', name: 'Yusuf' });
      const body = {
        company: 'co:1',
        title: 'Crane Operator',
        status: 'active',
        deadline: '2027-01-31',
      };
      const created = await call('PUT', integrationPaths.job('job:1'), body);
      expect(created.statusCode).toBe(201);
      const { job } = integrationJobResponseSchema.parse(created.json());
      expect(job).toMatchObject({
        external_id: 'job:1',
        title: 'Crane Operator',
        status: 'active',
        deadline: '2027-01-31',
      });
      const updated = await call('PUT', integrationPaths.job('job:1'), {
        ...body,
        status: 'inactive',
        deadline: null,
      });
      expect(updated.statusCode).toBe(200);
      expect(integrationJobResponseSchema.parse(updated.json()).job).toMatchObject({
        id: job.id,
        status: 'inactive',
        deadline: null,
      });

      for (const company of ['co:none', 'cand:1']) {
        const response = await call('PUT', integrationPaths.job('job:2'), { ...body, company });
        expect(response.statusCode, company).toBe(422);
        expect(Object.keys(errorsOf(response))).toEqual(['company']);
      }
      const badDate = await call('PUT', integrationPaths.job('job:2'), {
        ...body,
        deadline: '31/01/2027',
      });
      expect(Object.keys(errorsOf(badDate))).toEqual(['deadline']);
    });

    it('sets the application group the company sees (and clears it), idempotently', async () => {
      await putUser('co:2', { role: 'company', name: 'Sahara Solar' });
      await putUser('cand:2', { role: 'candidate', name: 'Maya' });
      await call('PUT', integrationPaths.job('job:solar'), {
        company: 'co:2',
        title: 'Field Engineer',
        status: 'active',
        deadline: null,
      });
      const path = integrationPaths.application('job:solar', 'cand:2');
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await call('PUT', path, { group: 'Shortlist' });
        expect(response.statusCode).toBe(200);
        expect(applicationResponseSchema.parse(response.json()).application.group).toBe(
          'Shortlist',
        );
      }
      const groups = await ctx.database.db.kysely
        .selectFrom('application_groups')
        .innerJoin('users', 'users.id', 'application_groups.company_id')
        .select('application_groups.name')
        .where('users.external_id', '=', 'co:2')
        .execute();
      expect(groups).toEqual([{ name: 'Shortlist' }]);
      const cleared = await call('PUT', path, { group: null });
      expect(applicationResponseSchema.parse(cleared.json()).application.group).toBeNull();

      expect(
        (await call('PUT', integrationPaths.application('job:none', 'cand:2'), { group: null }))
          .statusCode,
      ).toBe(404);
      expect(
        (await call('PUT', integrationPaths.application('job:solar', 'co:2'), { group: null }))
          .statusCode,
      ).toBe(404);
    });
  });

  describe('conversations', () => {
    it('starts a conversation about a job with a first message (201), and finds it again (200) without a second message', async () => {
      await putUser('co:3', { role: 'company', name: 'Atlas Freight' });
      await putUser('cand:3', { role: 'candidate', name: 'Karim' });
      await call('PUT', integrationPaths.job('job:atlas'), {
        company: 'co:3',
        title: 'Dispatcher',
        status: 'active',
        deadline: null,
      });
      const body = {
        company: 'co:3',
        candidate: 'cand:3',
        job: 'job:atlas',
        message: {
          from: 'company',
          text: 'Hello Karim, are you free to talk?',
          client_id: randomUUID(),
        },
      };
      const first = await call('POST', integrationPaths.conversations, body);
      expect(first.statusCode).toBe(201);
      const started = startConversationResponseSchema.parse(first.json());
      expect(started.conversation.job?.title).toBe('Dispatcher');
      expect(started.conversation.last_message).toBe('Hello Karim, are you free to talk?');
      const candidateId = started.conversation.candidate_id;
      const companyId = started.conversation.company_id;
      expect(started.company_url).toBe(
        `${PUBLIC_URL}/messages?target=${candidateId}&tab=${started.conversation.id}`,
      );
      expect(started.candidate_url).toBe(
        `${PUBLIC_URL}/messages?target=${companyId}&tab=${started.conversation.id}`,
      );

      const again = await call('POST', integrationPaths.conversations, body);
      expect(again.statusCode).toBe(200);
      expect(startConversationResponseSchema.parse(again.json()).conversation.id).toBe(
        started.conversation.id,
      );
      const chats = await ctx.database.db.kysely
        .selectFrom('chats')
        .select(['message', 'sender_id'])
        .where('messenger_user_id', '=', started.conversation.id)
        .execute();
      expect(chats).toEqual([
        { message: 'Hello Karim, are you free to talk?', sender_id: companyId },
      ]);
    });

    it('names the field for unknown parties, a job of another company, or a bad message', async () => {
      await putUser('co:4', { role: 'company', name: 'Nimbus' });
      await putUser('cand:4', { role: 'candidate', name: 'Rana' });
      const cases: [Record<string, unknown>, string][] = [
        [{ company: 'co:missing', candidate: 'cand:4' }, 'company'],
        [{ company: 'co:4', candidate: 'cand:missing' }, 'candidate'],
        [{ company: 'cand:4', candidate: 'cand:4' }, 'company'],
        [{ company: 'co:4', candidate: 'co:4' }, 'candidate'],
        [{ company: 'co:4', candidate: 'cand:4', job: 'job:missing' }, 'job'],
        [{ company: 'co:4', candidate: 'cand:4', job: 'job:atlas' }, 'job'],
        [
          { company: 'co:4', candidate: 'cand:4', message: { from: 'company', text: ' ' } },
          'message.text',
        ],
        [
          { company: 'co:4', candidate: 'cand:4', message: { from: 'bot', text: 'x' } },
          'message.from',
        ],
      ];
      for (const [body, field] of cases) {
        const response = await call('POST', integrationPaths.conversations, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(Object.keys(errorsOf(response)), JSON.stringify(body)).toEqual([field]);
      }
    });

    it('without a client_id, repeating the call still sends the message once', async () => {
      const body = {
        company: 'co:3',
        candidate: 'cand:3',
        job: 'job:atlas',
        message: { from: 'candidate', text: 'Yes, Tuesday works.' },
      };
      for (let attempt = 0; attempt < 3; attempt += 1)
        expect((await call('POST', integrationPaths.conversations, body)).statusCode).toBe(200);
      const sent = await ctx.database.db.kysely
        .selectFrom('chats')
        .select('id')
        .where('message', '=', 'Yes, Tuesday works.')
        .execute();
      expect(sent).toHaveLength(1);
    });

    it('a conversation without a job is separate from one about a job', async () => {
      const withoutJob = await call('POST', integrationPaths.conversations, {
        company: 'co:3',
        candidate: 'cand:3',
        job: null,
      });
      expect(withoutJob.statusCode).toBe(201);
      expect(startConversationResponseSchema.parse(withoutJob.json()).conversation.job).toBeNull();
    });
  });

  describe('erasure', () => {
    let sara: Session;
    let acme: Session;
    beforeAll(async () => {
      // the demo's Sara is also the host's user "sara"
      await ctx.database.db.kysely
        .updateTable('users')
        .set({ external_id: 'sara' })
        .where('email', '=', SARA.email)
        .execute();
      sara = await signIn(ctx.app, SARA.email);
      acme = await signIn(ctx.app, ACME.email);
    });

    it('ends sessions, removes personal data, keeps messages for the other party, and closes the conversation', async () => {
      const before = initialDataResponseSchema.parse(
        (await acme.call('GET', paths.initialData)).json(),
      );
      const withSara = before.messengerUsers.find((item) => item.candidate.user.name === SARA.name);
      expect(withSara).toBeDefined();
      if (!withSara) return;

      const erased = await call('DELETE', integrationPaths.user('sara'));
      expect(erased.statusCode).toBe(204);

      // her session is gone, and she cannot sign in again
      expect((await sara.call('GET', paths.initialData)).statusCode).toBe(401);
      await expect(signIn(ctx.app, SARA.email)).rejects.toThrow(/401/);
      expect((await call('GET', integrationPaths.user('sara'))).statusCode).toBe(404);

      // personal data gone
      const row = await ctx.database.db.kysely
        .selectFrom('users')
        .selectAll()
        .where('external_id', '=', 'sara')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        name: 'Deleted user',
        email: null,
        password_hash: null,
        image_url: null,
        logo: null,
        locale: null,
      });
      expect(row.erased_at).not.toBeNull();

      // the other party keeps the conversation and its messages
      const after = initialDataResponseSchema.parse(
        (await acme.call('GET', paths.initialData)).json(),
      );
      const kept = after.messengerUsers.find((item) => item.id === withSara.id);
      expect(kept?.candidate.user.name).toBe('Deleted user');
      expect(kept?.closed).toBe(true);
      expect(withSara.closed).toBeUndefined();
      const history = await acme.call('POST', paths.getMessage, {
        receiver_id: withSara.candidate_id,
        job_id: withSara.job_id,
      });
      expect(history.statusCode).toBe(200);
      expect(history.json<{ messages: unknown[] }>().messages.length).toBeGreaterThan(0);

      // but it takes no new message
      const send = await acme.call('POST', paths.sendMessage, {
        receiver_id: withSara.candidate_id,
        messenger_user: withSara.id,
        job_id: withSara.job_id,
        message: 'Are you still there?',
      });
      expect(send.statusCode).toBe(422);
      expect(send.json<{ message: string }>().message).toMatch(/closed/);

      // erasing again changes nothing; an erased user cannot be brought back
      expect((await call('DELETE', integrationPaths.user('sara'))).statusCode).toBe(204);
      expect((await putUser('sara', { role: 'candidate', name: 'Sara' })).status).toBe(409);
      const start = await call('POST', integrationPaths.conversations, {
        company: 'co:3',
        candidate: 'sara',
      });
      expect(start.statusCode).toBe(422);
    });

    it('answers 404 for an unknown user', async () => {
      expect((await call('DELETE', integrationPaths.user('nobody:9'))).statusCode).toBe(404);
    });
  });
});
