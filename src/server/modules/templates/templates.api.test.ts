/**
 * Saved replies: each user's own list (by name, ignoring case), created, changed and deleted by
 * them alone, at most TEMPLATES_PER_USER each (also when the creations race), guarded like the
 * other `/user/*` calls.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HARBOR, NILE, OMAR, ORBIT } from '../../../../test-support/accounts.js';
import {
  APP_KEY,
  createTestApp,
  issueToken,
  signIn,
  withTestKey,
  type Session,
  type TestContext,
} from '../../../../test-support/test-app.js';
import {
  TEMPLATE_BODY_MAX_LENGTH,
  TEMPLATE_NAME_MAX_LENGTH,
  TEMPLATES_PER_USER,
  templateResponseSchema,
  templatesResponseSchema,
  savedRepliesPaths,
  type Template,
} from '../../../shared/saved-replies.js';
import { TOO_MANY_TEMPLATES } from './templates.service.js';

const dialect = inject('database');
const { templates: listPath, template: itemPath } = savedRepliesPaths;

describe(`saved replies (${dialect})`, { timeout: 60_000 }, () => {
  let ctx: TestContext;
  let nile: Session;
  let omar: Session;
  let harbor: Session;
  let orbit: Session;

  beforeAll(async () => {
    ctx = await createTestApp(dialect);
    nile = await signIn(ctx.app, NILE.email);
    omar = await signIn(ctx.app, OMAR.email);
    harbor = await signIn(ctx.app, HARBOR.email);
    orbit = await signIn(ctx.app, ORBIT.email);
  });
  afterAll(async () => ctx.close());

  const listOf = async (session: Session): Promise<Template[]> => {
    const response = await session.call('GET', listPath);
    expect(response.statusCode).toBe(200);
    return templatesResponseSchema.parse(response.json()).templates;
  };
  const create = (session: Session, body: unknown) =>
    session.call('POST', listPath, body as Record<string, unknown>);
  const created = async (session: Session, name: string, body = `${name}: the text`) => {
    const response = await create(session, { name, body });
    expect(response.statusCode).toBe(201);
    return templateResponseSchema.parse(response.json()).template;
  };
  const remove = (session: Session, id: number | string, withCsrf = true) =>
    ctx.app.inject({
      method: 'DELETE',
      url: withTestKey(`${listPath}/${id}`),
      cookies: session.cookies,
      headers: withCsrf ? { 'x-xsrf-token': session.csrf } : {},
    });

  it('creates (201), lists by name ignoring case, changes (200) and deletes (204)', async () => {
    expect(await listOf(nile)).toEqual([]);
    const response = await create(nile, {
      name: '  beta follow-up ',
      body: ' Hi {{candidate.first_name}}, about {{job.title}}… ',
    });
    expect(response.statusCode).toBe(201);
    const beta = templateResponseSchema.parse(response.json()).template;
    expect(beta).toEqual({
      id: expect.any(Number),
      name: 'beta follow-up',
      body: 'Hi {{candidate.first_name}}, about {{job.title}}…',
      updated_at: expect.any(String),
    });
    expect(Object.keys(response.json().template).sort()).toEqual(
      ['body', 'id', 'name', 'updated_at'].sort(),
    );
    const alpha = await created(nile, 'Alpha');
    const apple = await created(nile, 'apple');
    const zulu = await created(nile, 'Zulu');
    expect((await listOf(nile)).map((item) => item.name)).toEqual([
      'Alpha',
      'apple',
      'beta follow-up',
      'Zulu',
    ]);

    const renamed = await nile.call('PATCH', itemPath(alpha.id), { name: 'zebra' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({
      template: { ...alpha, name: 'zebra', updated_at: expect.any(String) },
    });
    expect(renamed.json().template.updated_at >= alpha.updated_at).toBe(true);
    const rewritten = await nile.call('PATCH', itemPath(apple.id), { body: 'New text' });
    expect(rewritten.statusCode).toBe(200);
    expect(rewritten.json().template).toMatchObject({ name: 'apple', body: 'New text' });
    const both = await nile.call('PATCH', itemPath(beta.id), { name: 'Beta', body: 'Both' });
    expect(both.json().template).toMatchObject({ id: beta.id, name: 'Beta', body: 'Both' });
    expect((await listOf(nile)).map((item) => [item.name, item.body])).toEqual([
      ['apple', 'New text'],
      ['Beta', 'Both'],
      ['zebra', alpha.body],
      ['Zulu', zulu.body],
    ]);

    const deleted = await remove(nile, zulu.id);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await remove(nile, zulu.id)).statusCode).toBe(404);
    expect((await listOf(nile)).map((item) => item.id)).toEqual([apple.id, beta.id, alpha.id]);
  });

  it('lets only the owner see or change one: 404 for anyone else and for a missing id', async () => {
    const mine = await created(omar, 'Only mine', 'Private text');
    expect((await listOf(harbor)).some((item) => item.id === mine.id)).toBe(false);
    const theirs = await harbor.call('PATCH', itemPath(mine.id), { name: 'Taken' });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: expect.any(String) });
    expect((await remove(harbor, mine.id)).statusCode).toBe(404);
    expect((await omar.call('PATCH', itemPath(999_999), { name: 'x' })).statusCode).toBe(404);
    expect((await remove(omar, 999_999)).statusCode).toBe(404);
    expect(await listOf(omar)).toEqual([mine]);
  });

  it('refuses what the schemas refuse (422 naming the field)', async () => {
    const cases: [unknown, string][] = [
      [{ body: 'text' }, 'name'],
      [{ name: '   ', body: 'text' }, 'name'],
      [{ name: 'n'.repeat(TEMPLATE_NAME_MAX_LENGTH + 1), body: 'text' }, 'name'],
      [{ name: 'name' }, 'body'],
      [{ name: 'name', body: ' \n ' }, 'body'],
      [{ name: 'name', body: 'b'.repeat(TEMPLATE_BODY_MAX_LENGTH + 1) }, 'body'],
      [{ name: 12, body: 'text' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const response = await create(harbor, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json()).toMatchObject({
        message: expect.any(String),
        errors: { [field]: [expect.any(String)] },
      });
    }
    // the longest allowed are fine
    const longest = await created(
      harbor,
      'n'.repeat(TEMPLATE_NAME_MAX_LENGTH),
      'b'.repeat(TEMPLATE_BODY_MAX_LENGTH),
    );
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ body: 'b'.repeat(TEMPLATE_BODY_MAX_LENGTH + 1) }, 'body'],
    ] as const) {
      const response = await harbor.call('PATCH', itemPath(longest.id), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json()).toMatchObject({ errors: { [field]: [expect.any(String)] } });
    }
    const badId = await harbor.call('PATCH', `${listPath}/abc`, { name: 'x' });
    expect(badId.statusCode).toBe(422);
    expect(await listOf(harbor)).toEqual([longest]);
    expect((await remove(harbor, longest.id)).statusCode).toBe(204);
  });

  it(`keeps at most ${TEMPLATES_PER_USER} per user, also when creations race`, async () => {
    const first = TEMPLATES_PER_USER - 5;
    for (let index = 0; index < first; index += 1)
      expect((await create(orbit, { name: `Reply ${index}`, body: 'text' })).statusCode).toBe(201);
    const racing = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        create(orbit, { name: `Racing ${index}`, body: 'text' }),
      ),
    );
    const statuses = racing.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 422)).toHaveLength(7);
    const refused = racing.find((response) => response.statusCode === 422);
    expect(refused?.json()).toEqual({
      message: TOO_MANY_TEMPLATES,
      errors: { name: [TOO_MANY_TEMPLATES] },
    });
    const full = await listOf(orbit);
    expect(full).toHaveLength(TEMPLATES_PER_USER);
    expect((await create(orbit, { name: 'One more', body: 'text' })).statusCode).toBe(422);
    // a change is not a creation: still allowed at the limit
    expect((await orbit.call('PATCH', itemPath(full[0]!.id), { body: 'changed' })).statusCode).toBe(
      200,
    );
    // one deleted makes room for one
    expect((await remove(orbit, full[0]!.id)).statusCode).toBe(204);
    expect((await create(orbit, { name: 'Room again', body: 'text' })).statusCode).toBe(201);
    expect((await create(orbit, { name: 'No room', body: 'text' })).statusCode).toBe(422);
    // the limit is each user's own
    expect((await create(harbor, { name: 'Unaffected', body: 'text' })).statusCode).toBe(201);
  });

  it('answers 401 when signed out or without the application key', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const anonymous = await ctx.app.inject({
        method,
        url: withTestKey(listPath),
        ...(method === 'POST' ? { payload: { name: 'x', body: 'y' } } : {}),
      });
      expect(anonymous.statusCode).toBe(401);
      const noKey = await ctx.app.inject({
        method,
        url: listPath,
        cookies: nile.cookies,
        headers: { 'x-xsrf-token': nile.csrf },
        ...(method === 'POST' ? { payload: { name: 'x', body: 'y' } } : {}),
      });
      expect(noKey.statusCode).toBe(401);
    }
    const anonymousDelete = await ctx.app.inject({
      method: 'DELETE',
      url: withTestKey(itemPath(1)),
    });
    expect(anonymousDelete.statusCode).toBe(401);
  });

  it('answers 419 for a cookie-authenticated change without or with a wrong CSRF token', async () => {
    const kept = await created(nile, 'Kept', 'Kept text');
    const before = await listOf(nile);
    const without = await ctx.app.inject({
      method: 'POST',
      url: withTestKey(listPath),
      cookies: nile.cookies,
      payload: { name: 'x', body: 'y' },
    });
    expect(without.statusCode).toBe(419);
    expect(without.json()).toEqual({ message: 'CSRF token mismatch.' });
    const forged = await nile.call(
      'PATCH',
      itemPath(kept.id),
      { name: 'Changed' },
      { 'x-xsrf-token': 'forged' },
    );
    expect(forged.statusCode).toBe(419);
    expect((await remove(nile, kept.id, false)).statusCode).toBe(419);
    expect(await listOf(nile)).toEqual(before);
    // reading needs no CSRF header
    const read = await ctx.app.inject({
      method: 'GET',
      url: withTestKey(listPath),
      cookies: nile.cookies,
    });
    expect(read.statusCode).toBe(200);
  });

  it('works with a personal access token, without CSRF', async () => {
    const token = await issueToken(ctx.app, HARBOR.email);
    const made = await ctx.app.inject({
      method: 'POST',
      url: withTestKey(listPath),
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'By token', body: 'text' },
    });
    expect(made.statusCode).toBe(201);
    const listed = await ctx.app.inject({
      method: 'GET',
      url: `${listPath}?key=${APP_KEY}&token=${encodeURIComponent(token)}`,
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().templates).toContainEqual(made.json().template);
  });
});
