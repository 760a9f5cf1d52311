import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { ApiProvider } from '../lib/api-provider.js';
import { createApiClient } from '../lib/api-client.js';
import { createTestI18n } from '../../../test-support/web/render-messages-page.js';
import { paths } from '../../shared/paths.js';
import { LoginPage } from './login-page.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const demoAccounts = [
  { email: 'candidate@example.com', name: 'Sara Haddad', role: 'candidate' },
  { email: 'company@example.com', name: 'Acme Robotics', role: 'company' },
];

const renderLogin = async ({
  search = '',
  accounts = demoAccounts as typeof demoAccounts | null,
  loginStatus = 200,
} = {}) => {
  const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
    if (path.startsWith(paths.demoAccounts))
      return accounts ? json(200, { accounts }) : json(404, { message: 'Not found.' });
    if (path.startsWith(paths.login) && init?.method === 'POST') {
      return loginStatus === 200
        ? json(200, { user: { id: 1, name: 'Sara Haddad', role: 'candidate' } })
        : json(loginStatus, { message: 'server says no' });
    }
    return json(404, { message: 'Not found' });
  });
  const client = createApiClient({ fetchImpl: fetchImpl as typeof fetch });
  const appI18n = await createTestI18n('en');
  const navigate = vi.fn();
  const user = userEvent.setup();
  render(
    <ApiProvider client={client}>
      <I18nextProvider i18n={appI18n.i18n}>
        <LoginPage appI18n={appI18n} search={search} navigate={navigate} />
      </I18nextProvider>
    </ApiProvider>,
  );
  return { fetchImpl, navigate, user };
};

const loginCall = (fetchImpl: ReturnType<typeof vi.fn>) =>
  fetchImpl.mock.calls.find(
    ([url, init]) => String(url) === paths.login && (init as RequestInit)?.method === 'POST',
  );

describe('sign-in page', () => {
  it('signs in with email and password, sending the CSRF header, then goes to `next`', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D%3D';
    const page = await renderLogin({ search: '?next=%2Fmessages%3Ftarget%3D10%26tab%3D1' });
    await page.user.type(screen.getByLabelText('Email'), 'candidate@example.com');
    await page.user.type(screen.getByLabelText('Password'), 'password');
    await page.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(page.navigate).toHaveBeenCalledWith('/messages?target=10&tab=1'));
    const [, init] = loginCall(page.fetchImpl)!;
    expect(JSON.parse((init as RequestInit).body as string)).toEqual({
      email: 'candidate@example.com',
      password: 'password',
    });
    expect((init as RequestInit).headers).toMatchObject({
      'X-XSRF-TOKEN': 'abc==',
      Accept: 'application/json',
    });
  });

  it('ignores a `next` that leaves the site', async () => {
    const page = await renderLogin({ search: '?next=%2F%2Fevil.example%2F' });
    await page.user.click(await screen.findByRole('button', { name: /Sara Haddad/ }));
    await waitFor(() => expect(page.navigate).toHaveBeenCalledWith('/messages'));
  });

  it('demo accounts are one click away and use the demo password', async () => {
    const page = await renderLogin();
    const demo = await screen.findByRole('button', { name: /company@example\.com/ });
    // named by all it shows (name, email, role): speech input can say what is seen
    expect(demo).toHaveAccessibleName(/^Acme Robotics\s*company@example\.com\s*Company$/);
    await page.user.click(demo);
    await waitFor(() => expect(page.navigate).toHaveBeenCalledWith('/messages'));
    const [, init] = loginCall(page.fetchImpl)!;
    expect(JSON.parse((init as RequestInit).body as string)).toEqual({
      email: 'company@example.com',
      password: 'password',
    });
  });

  it('no demo accounts outside demo mode (the call answers 404), and no error about it', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const page = await renderLogin({ accounts: null });
    await waitFor(() =>
      expect(
        page.fetchImpl.mock.calls.some(([url]) =>
          String(url as string).startsWith(paths.demoAccounts),
        ),
      ).toBe(true),
    );
    // Let the answer's promise chain settle before looking for a logged error.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await waitFor(() => expect(screen.queryByText('Demo accounts')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it.each([
    [401, 'These credentials do not match our records.'],
    [429, 'Too many attempts. Please wait a moment and try again.'],
    [419, 'Your session expired. Reload the page and try again.'],
  ])('explains a %i', async (status, text) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const page = await renderLogin({ loginStatus: status });
    await page.user.type(screen.getByLabelText('Email'), 'candidate@example.com');
    await page.user.type(screen.getByLabelText('Password'), 'wrong');
    await page.user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(page.navigate).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Email')).toHaveValue('candidate@example.com');
    errors.mockRestore();
  });
});
