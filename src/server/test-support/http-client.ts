import { randomBytes } from 'node:crypto';

/** A minimal cookie-keeping client for a running server, signing in the way a browser does. */
export interface HttpSession {
  userId: number;
  role: string;
  name: string;
  cookie: string;
  csrf: string;
  /** fetch with the app key, the session cookie and the CSRF header. */
  call: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<Response>;
}

const cookieValue = (setCookies: string[], name: string): string | undefined => {
  for (const line of setCookies) {
    const [pair] = line.split(';');
    const [key, ...rest] = (pair ?? '').split('=');
    if (key?.trim() === name) return rest.join('=');
  }
  return undefined;
};

export const signInOverHttp = async (
  baseUrl: string,
  email: string,
  options: { appKey?: string; password?: string } = {},
): Promise<HttpSession> => {
  const xsrf = randomBytes(18).toString('base64url');
  const response = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: `XSRF-TOKEN=${xsrf}`,
      'x-xsrf-token': xsrf,
    },
    body: JSON.stringify({ email, password: options.password ?? 'password' }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in ${email}: ${response.status} ${await response.text()}`);
  const setCookies = response.headers.getSetCookie();
  const session = cookieValue(setCookies, 'messenger_session');
  const csrf = decodeURIComponent(cookieValue(setCookies, 'XSRF-TOKEN') ?? '');
  const { user } = (await response.json()) as { user: { id: number; role: string; name: string } };
  const cookie = `messenger_session=${session}; XSRF-TOKEN=${encodeURIComponent(csrf)}`;
  const key = options.appKey ?? 'local-app-key';
  return {
    userId: user.id,
    role: user.role,
    name: user.name,
    cookie,
    csrf,
    call: (method, path, body, headers = {}) =>
      fetch(
        `${baseUrl}${path}${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}&token=`,
        {
          method,
          headers: {
            cookie,
            'x-xsrf-token': csrf,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
      ),
  };
};
