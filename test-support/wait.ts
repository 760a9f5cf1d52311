import { isDeepStrictEqual } from 'node:util';

/**
 * Waiting in tests. Every limit here is a failure guard (how long before a test gives up with a
 * message that says what it waited for), never a timing assertion.
 */

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

export interface PollOptions {
  /** Give up after this long. */
  timeout: number;
  /** Pause between two reads. */
  interval: number;
}

/** Generous polls for anything that crosses the network (the browser tests). */
export const WAIT: PollOptions = { timeout: 20_000, interval: 100 };
export const LONG_WAIT: PollOptions = { timeout: 60_000, interval: 250 };

/**
 * Reads until `accept` takes the value; throws `failure(last value or error)` after the timeout.
 * With `retryErrors` a read that throws counts as "not yet", else its error ends the wait.
 */
const poll = async <T>(
  read: () => T | Promise<T>,
  accept: (value: T) => boolean,
  options: PollOptions & { retryErrors: boolean },
  failure: (last: { value?: T; error?: unknown }) => string,
): Promise<void> => {
  const deadline = Date.now() + options.timeout;
  let last: { value?: T; error?: unknown };
  for (;;) {
    try {
      const value = await read();
      last = { value };
      if (accept(value)) return;
    } catch (error) {
      if (!options.retryErrors) throw error;
      last = { error };
    }
    if (Date.now() >= deadline) throw new Error(failure(last));
    await sleep(options.interval);
  }
};

/** Polls a condition (for state that has no event to wait on) until it holds. */
export const until = (
  condition: () => boolean | Promise<boolean>,
  label: string,
  ms = 10_000,
  interval = 20,
): Promise<void> =>
  poll(
    condition,
    (held) => held,
    { timeout: ms, interval, retryErrors: false },
    () => `Timed out after ${ms} ms waiting until ${label}`,
  );

/**
 * Polls `read` until it returns `expected` (deep equality; a read that throws counts as "not
 * yet"); the error names the last value read. Works in hooks too (unlike `expect.poll`).
 */
export const waitForValue = <T>(
  read: () => T | Promise<T>,
  expected: T,
  what: string,
  options: PollOptions = WAIT,
): Promise<void> =>
  poll(
    read,
    (value) => isDeepStrictEqual(value, expected),
    { ...options, retryErrors: true },
    ({ value, error }) =>
      `Waited ${options.timeout} ms for ${what} to be ${JSON.stringify(expected)}, got ${
        error === undefined
          ? JSON.stringify(value)
          : `an error: ${error instanceof Error ? error.message : JSON.stringify(error)}`
      }`,
  );

/** Rejects after `ms` when the promise has not settled by then. */
export const within = <T>(promise: Promise<T>, label: string, ms = 10_000): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Timed out after ${ms} ms waiting for ${label}`)),
      ms,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
