import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ACME, SARA } from '../test-support/accounts.js';
import { waitForValue } from '../test-support/wait.js';
import { expectNoAxeViolations } from './support/axe.js';
import { PHONE, WIDE } from './support/browser.js';
import { chatMessages, openConversation, waitForMessagesPage } from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

const SITE_NAME = 'Nile Jobs';
/** A light accent: the page must put black text on it, and darken it where it is text. */
const BRAND_COLOR = '#facc15';
const BRAND_RGB = 'rgb(250, 204, 21)';
/** A same-origin image of the server's (a generated demo logo). */
const LOGO = '/images/logos/nile-jobs.svg';

/** Whether the `<img>` found by `selector` has loaded a real picture. */
const imageLoaded = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0);

/** The page's background is drawn dark (the dark scheme is in force), by its relative luminance. */
const pageIsDark = (page: Page) =>
  page.evaluate(() => {
    const [red = 255, green = 255, blue = 255] =
      getComputedStyle(document.body).backgroundColor.match(/\d+/g)?.map(Number) ?? [];
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue < 60;
  });

describe('the site’s brand (SITE_NAME, BRAND_LOGO_URL, BRAND_COLOR) and the dark scheme', () => {
  const suite = useE2eSuite({
    failOnConsoleErrors: true,
    // the unsubscribe page of a link that is not valid is answered 400 on purpose
    // (and a refused sign-in link 401)
    allowConsole: [/status of 400 .*\/unsubscribe\?token=1\.x/, /status of 401 .*\/sso\?token=/],
    env: {
      SITE_NAME,
      BRAND_LOGO_URL: LOGO,
      BRAND_COLOR,
      SSO_SECRET: 'sso-secret-for-the-brand-browser-tests-0123456789',
    },
  });

  it('the header shows the logo and the name, the accent is BRAND_COLOR with black text on it, the title names the site', async () => {
    const sara = await suite.newUser('brand-header', { viewport: WIDE });
    const page = sara.page;
    await page.goto('/login?lang=en');
    expect(await page.title()).toBe(`Sign in · ${SITE_NAME}`);
    await page.getByRole('img', { name: SITE_NAME }).waitFor();
    expect(await imageLoaded(page, `img[alt="${SITE_NAME}"]`)).toBe(true);

    await signInWithForm(page, SARA);
    const header = page.getByRole('banner');
    expect(await header.getByRole('heading', { level: 1 }).textContent()).toBe(SITE_NAME);
    const logo = header.getByRole('img', { name: SITE_NAME });
    expect(await logo.getAttribute('src')).toBe(LOGO);
    expect(await imageLoaded(page, `header img[alt="${SITE_NAME}"]`)).toBe(true);
    expect(await header.evaluate((element) => getComputedStyle(element).borderTopColor)).toBe(
      BRAND_RGB,
    );
    // Sara has unread messages: `(N) Messages · Nile Jobs`
    await waitForValue(
      async () => /^\(\d+\) Messages · Nile Jobs$/.test(await page.title()),
      true,
      'the title with the unread count and the site',
    );

    // an own message: the bubble is the brand's colour, its text black (it contrasts more)
    await openConversation(page, ACME.name);
    const bubble = chatMessages(page, 'I led the path-planning module')
      .locator('.message__bubble')
      .first();
    await bubble.waitFor();
    expect(await bubble.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      BRAND_RGB,
    );
    expect(await bubble.evaluate((element) => getComputedStyle(element).color)).toBe(
      'rgb(0, 0, 0)',
    );
    await suite.close(sara);
  });

  it('axe finds nothing in the light scheme with this accent (list, conversation, sign-in, unsubscribe)', async () => {
    const visitor = await suite.newUser('brand-light-axe', { viewport: WIDE, bypassCSP: true });
    const page = visitor.page;
    await page.goto('/unsubscribe?token=1.x');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.title()).toBe(`This link is invalid · ${SITE_NAME}`);
    expect(await imageLoaded(page, `img[alt="${SITE_NAME}"]`)).toBe(true);
    await expectNoAxeViolations(page, 'the unsubscribe page (light)');

    await page.goto('/login?lang=en');
    await page.getByRole('button', { name: new RegExp(`^${SARA.name}`) }).waitFor();
    await expectNoAxeViolations(page, 'the sign-in page (light)');

    await signInWithForm(page, SARA);
    expect(await pageIsDark(page)).toBe(false);
    await expectNoAxeViolations(page, 'the messages page (light)');
    await openConversation(page, ACME.name);
    await chatMessages(page, 'I led the path-planning module').waitFor();
    await expectNoAxeViolations(page, 'an open conversation (light)');
    await suite.close(visitor);
  });

  for (const language of ['en', 'ar'] as const) {
    it(`dark scheme, ${language === 'en' ? 'English' : 'Arabic'}: axe finds nothing on the sign-in, unsubscribe and messages pages`, async () => {
      const visitor = await suite.newUser(`brand-dark-${language}`, {
        viewport: WIDE,
        bypassCSP: true,
        colorScheme: 'dark',
        locale: language === 'ar' ? 'ar' : 'en-US',
      });
      const page = visitor.page;
      await page.goto(`/unsubscribe?token=1.x`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await pageIsDark(page)).toBe(true);
      await expectNoAxeViolations(page, `the unsubscribe page (dark, ${language})`);

      await page.goto('/sso?token=not-a-sign-in-link');
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.title()).toMatch(new RegExp(` · ${SITE_NAME}$`));
      expect(await imageLoaded(page, `img[alt="${SITE_NAME}"]`)).toBe(true);
      expect(await pageIsDark(page)).toBe(true);
      await expectNoAxeViolations(page, `the refused sign-in link's page (dark, ${language})`);

      await page.goto(`/login?lang=${language}`);
      await page.getByRole('button', { name: new RegExp(`^${SARA.name}`) }).waitFor();
      expect(await pageIsDark(page)).toBe(true);
      await expectNoAxeViolations(page, `the sign-in page (dark, ${language})`);

      await signInWithForm(page, SARA);
      await page.goto(`/messages?lang=${language}`);
      await waitForMessagesPage(page);
      expect(await pageIsDark(page)).toBe(true);
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      await expectNoAxeViolations(page, `the messages page (dark, ${language})`);
      await openConversation(page, ACME.name, page, {
        placeholder: language === 'ar' ? 'اكتب رسالة...' : 'Write Message...',
      });
      await chatMessages(page, 'I led the path-planning module').waitFor();
      await expectNoAxeViolations(page, `an open conversation (dark, ${language})`);

      // the settings menu (switches, the muted descriptions) in the dark too
      await page.getByTestId('settings-button').click();
      await page.getByTestId('settings-panel').waitFor();
      await expectNoAxeViolations(page, `the settings menu (dark, ${language})`);
      await suite.close(visitor);
    });
  }

  it('dark scheme on a phone: the drawer is axe-clean', async () => {
    const visitor = await suite.newUser('brand-dark-phone', {
      viewport: PHONE,
      bypassCSP: true,
      colorScheme: 'dark',
    });
    const page = visitor.page;
    await signInWithForm(page, SARA);
    expect(await pageIsDark(page)).toBe(true);
    await expectNoAxeViolations(page, 'the list on a phone (dark)');
    await suite.close(visitor);
  });
});
