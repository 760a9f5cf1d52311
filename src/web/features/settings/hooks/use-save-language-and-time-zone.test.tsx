import { waitFor } from '@testing-library/react';
import { candidateScenario } from '../../../../../test-support/web/fixtures.js';
import { renderMessagesPage } from '../../../../../test-support/web/render-messages-page.js';

/** This browser is in `zone`. */
const browserIn = (zone: string) => {
  const resolvedOptions = Intl.DateTimeFormat.prototype.resolvedOptions;
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (
    this: Intl.DateTimeFormat,
  ) {
    return { ...resolvedOptions.call(this), timeZone: zone };
  });
};

/** What an earlier version kept in this browser once it had saved the zone. */
const rememberedSavedZone = (userId: number, zone: string) =>
  localStorage.setItem(`messenger.timeZone.${userId}`, zone);

afterEach(() => vi.restoreAllMocks());

describe('the browser’s time zone is saved for notification e-mails', () => {
  it('saves it when the server holds another one, even if this browser saved it before (another device saved its own since)', async () => {
    const scenario = candidateScenario();
    browserIn('Asia/Riyadh');
    rememberedSavedZone(scenario.auth.id, 'Asia/Riyadh');
    const page = await renderMessagesPage({
      scenario,
      settings: { time_zone: 'Europe/London' },
    });
    await waitFor(() =>
      expect(page.api.updateSettings).toHaveBeenCalledWith({ time_zone: 'Asia/Riyadh' }),
    );
    expect(page.fake.state.settings.time_zone).toBe('Asia/Riyadh');
  });

  it('saves nothing when the server holds it already', async () => {
    browserIn('Asia/Riyadh');
    const page = await renderMessagesPage({ settings: { time_zone: 'Asia/Riyadh' } });
    await waitFor(() => expect(page.api.getSettings).toHaveBeenCalled());
    await waitFor(() => expect(page.api.getSettings.mock.results[0]?.type).toBe('return'));
    // the answer is applied a few ticks later: give it the time it needs, then look
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(page.api.updateSettings).not.toHaveBeenCalled();
  });
});

describe('`?lang=` is saved as the user’s locale', () => {
  afterEach(() => history.replaceState(null, '', '/'));

  it('saves it once signed in, then drops `lang` from the address (keeping the rest)', async () => {
    history.replaceState(null, '', '/messages?lang=ar&from=board');
    const page = await renderMessagesPage({
      language: 'ar',
      search: location.search,
      settings: { locale: 'en' },
    });
    await waitFor(() => expect(page.api.updateSettings).toHaveBeenCalledWith({ locale: 'ar' }));
    expect(page.fake.state.settings.locale).toBe('ar');
    await waitFor(() => expect(location.search).toBe('?from=board'));
  });

  it('saves nothing without a supported `lang`', async () => {
    history.replaceState(null, '', '/messages?lang=fr');
    const page = await renderMessagesPage({ search: location.search });
    await waitFor(() => expect(page.api.getSettings).toHaveBeenCalled());
    await waitFor(() => expect(page.api.getSettings.mock.results[0]?.type).toBe('return'));
    // both saves start in the same effect pass: had `lang` been saved, it would have been by now
    expect(page.api.updateSettings).not.toHaveBeenCalledWith(
      expect.objectContaining({ locale: expect.anything() }),
    );
    expect(location.search).toBe('?lang=fr');
  });
});
