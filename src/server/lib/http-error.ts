/** An error with an HTTP status that the app's single error handler turns into `{message, errors?}`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const forbidden = (message = 'This action is unauthorized.') => new HttpError(403, message);
export const unauthenticated = (message = 'Unauthenticated.') => new HttpError(401, message);
export const validationFailed = (field: string, message: string) =>
  new HttpError(422, message, { [field]: [message] });
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many requests.') =>
  new HttpError(429, message, undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
