import { screen, waitFor, within } from '@testing-library/react';
import {
  chooseLanguage,
  detectLanguage,
  detectPageLanguage,
  LANGUAGE_STORAGE_KEY,
  savedLocaleOfPage,
} from '../lib/i18n.js';
import {
  conversationList,
  renderMessagesPage,
  rowFor,
} from '../../../test-support/web/render-messages-page.js';

describe('languages', () => {
  it('Arabic: <html dir="rtl" lang="ar"> and translated strings everywhere', async () => {
    const page = await renderMessagesPage({ language: 'ar' });
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(screen.getByRole('heading', { name: 'كل الرسائل' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('ابحث عن شركة')).toBeInTheDocument();
    expect(screen.getByText('لم يتم تحديد أي محادثة')).toBeInTheDocument();
    expect(rowFor(/^Acme Robotics، رسالتان غير مقروءتين/, conversationList())).toBeInTheDocument();
    // relative times in Arabic
    expect(within(conversationList()).getAllByText(/قبل/).length).toBeGreaterThan(0);

    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('Can you do an interview on Monday?');
    expect(screen.getByPlaceholderText('اكتب رسالة...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'إرسال' })).toBeInTheDocument();
    expect(screen.getByText('نشطة')).toBeInTheDocument();
    // dates through Intl in Arabic (Arabic month name or today/yesterday words)
    expect(screen.getAllByTestId('date-separator').at(-1)).toHaveTextContent('اليوم');
  });

  it('the language switch changes language and direction and is remembered', async () => {
    const page = await renderMessagesPage();
    const languageSwitch = screen.getByTestId('language-switch');
    expect(languageSwitch).toHaveValue('en');
    await page.user.selectOptions(languageSwitch, 'ar');
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'));
    expect(screen.getByText('لم يتم تحديد أي محادثة')).toBeInTheDocument();
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('ar');
    // saved as the user's locale (what the host's API reads too)
    await waitFor(() => expect(page.api.updateSettings).toHaveBeenCalledWith({ locale: 'ar' }));
    expect(page.fake.state.settings.locale).toBe('ar');

    await page.user.selectOptions(screen.getByTestId('language-switch'), 'en');
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'ltr'));
    expect(screen.getByText('no message item selected')).toBeInTheDocument();
  });

  it('the sign-in page: ?lang= first (remembered), then the one remembered in this browser, then the browser’s, then English', () => {
    expect(detectLanguage('?lang=ar', ['en-US'])).toBe('ar');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('ar');
    expect(detectLanguage('', ['en-US'])).toBe('ar');
    localStorage.clear();
    expect(detectLanguage('?lang=xx', ['ar-EG', 'en'])).toBe('ar');
    expect(detectLanguage('', ['fr-FR', 'de'])).toBe('en');
    expect(detectLanguage('', ['fr-FR', 'en-GB'])).toBe('en');
  });

  describe('the messaging page: `?lang=`, else the saved locale, else the browser’s, else English', () => {
    afterEach(() => {
      delete document.documentElement.dataset.userLocale;
    });

    it('takes them in that order', () => {
      expect(chooseLanguage('ar', 'en', ['en-US'])).toBe('ar');
      expect(chooseLanguage('en', 'ar', ['ar-EG'])).toBe('en');
      expect(chooseLanguage(null, 'ar', ['en-US'])).toBe('ar');
      expect(chooseLanguage('xx', 'ar', ['en-US'])).toBe('ar');
      expect(chooseLanguage(undefined, undefined, ['fr-FR', 'ar-EG', 'en'])).toBe('ar');
      expect(chooseLanguage(undefined, 'fr', ['en-GB', 'ar'])).toBe('en');
      expect(chooseLanguage(undefined, null, ['fr-FR', 'de'])).toBe('en');
      expect(chooseLanguage(undefined, null, [])).toBe('en');
    });

    it('reads the saved locale from the served page, and never a choice this browser remembers', () => {
      // chosen on the sign-in page of this browser: not the user's language on the messaging page
      localStorage.setItem(LANGUAGE_STORAGE_KEY, 'ar');
      expect(detectPageLanguage('', ['en-US'])).toBe('en');
      expect(savedLocaleOfPage()).toBeUndefined();

      document.documentElement.dataset.userLocale = 'ar';
      localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
      expect(savedLocaleOfPage()).toBe('ar');
      expect(detectPageLanguage('', ['en-US'])).toBe('ar');
      expect(detectPageLanguage('?tab=3&lang=en', ['ar'])).toBe('en');
      // `?lang=` is remembered for the sign-in page
      expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');

      // what the server could not fill in (a page not served by it) counts as nothing saved
      document.documentElement.dataset.userLocale = '__USER_LOCALE__';
      expect(detectPageLanguage('', ['ar-EG'])).toBe('ar');
      expect(detectPageLanguage('', ['de'])).toBe('en');
    });
  });

  it('every key exists in both languages', async () => {
    const { translations } = await import('../../../test-support/web/render-messages-page.js');
    const keys = (value: unknown, prefix = ''): string[] =>
      Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
        typeof child === 'object' && child !== null
          ? keys(child, `${prefix}${key}.`)
          : [`${prefix}${key.replace(/_(zero|one|two|few|many|other)$/, '')}`],
      );
    expect([...new Set(keys(translations.ar))].sort()).toEqual(
      [...new Set(keys(translations.en))].sort(),
    );
  });
});
