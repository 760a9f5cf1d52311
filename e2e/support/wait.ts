import { isDeepStrictEqual } from 'node:util';

export interface WaitOptions {
  timeout: number;
  interval: number;
}

/** Generous waits for anything that crosses the network (never a timing assertion). */
export const WAIT: WaitOptions = { timeout: 20_000, interval: 100 };
export const LONG_WAIT: WaitOptions = { timeout: 60_000, interval: 250 };

/**
 * Polls `read` until it returns `expected` (deep equality); throws with the last value after the timeout.
 * Works in hooks too (unlike `expect.poll`).
 */
export const waitForValue = async <T>(
  read: () => T | Promise<T>,
  expected: T,
  what: string,
  options: WaitOptions = WAIT,
): Promise<void> => {
  const deadline = Date.now() + options.timeout;
  let last: T | undefined;
  let lastError: unknown;
  for (;;) {
    try {
      last = await read();
      lastError = undefined;
      if (isDeepStrictEqual(last, expected)) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, options.interval));
  }
  const got =
    lastError === undefined
      ? JSON.stringify(last)
      : `an error: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)}`;
  throw new Error(
    `Waited ${options.timeout} ms for ${what} to be ${JSON.stringify(expected)}, got ${got}`,
  );
};
