import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ID_MAX, idSchema } from './api-fields.js';
import { tokenRequestSchema } from './auth.js';
import { initialDataQuerySchema, messengerUserParamsSchema } from './conversations.js';
import { getMessageBodySchema, sendMessageBodySchema } from './messages.js';

/** The fields a parse refuses, with their messages (as the server's 422 names them). */
const refused = (schema: z.ZodType, input: unknown): Record<string, string[]> => {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues)
    (errors[issue.path.join('.')] ??= []).push(issue.message);
  return errors;
};

const send = (overrides: Record<string, unknown>) => ({
  receiver_id: 2,
  messenger_user: 3,
  job_id: null,
  message: 'hello',
  ...overrides,
});

const TOO_BIG = [ID_MAX + 1, 2 ** 31 + 5, 2 ** 32, 2 ** 53, 2 ** 53 + 2, 1e21, 1e308];
const NOT_IDS = [0, -1, -(2 ** 31), 1.5, Number.MIN_VALUE, true, false, [], [1], {}, 'abc', '1e3'];

describe('ids', () => {
  it('accepts 1..2,147,483,647 as numbers or digit strings', () => {
    for (const value of [1, 42, ID_MAX, '1', '007', String(ID_MAX)])
      expect(idSchema.parse(value)).toBe(Number(value));
  });

  it('refuses ids of 2^31 and more, as numbers or digit strings', () => {
    for (const value of [...TOO_BIG, String(ID_MAX + 1), '99999999999999999999', '9'.repeat(40)])
      expect(idSchema.safeParse(value).success, String(value)).toBe(false);
  });

  it('refuses zero, negatives, fractions and anything that is not a number', () => {
    for (const value of [...NOT_IDS, null, undefined, '', ' 5', '0x10', '-1', '1.0', '１'])
      expect(idSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
  });

  it.each(['receiver_id', 'messenger_user', 'job_id'])(
    'send message: %s ≥ 2^31 is refused naming the field',
    (field) => {
      for (const value of TOO_BIG) {
        const errors = refused(sendMessageBodySchema, send({ [field]: value }));
        expect(Object.keys(errors), `${field}=${value}`).toEqual([field]);
        expect(errors[field]![0]).toMatch(/2147483647/);
      }
    },
  );

  it('get message: receiver_id, job_id and before ≥ 2^31 are refused naming the field', () => {
    for (const field of ['receiver_id', 'job_id', 'before']) {
      for (const value of TOO_BIG) {
        const errors = refused(getMessageBodySchema, { receiver_id: 2, [field]: value });
        expect(Object.keys(errors), `${field}=${value}`).toEqual([field]);
      }
    }
    expect(getMessageBodySchema.parse({ receiver_id: 2, before: ID_MAX, limit: '10' })).toEqual({
      receiver_id: 2,
      job_id: null,
      before: ID_MAX,
      limit: 10,
    });
  });

  it('route ids and the job_id query: ≥ 2^31 refused, empty job_id means all jobs', () => {
    expect(Object.keys(refused(messengerUserParamsSchema, { id: String(2 ** 31) }))).toEqual([
      'id',
    ]);
    expect(messengerUserParamsSchema.parse({ id: '12' })).toEqual({ id: 12 });
    expect(Object.keys(refused(initialDataQuerySchema, { job_id: '2147483648' }))).toEqual([
      'job_id',
    ]);
    expect(Object.keys(refused(initialDataQuerySchema, { job_id: ['1', '2'] }))).toEqual([
      'job_id',
    ]);
    expect(initialDataQuerySchema.parse({ job_id: '' })).toEqual({ job_id: null });
    expect(initialDataQuerySchema.parse({})).toEqual({ job_id: null });
    expect(initialDataQuerySchema.parse({ job_id: '5' })).toEqual({ job_id: 5 });
  });

  it('job_id of a send may be null (or empty: no job), but is required', () => {
    expect(sendMessageBodySchema.parse(send({ job_id: '' })).job_id).toBeNull();
    expect(sendMessageBodySchema.parse(send({ job_id: 9 })).job_id).toBe(9);
    const { job_id: _omitted, ...withoutJob } = send({});
    expect(Object.keys(refused(sendMessageBodySchema, withoutJob))).toEqual(['job_id']);
  });
});

describe('list query (lists at scale)', () => {
  it('reads limit, cursor, search and archived; without them, the whole list', () => {
    expect(
      initialDataQuerySchema.parse({
        limit: '50',
        cursor: 'abc_-9',
        search: ' Sara ',
        archived: '1',
      }),
    ).toEqual({ job_id: null, limit: 50, cursor: 'abc_-9', search: 'Sara', archived: true });
    expect(initialDataQuerySchema.parse({ archived: '0', search: '  ' })).toEqual({
      job_id: null,
      archived: false,
    });
  });

  it('refuses a limit outside 1..200, a cursor that is not base64url, archived other than 0|1', () => {
    for (const limit of ['0', '201', '1.5', '-3', 'x', '', ['1', '2']])
      expect(Object.keys(refused(initialDataQuerySchema, { limit })), String(limit)).toEqual([
        'limit',
      ]);
    for (const cursor of ['a+b', 'a/b', 'a=', 'x'.repeat(501), ['a', 'b']])
      expect(Object.keys(refused(initialDataQuerySchema, { cursor })), String(cursor)).toEqual([
        'cursor',
      ]);
    expect(Object.keys(refused(initialDataQuerySchema, { archived: 'yes' }))).toEqual(['archived']);
    expect(Object.keys(refused(initialDataQuerySchema, { search: 'a\u0000b' }))).toEqual([
      'search',
    ]);
  });
});

describe('message text', () => {
  it('refuses a NUL character anywhere, naming the message', () => {
    for (const message of ['\u0000', 'hello\u0000', '\u0000hello', 'a\u0000b'])
      expect(refused(sendMessageBodySchema, send({ message }))).toEqual({
        message: ['The message may not contain a NUL character.'],
      });
  });

  it('treats a message of only invisible characters as empty', () => {
    for (const message of [
      '',
      '   ',
      '\u200b',
      '\u200b\u200c\u200d\u2060\ufeff',
      '\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c',
      ' \u00ad \u200b \n',
      '\u2800\u3164',
    ]) {
      expect(refused(sendMessageBodySchema, send({ message })), JSON.stringify(message)).toEqual({
        message: ['The message field is required.'],
      });
    }
  });

  it('keeps visible text with invisible characters as it is (only trimmed)', () => {
    for (const [message, stored] of [
      ['\u200fمرحبا\u200f', '\u200fمرحبا\u200f'],
      ['  a\u200bb  ', 'a\u200bb'],
      ['\u2067שלום\u2069', '\u2067שלום\u2069'],
      ['👩\u200d💻', '👩\u200d💻'],
    ]) {
      expect(sendMessageBodySchema.parse(send({ message })).message).toBe(stored);
    }
  });

  it('says which is wrong: missing, not a string, too long', () => {
    const { message: _omitted, ...withoutMessage } = send({});
    expect(refused(sendMessageBodySchema, withoutMessage)).toEqual({
      message: ['The message field is required.'],
    });
    expect(refused(sendMessageBodySchema, send({ message: 42 }))).toEqual({
      message: ['The message must be a string.'],
    });
    expect(refused(sendMessageBodySchema, send({ message: 'x'.repeat(5001) }))).toEqual({
      message: ['The message may not be greater than 5000 characters.'],
    });
    expect(sendMessageBodySchema.parse(send({ message: 'x'.repeat(5000) })).message).toHaveLength(
      5000,
    );
  });

  it('refuses a NUL character in a token name', () => {
    const request = { email: 'a@example.com', password: 'password' };
    expect(Object.keys(refused(tokenRequestSchema, { ...request, name: 'ci\u0000' }))).toEqual([
      'name',
    ]);
    expect(tokenRequestSchema.parse({ ...request, name: ' ci ' }).name).toBe('ci');
  });
});
