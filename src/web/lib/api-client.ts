import type { ErrorResponse } from '../../shared/api.js';
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
}

export interface ApiClient {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
}

export interface ApiClientOptions {
  /** Query parameters every call carries (`key`, `token`). */
  defaultQuery?: () => Record<string, QueryValue>;
  /** The live connection's socket id, sent as `X-Socket-ID` when connected. */
  socketId?: () => string | undefined;
  /** Called on a 401 before the error is thrown (the page sends the visitor to sign in). */
  onUnauthorized?: () => void;
  fetchImpl?: typeof fetch;
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

const readError = async (response: Response): Promise<ApiError> => {
  let body: Partial<ErrorResponse> | null;
  try {
    body = (await response.json()) as Partial<ErrorResponse>;
  } catch {
    body = null;
  }
  const message =
    typeof body?.message === 'string' ? body.message : response.statusText || 'Request failed';
  return new ApiError(response.status, message, body?.errors);
};

export const createApiClient = (options: ApiClientOptions = {}): ApiClient => {
  const request = async <T>(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body: unknown,
    requestOptions: RequestOptions = {},
  ) => {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method !== 'GET' || requestOptions.csrf) Object.assign(headers, csrfHeaders());
    const socketId = options.socketId?.();
    if (socketId) headers['X-Socket-ID'] = socketId;

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
      if (response.status === 401) options.onUnauthorized?.();
      throw error;
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };

  return {
    get: (path, requestOptions) => request('GET', path, undefined, requestOptions),
    post: (path, body, requestOptions) => request('POST', path, body ?? {}, requestOptions),
    patch: (path, body, requestOptions) => request('PATCH', path, body, requestOptions),
  };
};

/** `/login?next=<current path and query>`: where a signed-out visitor goes. */
export const signInUrl = (location: Pick<Location, 'pathname' | 'search'>): string =>
  `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
