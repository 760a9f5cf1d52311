import { paths } from '../../shared/paths.js';
import { ApiError, createApiClient, signInUrl } from './api-client.js';

const ok = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

describe('api client', () => {
  it('adds the default query, Accept, the socket id and (for POST) the XSRF header from the cookie', async () => {
    document.cookie = 'XSRF-TOKEN=tok%2Fen';
    const fetchImpl = vi.fn(async () => ok({ fine: true }));
    const client = createApiClient({
      fetchImpl,
      defaultQuery: () => ({ key: 'k', token: '' }),
      socketId: () => '1.2',
    });
    await client.get(paths.initialData, { query: { job_id: '' } });
    // The exact URL on the wire (the literal is what this test is about).
    expect(fetchImpl).toHaveBeenLastCalledWith(
      '/load/messengers/initial/data?key=k&token=&job_id=',
      expect.objectContaining({ method: 'GET', credentials: 'same-origin' }),
    );
    const getHeaders = (fetchImpl.mock.calls.at(-1) as unknown as [string, RequestInit])[1]
      .headers as Record<string, string>;
    expect(getHeaders).toMatchObject({ Accept: 'application/json', 'X-Socket-ID': '1.2' });
    expect(getHeaders['X-XSRF-TOKEN']).toBeUndefined();

    await client.post(paths.sendMessage, { message: 'hi' });
    const [url, init] = fetchImpl.mock.calls.at(-1) as unknown as [string, RequestInit];
    expect(url).toBe('/user/send/message?key=k&token='); // the exact URL on the wire
    expect(init.headers).toMatchObject({
      'X-XSRF-TOKEN': 'tok/en',
      'Content-Type': 'application/json',
    });
    expect(init.body).toBe('{"message":"hi"}');
  });

  it('GET with csrf (the unseen call) sends the header; falls back to the meta token', async () => {
    const meta = document.createElement('meta');
    meta.name = 'csrf-token';
    meta.content = 'meta-token';
    document.head.append(meta);
    const fetchImpl = vi.fn(async () => ok({ messengerUser: {} }));
    await createApiClient({ fetchImpl }).get(paths.unseen(1), { csrf: true });
    const [, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).toMatchObject({ 'X-CSRF-TOKEN': 'meta-token' });
    meta.remove();
  });

  it('PATCH sends the JSON body and the XSRF header', async () => {
    document.cookie = 'XSRF-TOKEN=patch-token';
    const fetchImpl = vi.fn(async () => ok({ settings: {} }));
    await createApiClient({ fetchImpl }).patch(paths.settings, { show_online: false });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/user/settings');
    expect(init.method).toBe('PATCH');
    expect(init.headers).toMatchObject({
      'X-XSRF-TOKEN': 'patch-token',
      'Content-Type': 'application/json',
    });
    expect(init.body).toBe('{"show_online":false}');
  });

  it('leaves out X-Socket-ID while not connected', async () => {
    const fetchImpl = vi.fn(async () => ok({}));
    await createApiClient({ fetchImpl, socketId: () => undefined }).get('/x');
    const [, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).not.toHaveProperty('X-Socket-ID');
  });

  it('throws a typed error with the server message and fields; 401 calls onUnauthorized', async () => {
    const onUnauthorized = vi.fn();
    const fetchImpl = vi
      .fn()
      .mockResolvedValueOnce(
        ok({ message: 'The given data was invalid.', errors: { message: ['Too long'] } }, 422),
      )
      .mockResolvedValueOnce(ok({ message: 'Unauthenticated.' }, 401));
    const client = createApiClient({ fetchImpl, onUnauthorized });
    const invalid = await client.post(paths.sendMessage, {}).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({
      status: 422,
      message: 'The given data was invalid.',
      errors: { message: ['Too long'] },
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
    await expect(client.get(paths.initialData)).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('204 resolves to undefined; a network failure is an ApiError with status 0', async () => {
    const fetchImpl = vi
      .fn()
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockRejectedValueOnce(new TypeError('offline'));
    const client = createApiClient({ fetchImpl });
    await expect(client.post(paths.logout)).resolves.toBeUndefined();
    await expect(client.get('/x')).rejects.toMatchObject({ status: 0 });
  });

  it('signInUrl carries the current path and query as next', () => {
    expect(signInUrl({ pathname: '/messages', search: '?target=1&tab=2' })).toBe(
      // The exact URL, encoding included (the literal is what this test is about).
      '/login?next=%2Fmessages%3Ftarget%3D1%26tab%3D2',
    );
  });
});
