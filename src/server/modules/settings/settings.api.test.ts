import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  DEFAULT_USER_SETTINGS,
  integrationPaths,
  integrationUserResponseSchema,
  userSettingsResponseSchema,
  type UserSettings,
} from '../../../shared/integration.js';
import { paths } from '../../../shared/paths.js';
import { ACME, HARBOR, LINA, NILE, OMAR, SARA } from '../../../../test-support/accounts.js';
import {
  APP_KEY,
  createTestApp,
  issueToken,
  signIn,
  withTestKey,
  type Session,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { buildApp } from '../../app.js';
import { createSettingsRepository } from './settings.repository.js';
import { createSettingsService } from './settings.service.js';

const dialect = inject('database');
const INTEGRATION_KEY = 'integration-key-for-settings-tests-0123456789';

describe(`user settings (${dialect})`, () => {
  let ctx: TestContext;
  let sara: Session; // candidate@
  let omar: Session; // candidate2@
  let acme: Session; // company@

  beforeAll(async () => {
    ctx = await createTestApp(dialect, { INTEGRATION_KEYS: INTEGRATION_KEY });
    sara = await signIn(ctx.app, SARA.email);
    omar = await signIn(ctx.app, OMAR.email);
    acme = await signIn(ctx.app, ACME.email);
  });
  afterAll(async () => ctx.close());

  const settingsOf = async (session: Session): Promise<UserSettings> => {
    const response = await session.call('GET', paths.settings);
    expect(response.statusCode).toBe(200);
    return userSettingsResponseSchema.parse(response.json()).settings;
  };
  const patch = (session: Session, body: unknown) =>
    session.call('PATCH', paths.settings, body as Record<string, unknown>);
  /** A PATCH whose body is this raw JSON text. */
  const patchRaw = (session: Session, json: string) =>
    ctx.app.inject({
      method: 'PATCH',
      url: withTestKey(paths.settings),
      cookies: session.cookies,
      headers: { 'x-xsrf-token': session.csrf, 'content-type': 'application/json' },
      payload: json,
    });

  it('answers the defaults until anything is changed', async () => {
    const response = await acme.call('GET', paths.settings);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ settings: DEFAULT_USER_SETTINGS });
    // the contract's defaults: every switch on but the browser's (it asks first), English, UTC
    const { browser_notifications, locale, time_zone, ...switches } = DEFAULT_USER_SETTINGS;
    expect(switches).toEqual({ email_notifications: true, read_receipts: true, show_online: true });
    expect([browser_notifications, locale, time_zone]).toEqual([false, 'en', 'UTC']);
  });

  it('keeps the language and the time zone the page saves', async () => {
    const harbor = await signIn(ctx.app, HARBOR.email);
    const saved = await patch(harbor, { locale: 'ar', time_zone: 'Asia/Riyadh' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      settings: { ...DEFAULT_USER_SETTINGS, locale: 'ar', time_zone: 'Asia/Riyadh' },
    });
    // a switch changed later leaves them as they are
    await patch(harbor, { show_online: false });
    expect(await settingsOf(harbor)).toEqual({
      ...DEFAULT_USER_SETTINGS,
      show_online: false,
      locale: 'ar',
      time_zone: 'Asia/Riyadh',
    });
    expect((await patch(harbor, { locale: 'en', time_zone: 'UTC' })).statusCode).toBe(200);
    expect(await settingsOf(harbor)).toMatchObject({ locale: 'en', time_zone: 'UTC' });
  });

  it('answers 422 for a time zone that is not an IANA name, or a language it does not have', async () => {
    const before = await settingsOf(acme);
    for (const time_zone of [
      'Mars/Olympus',
      '+03:00',
      'GMT+3 ',
      '',
      'Asia/Riyadh/../x',
      'a'.repeat(65),
      3,
    ]) {
      const response = await patch(acme, { time_zone });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['time_zone']);
    }
    for (const locale of ['fr', 'EN', null]) {
      const response = await patch(acme, { locale });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['locale']);
    }
    expect(await settingsOf(acme)).toEqual(before);
  });

  it('changes any subset and answers the whole settings; the change is kept', async () => {
    const first = await patch(sara, { show_online: false });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ settings: { ...DEFAULT_USER_SETTINGS, show_online: false } });

    const second = await patch(sara, { browser_notifications: true, read_receipts: false });
    expect(second.statusCode).toBe(200);
    const expected = {
      ...DEFAULT_USER_SETTINGS,
      show_online: false,
      browser_notifications: true,
      read_receipts: false,
    };
    expect(second.json()).toEqual({ settings: expected });
    expect(await settingsOf(sara)).toEqual(expected);

    // an empty subset changes nothing
    const empty = await patch(sara, {});
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ settings: expected });

    // and setting one back to its default is a change like any other
    const back = await patch(sara, { show_online: true });
    expect(back.json()).toEqual({ settings: { ...expected, show_online: true } });
  });

  it('keeps each user’s settings to that user', async () => {
    await patch(omar, { email_notifications: false });
    expect(await settingsOf(omar)).toEqual({
      ...DEFAULT_USER_SETTINGS,
      email_notifications: false,
    });
    expect((await settingsOf(sara)).email_notifications).toBe(true);
    expect(await settingsOf(acme)).toEqual(DEFAULT_USER_SETTINGS);
  });

  it('keeps both of two changes of different switches made at once', async () => {
    const nile = await signIn(ctx.app, NILE.email);
    const [a, b] = await Promise.all([
      patch(nile, { read_receipts: false }),
      patch(nile, { show_online: false }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(await settingsOf(nile)).toEqual({
      ...DEFAULT_USER_SETTINGS,
      read_receipts: false,
      show_online: false,
    });
  });

  it('answers 422 naming the field for an unknown key, and changes nothing', async () => {
    const before = await settingsOf(acme);
    const response = await patch(acme, { show_online: false, dark_mode: true });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'The dark_mode field is not allowed.',
      errors: { dark_mode: ['The dark_mode field is not allowed.'] },
    });
    expect(await settingsOf(acme)).toEqual(before);
  });

  it('answers 422 naming the field for a wrong type, and changes nothing', async () => {
    const before = await settingsOf(acme);
    for (const value of ['false', 0, 1, null, {}, []]) {
      const response = await patch(acme, { read_receipts: value });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['read_receipts']);
    }
    expect(await settingsOf(acme)).toEqual(before);
  });

  it('answers 422 for a body that is not a JSON object', async () => {
    for (const json of ['[]', '[{"show_online":false}]', '"show_online"', 'true', '5', 'null']) {
      const response = await patchRaw(acme, json);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        message: 'The request body must be a JSON object.',
        errors: { _: ['The request body must be a JSON object.'] },
      });
    }
    expect(await settingsOf(acme)).toEqual(DEFAULT_USER_SETTINGS);
  });

  it('answers 401 when signed out or without the application key', async () => {
    for (const method of ['GET', 'PATCH'] as const) {
      const anonymous = await ctx.app.inject({
        method,
        url: withTestKey(paths.settings),
        ...(method === 'PATCH' ? { payload: { show_online: false } } : {}),
      });
      expect(anonymous.statusCode).toBe(401);
      const noKey = await ctx.app.inject({
        method,
        url: paths.settings,
        cookies: acme.cookies,
        headers: { 'x-xsrf-token': acme.csrf },
        ...(method === 'PATCH' ? { payload: { show_online: false } } : {}),
      });
      expect(noKey.statusCode).toBe(401);
    }
    expect(await settingsOf(acme)).toEqual(DEFAULT_USER_SETTINGS);
  });

  it('answers 419 for a cookie-authenticated PATCH without or with a wrong CSRF token', async () => {
    const without = await ctx.app.inject({
      method: 'PATCH',
      url: withTestKey(paths.settings),
      cookies: acme.cookies,
      payload: { show_online: false },
    });
    expect(without.statusCode).toBe(419);
    expect(without.json()).toEqual({ message: 'CSRF token mismatch.' });
    const forged = await acme.call(
      'PATCH',
      paths.settings,
      { show_online: false },
      { 'x-xsrf-token': 'forged' },
    );
    expect(forged.statusCode).toBe(419);
    expect(await settingsOf(acme)).toEqual(DEFAULT_USER_SETTINGS);
    // reading needs no CSRF header
    const read = await ctx.app.inject({
      method: 'GET',
      url: withTestKey(paths.settings),
      cookies: acme.cookies,
    });
    expect(read.statusCode).toBe(200);
  });

  it('works with a personal access token (Bearer or token=), without CSRF', async () => {
    const token = await issueToken(ctx.app, OMAR.email);
    const bearer = { authorization: `Bearer ${token}` };

    const read = await ctx.app.inject({
      method: 'GET',
      url: withTestKey(paths.settings),
      headers: bearer,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().settings).toEqual(await settingsOf(omar));

    const changed = await ctx.app.inject({
      method: 'PATCH',
      url: withTestKey(paths.settings),
      headers: bearer,
      payload: { browser_notifications: true },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().settings.browser_notifications).toBe(true);
    // the same user's settings, whichever way they signed in
    expect((await settingsOf(omar)).browser_notifications).toBe(true);

    const viaQuery = await ctx.app.inject({
      method: 'PATCH',
      url: `${paths.settings}?key=${APP_KEY}&token=${encodeURIComponent(token)}`,
      payload: { browser_notifications: false },
    });
    expect(viaQuery.statusCode).toBe(200);
    expect(viaQuery.json().settings.browser_notifications).toBe(false);

    const invalid = await ctx.app.inject({
      method: 'GET',
      url: withTestKey(paths.settings),
      headers: { authorization: 'Bearer jbm_pat_not-a-token' },
    });
    expect(invalid.statusCode).toBe(401);
  });

  it('is what the integration API sets with a user’s `settings`', async () => {
    const settingsService = createSettingsService({
      db: ctx.database.db.kysely,
      repository: createSettingsRepository(ctx.database.db),
    });
    const put = (body: Record<string, unknown>) =>
      ctx.app.inject({
        method: 'PUT',
        url: integrationPaths.user('host:settings-1'),
        headers: { authorization: `Bearer ${INTEGRATION_KEY}` },
        payload: { role: 'candidate', name: 'Lina Settings', ...body },
      });
    const created = await put({ settings: { read_receipts: false } });
    expect(created.statusCode).toBe(201);
    const userId = created.json().user.id as number;
    expect(await settingsService.getSettings(userId)).toEqual({
      ...DEFAULT_USER_SETTINGS,
      read_receipts: false,
    });

    expect((await put({ settings: { email_notifications: false } })).statusCode).toBe(200);
    expect((await put({})).statusCode).toBe(200);
    expect(await settingsService.getSettings(userId)).toEqual({
      ...DEFAULT_USER_SETTINGS,
      read_receipts: false,
      email_notifications: false,
    });

    const unknown = await put({ settings: { dark_mode: true } });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(['settings.dark_mode']);

    // the host may set the time zone; the language is its top-level `locale`
    expect((await put({ locale: 'ar', settings: { time_zone: 'Africa/Cairo' } })).statusCode).toBe(
      200,
    );
    expect(await settingsService.getSettings(userId)).toMatchObject({
      locale: 'ar',
      time_zone: 'Africa/Cairo',
    });
    const badZone = await put({ settings: { time_zone: 'Cairo' } });
    expect(badZone.statusCode).toBe(422);
    expect(Object.keys(badZone.json().errors)).toEqual(['settings.time_zone']);
    const settingsLocale = await put({ settings: { locale: 'en' } });
    expect(settingsLocale.statusCode).toBe(422);
    expect(Object.keys(settingsLocale.json().errors)).toEqual(['settings.locale']);
    // one value: the host's write after the user's own wins (and the other way round)
    await settingsService.updateSettings(userId, { locale: 'en' });
    expect((await put({ locale: 'ar' })).statusCode).toBe(200);
    expect((await settingsService.getSettings(userId)).locale).toBe('ar');
    await settingsService.updateSettings(userId, { locale: 'en' });
    expect((await put({})).json().user.locale).toBe('en');
  });

  describe('one `locale`: the integration API’s and the settings’ are the same value', () => {
    const LINA_ID = 'host-lina-locale';
    let lina: Session;
    beforeAll(async () => {
      // the host knows Lina by its own id (as after importing its existing users)
      await ctx.database.db.kysely
        .updateTable('users')
        .set({ external_id: LINA_ID })
        .where('email', '=', LINA.email)
        .execute();
      lina = await signIn(ctx.app, LINA.email);
    });
    const host = (method: 'GET' | 'PUT', body?: Record<string, unknown>) =>
      ctx.app.inject({
        method,
        url: integrationPaths.user(LINA_ID),
        headers: { authorization: `Bearer ${INTEGRATION_KEY}` },
        ...(body ? { payload: { role: 'candidate', name: LINA.name, ...body } } : {}),
      });
    const hostLocale = async () => {
      const response = await host('GET');
      expect(response.statusCode).toBe(200);
      return integrationUserResponseSchema.parse(response.json()).user.locale;
    };

    it('the host’s PUT shows in the settings, the user’s choice in the integration API; the last write wins', async () => {
      expect(await hostLocale()).toBeNull();
      expect((await settingsOf(lina)).locale).toBe('en');

      // the host sets Arabic: the settings say so
      const put = await host('PUT', { locale: 'ar' });
      expect(put.statusCode).toBe(200);
      expect(put.json().user.locale).toBe('ar');
      expect((await settingsOf(lina)).locale).toBe('ar');

      // the user picks English on the page: the host reads English
      const picked = await patch(lina, { locale: 'en' });
      expect(picked.statusCode).toBe(200);
      expect(picked.json().settings.locale).toBe('en');
      expect(await hostLocale()).toBe('en');

      // the host writes again: its write is the last one
      expect((await host('PUT', { locale: 'ar' })).statusCode).toBe(200);
      expect((await settingsOf(lina)).locale).toBe('ar');
      expect(await hostLocale()).toBe('ar');

      // a PUT without `locale`, or a switch changed on the page, leaves it as it is
      expect((await host('PUT', {})).json().user.locale).toBe('ar');
      expect((await patch(lina, { show_online: false })).json().settings.locale).toBe('ar');
      expect(await hostLocale()).toBe('ar');

      // the language and a switch in one change: both kept
      const both = await patch(lina, { locale: 'en', show_online: true });
      expect(both.json().settings).toMatchObject({ locale: 'en', show_online: true });
      expect(await hostLocale()).toBe('en');

      // the host clears it: the settings fall back to English, the host reads null
      expect((await host('PUT', { locale: null })).json().user.locale).toBeNull();
      expect((await settingsOf(lina)).locale).toBe('en');
    });

    it('serves the messaging page in the saved locale (`<html lang dir>` and `data-user-locale`), `?lang=` first and saved', async () => {
      const webRoot = mkdtempSync(join(tmpdir(), 'web-'));
      writeFileSync(
        join(webRoot, 'index.html'),
        '<!doctype html>\n<html lang="en" dir="ltr">\n<head><meta name="csrf-token" content="__CSRF_TOKEN__" /></head></html>',
      );
      const { app } = await buildApp({ config: ctx.config, db: ctx.database.db, webRoot });
      try {
        const open = async (session: Session, query = '') => {
          const response = await app.inject({
            method: 'GET',
            url: `${paths.messages}${query}`,
            cookies: session.cookies,
          });
          expect(response.statusCode).toBe(200);
          return /<html[^>]*>/.exec(response.body)?.[0];
        };
        expect((await host('PUT', { locale: 'ar' })).statusCode).toBe(200);
        expect(await open(lina)).toBe('<html lang="ar" dir="rtl" data-user-locale="ar">');
        // an unknown language changes nothing
        expect(await open(lina, '?lang=xx')).toBe(
          '<html lang="ar" dir="rtl" data-user-locale="ar">',
        );
        expect(await hostLocale()).toBe('ar');
        // `?lang=` opens the page in it and saves it as the one locale, before the page's script runs
        expect(await open(lina, '?lang=en')).toBe(
          '<html lang="en" dir="ltr" data-user-locale="en">',
        );
        expect(await hostLocale()).toBe('en');
        expect((await settingsOf(lina)).locale).toBe('en');
        expect(await open(lina)).toBe('<html lang="en" dir="ltr" data-user-locale="en">');
        // never set: no saved locale for the page's script (it follows the browser)
        expect((await host('PUT', { locale: null })).statusCode).toBe(200);
        expect(await open(lina)).toBe('<html lang="en" dir="ltr">');
        expect(await open(lina, '?lang=ar')).toBe(
          '<html lang="ar" dir="rtl" data-user-locale="ar">',
        );
        expect(await hostLocale()).toBe('ar');
      } finally {
        await app.close();
      }
    });
  });
});
