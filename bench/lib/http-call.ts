/**
 * The load generators' HTTP calls and open-loop pacing (`node:http` with a keep-alive agent of
 * their own: no fetch, whose pooling and streams would be timed too).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface HttpCall {
  method: 'GET' | 'POST';
  /** The path with its query. */
  path: string;
  headers?: Record<string, string>;
  /** A body sent as JSON (with its content-type and content-length). */
  json?: unknown;
  /** A body written as these chunks, one after the other (its headers given in `headers`). */
  chunks?: Buffer[];
  /** The call fails when no answer has ended by then (no limit when absent). */
  timeoutMs?: number;
  /** The error of a call past `timeoutMs` (default "request timeout"). */
  timeoutMessage?: string;
}

export interface HttpAnswer {
  status: number;
  body: Buffer;
  /** From the first byte written to the last byte of the body read, ms. */
  ms: number;
}

/** One call to `base` (the server's http://host:port) through `agent`. */
export const httpCall = (agent: http.Agent, base: URL, call: HttpCall): Promise<HttpAnswer> =>
  new Promise((resolve, reject) => {
    const text = call.json === undefined ? undefined : JSON.stringify(call.json);
    const started = performance.now();
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        path: call.path,
        method: call.method,
        agent,
        headers: {
          ...call.headers,
          ...(text === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          }),
        );
        response.on('error', reject);
      },
    );
    if (call.timeoutMs !== undefined)
      request.setTimeout(call.timeoutMs, () =>
        request.destroy(new Error(call.timeoutMessage ?? 'request timeout')),
      );
    request.on('error', reject);
    for (const chunk of call.chunks ?? []) request.write(chunk);
    request.end(text);
  });

/**
 * Open loop: calls `fire(i, scheduledAt)` for i = 0 … count − 1 at `started` + i ÷ `rate` s,
 * whatever the earlier calls' answers (several at once when the timer is late); resolves once the
 * last one is fired.
 */
export const firePaced = (
  count: number,
  rate: number,
  fire: (index: number, scheduledAt: number) => void,
  started = performance.now(),
): Promise<void> =>
  new Promise<void>((resolveAll) => {
    let next = 0;
    const tick = () => {
      const due = Math.min(count, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
      while (next < due) {
        fire(next, started + (next * 1000) / rate);
        next += 1;
      }
      if (next >= count) {
        resolveAll();
        return;
      }
      const nextAt = started + (next * 1000) / rate;
      setTimeout(tick, Math.max(0, nextAt - performance.now()));
    };
    tick();
  });

/** Calls under way: `track` each one, `settled` waits until none is left (new ones included). */
export const createInFlight = () => {
  const calls = new Set<Promise<void>>();
  return {
    track: (call: Promise<void>): void => {
      calls.add(call);
      void call.finally(() => calls.delete(call));
    },
    settled: async (): Promise<void> => {
      while (calls.size > 0) await Promise.all([...calls]);
    },
  };
};

/** The outcome of many calls: answers by status ("error" for calls that failed), and failures. */
export interface CallTally {
  statuses: Record<string, number>;
  failed: number;
  /** The first 10 failures: status and the answer's start, or the error. */
  errors: string[];
}

export const createTally = (): CallTally => ({ statuses: {}, failed: 0, errors: [] });

/** Counts an answer; true when it is `expected`, else it counts as a failure. */
export const tallyAnswer = (tally: CallTally, answer: HttpAnswer, expected = 200): boolean => {
  tally.statuses[answer.status] = (tally.statuses[answer.status] ?? 0) + 1;
  if (answer.status === expected) return true;
  tally.failed += 1;
  if (tally.errors.length < 10)
    tally.errors.push(`${answer.status} ${answer.body.toString().slice(0, 200)}`);
  return false;
};

/** Counts a call that got no answer. */
export const tallyError = (tally: CallTally, error: unknown): void => {
  tally.failed += 1;
  tally.statuses.error = (tally.statuses.error ?? 0) + 1;
  if (tally.errors.length < 10)
    tally.errors.push(error instanceof Error ? error.message : String(error));
};

/**
 * Open-loop calls (see `firePaced`): `fire(i, scheduledAt)` starts call i, or answers null when it
 * made none; each answer is tallied (status 200 expected) and an accepted one goes to
 * `accepted(i, answer)`. Resolves with the tally once every call made has settled.
 */
export const firePacedCalls = async (
  count: number,
  rate: number,
  fire: (index: number, scheduledAt: number) => Promise<HttpAnswer> | null,
  accepted: (index: number, answer: HttpAnswer) => void,
  started?: number,
): Promise<CallTally> => {
  const tally = createTally();
  const inFlight = createInFlight();
  await firePaced(
    count,
    rate,
    (index, scheduledAt) => {
      const call = fire(index, scheduledAt);
      if (!call) return;
      inFlight.track(
        call.then(
          (answer) => {
            if (tallyAnswer(tally, answer)) accepted(index, answer);
          },
          (error: unknown) => tallyError(tally, error),
        ),
      );
    },
    started,
  );
  await inFlight.settled();
  return tally;
};
