import type { ErrorResponse } from '../../shared/api-fields.js';
import { csrfHeaders } from './csrf.js';

export type QueryValue = string | number | null | undefined;

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
    readonly errors?: ErrorResponse['errors'],
  ) {
    super(message);
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /** Send the CSRF header on a GET too (the unseen call changes state). */
  csrf?: boolean;
  /**
   * This call ends the session (sign-out): from its start on, a 401 of any call of this client is
   * expected and no longer calls `onUnauthorized` (which would send the page to sign in with
   * `return_to` = the page's URL, racing the sign-out's own departure).
   */
  endsSession?: boolean;
}

/** An upload's options: its progress (bytes sent of the whole request) and a way to stop it. */
export interface UploadOptions {
  onProgress?: (loaded: number, total: number) => void;
  /** Aborting rejects with a DOMException named `AbortError`. */
  signal?: AbortSignal;
}

export interface ApiClient {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  /** DELETE (no body); a 204 resolves with undefined. */
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
  /** POST of one file as multipart/form-data in the field `field`, with upload progress. */
  upload<T>(path: string, field: string, file: File, options?: UploadOptions): Promise<T>;
  /**
   * HEAD: whether the resource is there for this viewer (2xx, or a redirect to its bytes) or not
   * (403, 404, 410); anything else (no answer, 5xx) throws an `ApiError`.
   */
  exists(path: string): Promise<boolean>;
}

export interface ApiClientOptions {
  /** Query parameters every call carries (`key`, `token`). */
  defaultQuery?: () => Record<string, QueryValue>;
  /** The live connection's socket id, sent as `X-Socket-ID` when connected. */
  socketId?: () => string | undefined;
  /** Called on a 401 before the error is thrown (the page sends the visitor to sign in). */
  onUnauthorized?: () => void;
  fetchImpl?: typeof fetch;
  /** Uploads use XMLHttpRequest: fetch reports no upload progress. */
  createXhr?: () => XMLHttpRequest;
}

const buildUrl = (path: string, query: Record<string, QueryValue>): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(name, value === null ? '' : String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
};

const errorFromBody = (status: number, text: string, statusText: string): ApiError => {
  let body: Partial<ErrorResponse> | null;
  try {
    body = JSON.parse(text) as Partial<ErrorResponse>;
  } catch {
    body = null;
  }
  const message = typeof body?.message === 'string' ? body.message : statusText || 'Request failed';
  return new ApiError(status, message, body?.errors);
};

const readError = async (response: Response): Promise<ApiError> =>
  errorFromBody(response.status, await response.text().catch(() => ''), response.statusText);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

const abortError = () => new DOMException('The upload was aborted.', 'AbortError');

export const createApiClient = (options: ApiClientOptions = {}): ApiClient => {
  let sessionEnding = false;
  const unauthorized = () => {
    if (!sessionEnding) options.onUnauthorized?.();
  };
  const headersFor = (method: Method, csrf: boolean | undefined) => {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
    };
    if (method !== 'GET' || csrf) Object.assign(headers, csrfHeaders());
    const socketId = options.socketId?.();
    if (socketId) headers['X-Socket-ID'] = socketId;
    return headers;
  };

  const request = async <T>(
    method: Method,
    path: string,
    body: unknown,
    requestOptions: RequestOptions = {},
  ) => {
    if (requestOptions.endsSession) sessionEnding = true;
    const headers = headersFor(method, requestOptions.csrf);
    if (body !== undefined) headers['Content-Type'] = 'application/json';

    const url = buildUrl(path, { ...options.defaultQuery?.(), ...requestOptions.query });
    const doFetch = options.fetchImpl ?? fetch;
    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        headers,
        credentials: 'same-origin',
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (cause) {
      throw new ApiError(0, cause instanceof Error ? cause.message : 'Network error');
    }
    if (!response.ok) {
      const error = await readError(response);
      if (response.status === 401) unauthorized();
      throw error;
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };

  // The browser sets the multipart Content-Type (with its boundary) from the FormData.
  const upload = <T>(path: string, field: string, file: File, uploadOptions: UploadOptions = {}) =>
    new Promise<T>((resolve, reject) => {
      const { onProgress, signal } = uploadOptions;
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const xhr = options.createXhr?.() ?? new XMLHttpRequest();
      xhr.open('POST', buildUrl(path, { ...options.defaultQuery?.() }));
      for (const [name, value] of Object.entries(headersFor('POST', false)))
        xhr.setRequestHeader(name, value);
      const onAbort = () => xhr.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal?.removeEventListener('abort', onAbort);
      if (onProgress)
        xhr.upload.addEventListener('progress', (event) => {
          if (event.lengthComputable) onProgress(event.loaded, event.total);
        });
      xhr.addEventListener('load', () => {
        settle();
        if (xhr.status >= 200 && xhr.status < 300) {
          try {
            resolve((xhr.responseText ? JSON.parse(xhr.responseText) : undefined) as T);
          } catch {
            reject(new ApiError(xhr.status, 'The answer could not be read.'));
          }
          return;
        }
        if (xhr.status === 401) unauthorized();
        reject(errorFromBody(xhr.status, xhr.responseText, xhr.statusText));
      });
      xhr.addEventListener('error', () => {
        settle();
        reject(new ApiError(0, 'Network error'));
      });
      xhr.addEventListener('abort', () => {
        settle();
        reject(abortError());
      });
      const form = new FormData();
      form.append(field, file, file.name);
      xhr.send(form);
    });

  const exists = async (path: string): Promise<boolean> => {
    const doFetch = options.fetchImpl ?? fetch;
    let response: Response;
    try {
      response = await doFetch(path, {
        method: 'HEAD',
        credentials: 'same-origin',
        redirect: 'manual',
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
      });
    } catch (cause) {
      throw new ApiError(0, cause instanceof Error ? cause.message : 'Network error');
    }
    if (response.ok || response.type === 'opaqueredirect') return true;
    if (response.status === 401) unauthorized();
    if ([403, 404, 410].includes(response.status)) return false;
    throw new ApiError(response.status, response.statusText || 'Request failed');
  };

  return {
    upload,
    exists,
    get: (path, requestOptions) => request('GET', path, undefined, requestOptions),
    post: (path, body, requestOptions) => request('POST', path, body ?? {}, requestOptions),
    patch: (path, body, requestOptions) => request('PATCH', path, body, requestOptions),
    delete: (path, requestOptions) => request('DELETE', path, undefined, requestOptions),
  };
};

/**
 * `/login?next=<current path and query>`: where a signed-out visitor goes. With `LOGIN_URL` the
 * server sends `/login` on to the host's sign-in page, with `return_to` = this page's URL.
 */
export const signInUrl = (location: Pick<Location, 'pathname' | 'search'>): string =>
  `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
