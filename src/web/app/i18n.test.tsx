import { screen, waitFor, within } from '@testing-library/react';
import { detectLanguage, LANGUAGE_STORAGE_KEY } from '../lib/i18n.js';
import { conversationList, renderMessagesPage, rowFor } from '../test/render-messages-page.js';

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

    await page.user.selectOptions(screen.getByTestId('language-switch'), 'en');
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'ltr'));
    expect(screen.getByText('no message item selected')).toBeInTheDocument();
  });

  it('chooses ?lang= first (and remembers it), then the remembered one, then the browser’s, then English', () => {
    expect(detectLanguage('?lang=ar', ['en-US'])).toBe('ar');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('ar');
    expect(detectLanguage('', ['en-US'])).toBe('ar');
    localStorage.clear();
    expect(detectLanguage('?lang=xx', ['ar-EG', 'en'])).toBe('ar');
    expect(detectLanguage('', ['fr-FR', 'de'])).toBe('en');
    expect(detectLanguage('', ['fr-FR', 'en-GB'])).toBe('en');
  });

  it('every key exists in both languages', async () => {
    const { translations } = await import('../test/render-messages-page.js');
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
