export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a condition until it holds; fails with `label` after `ms` (a failure guard, not a timing assertion). */
export const until = async (
  condition: () => boolean | Promise<boolean>,
  label: string,
  ms = 30_000,
): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting until ${label}`);
    await sleep(25);
  }
};

/** Rejects after `ms` with `label` when the promise has not settled. */
export const within = <T>(promise: Promise<T>, label: string, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms: ${label}`)), ms);
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
