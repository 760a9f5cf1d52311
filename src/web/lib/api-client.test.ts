import { paths } from '../../shared/paths.js';
import { safetyPaths } from '../../shared/safety-paths.js';
import { ApiError, createApiClient, signInUrl } from './api-client.js';

const ok = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

describe('api client', () => {
  it('exists: HEAD says whether the resource is there (a redirect to its bytes is), throws when unsure', async () => {
    const answers = [
      new Response(null, { status: 200 }),
      new Response(null, { status: 404 }),
      new Response(null, { status: 403 }),
      new Response(null, { status: 503 }),
    ];
    const fetchImpl = vi.fn(async () => answers.shift()!);
    const client = createApiClient({ fetchImpl });
    expect(await client.exists(paths.attachment(7))).toBe(true);
    expect(fetchImpl).toHaveBeenLastCalledWith(
      '/user/attachments/7',
      expect.objectContaining({ method: 'HEAD', credentials: 'same-origin', redirect: 'manual' }),
    );
    expect(await client.exists(paths.attachment(7))).toBe(false);
    expect(await client.exists(paths.attachment(7))).toBe(false);
    await expect(client.exists(paths.attachment(7))).rejects.toBeInstanceOf(ApiError);
  });

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

  it('DELETE sends no body, the XSRF header, and a 204 resolves with undefined', async () => {
    document.cookie = 'XSRF-TOKEN=delete-token';
    const fetchImpl = vi.fn(async () => new Response(null, { status: 204 }));
    const answer = await createApiClient({ fetchImpl }).delete(safetyPaths.block(10));
    expect(answer).toBeUndefined();
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/user/blocks/10');
    expect(init.method).toBe('DELETE');
    expect(init.body).toBeUndefined();
    expect(init.headers).toMatchObject({ 'X-XSRF-TOKEN': 'delete-token' });
    expect(init.headers).not.toHaveProperty('Content-Type');
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

  it('once a call that ends the session has started, a 401 of a call racing it does not call onUnauthorized (the sign-out leaves by itself)', async () => {
    const onUnauthorized = vi.fn();
    let answerLogout: (response: Response) => void = () => undefined;
    const fetchImpl = vi.fn((url: string) =>
      url.startsWith(paths.logout)
        ? new Promise<Response>((resolve) => (answerLogout = resolve))
        : Promise.resolve(ok({ message: 'Unauthenticated.' }, 401)),
    );
    const client = createApiClient({ fetchImpl: fetchImpl as typeof fetch, onUnauthorized });
    const signingOut = client.post(paths.logout, {}, { endsSession: true });
    // a query that reached the server after the session was deleted, answered before the logout
    await expect(client.get(paths.initialData)).rejects.toMatchObject({ status: 401 });
    answerLogout(new Response(null, { status: 204 }));
    await expect(signingOut).resolves.toBeUndefined();
    await expect(client.get(paths.initialData)).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).not.toHaveBeenCalled();
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

  describe('upload (XMLHttpRequest: fetch reports no upload progress)', () => {
    /** Just enough of XMLHttpRequest: what was opened, sent and set, and a way to answer. */
    class FakeXhr extends EventTarget {
      static last: FakeXhr;
      readonly upload = new EventTarget();
      method = '';
      url = '';
      headers: Record<string, string> = {};
      body: unknown;
      status = 0;
      statusText = '';
      responseText = '';
      constructor() {
        super();
        FakeXhr.last = this;
      }
      open(method: string, url: string) {
        this.method = method;
        this.url = url;
      }
      setRequestHeader(name: string, value: string) {
        this.headers[name] = value;
      }
      send(body: unknown) {
        this.body = body;
      }
      abort() {
        this.dispatchEvent(new Event('abort'));
      }
      progress(loaded: number, total: number) {
        const event = Object.assign(new Event('progress'), {
          lengthComputable: true,
          loaded,
          total,
        });
        this.upload.dispatchEvent(event);
      }
      answer(status: number, body: unknown) {
        this.status = status;
        this.responseText = JSON.stringify(body);
        this.dispatchEvent(new Event('load'));
      }
    }
    const clientWithXhr = (onUnauthorized = vi.fn()) =>
      createApiClient({
        defaultQuery: () => ({ key: 'k', token: '' }),
        createXhr: () => new FakeXhr() as unknown as XMLHttpRequest,
        onUnauthorized,
      });
    const file = new File(['hello'], 'cv.txt', { type: 'text/plain' });

    it('POSTs the file as multipart in the named field, with the key, the CSRF header and progress', async () => {
      document.cookie = 'XSRF-TOKEN=up-token';
      const onProgress = vi.fn();
      const answer = clientWithXhr().upload(paths.attachments, 'file', file, { onProgress });
      const xhr = FakeXhr.last;
      expect(xhr.method).toBe('POST');
      expect(xhr.url).toBe('/user/attachments?key=k&token='); // the exact URL on the wire
      expect(xhr.headers).toMatchObject({ 'X-XSRF-TOKEN': 'up-token', Accept: 'application/json' });
      expect(xhr.headers).not.toHaveProperty('Content-Type'); // the browser adds the boundary
      expect((xhr.body as FormData).get('file')).toBeInstanceOf(File);
      xhr.progress(2, 5);
      expect(onProgress).toHaveBeenCalledWith(2, 5);
      const attachment = { id: 1, name: 'cv.txt', size: 5, mime: 'text/plain' };
      xhr.answer(201, { attachment });
      await expect(answer).resolves.toEqual({ attachment });
    });

    it('a refusal is a typed error with the server message; 401 calls onUnauthorized; abort is an AbortError', async () => {
      const onUnauthorized = vi.fn();
      const client = clientWithXhr(onUnauthorized);
      const refused = client.upload(paths.attachments, 'file', file);
      FakeXhr.last.answer(422, { message: 'Files of this kind (html) cannot be sent.' });
      await expect(refused).rejects.toMatchObject({
        status: 422,
        message: 'Files of this kind (html) cannot be sent.',
      });
      const signedOut = client.upload(paths.attachments, 'file', file);
      FakeXhr.last.answer(401, { message: 'Unauthenticated.' });
      await expect(signedOut).rejects.toBeInstanceOf(ApiError);
      expect(onUnauthorized).toHaveBeenCalledTimes(1);
      const controller = new AbortController();
      const aborted = client.upload(paths.attachments, 'file', file, { signal: controller.signal });
      controller.abort();
      await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
      const offline = client.upload(paths.attachments, 'file', file);
      FakeXhr.last.dispatchEvent(new Event('error'));
      await expect(offline).rejects.toMatchObject({ status: 0 });
    });
  });

  it('signInUrl carries the current path and query as next', () => {
    expect(signInUrl({ pathname: '/messages', search: '?target=1&tab=2' })).toBe(
      // The exact URL, encoding included (the literal is what this test is about).
      '/login?next=%2Fmessages%3Ftarget%3D1%26tab%3D2',
    );
  });
});
