/**
 * Channel authorization (`POST /broadcasting/auth`) that tries again when the answer is a server
 * failure or no answer at all: during a rolling restart the proxy may answer 502 for a moment, and
 * pusher-js never asks twice for a channel whose authorization failed, so without this the page
 * would stay connected but deaf until its next reconnection. A refusal (4xx) is final.
 */
export interface ChannelAuthData {
  auth: string;
  channel_data?: string;
  shared_secret?: string;
}

/** The waits before each new try (about 8 s in all, with up to 20 % jitter). */
export const AUTH_RETRY_DELAYS_MS: readonly number[] = [250, 500, 1000, 2000, 4000];

export class ChannelAuthError extends Error {
  constructor(
    message: string,
    /** The HTTP status; 0 when there was no answer. */
    readonly status: number,
  ) {
    super(message);
    this.name = 'ChannelAuthError';
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const isFinal = (status: number) => status !== 0 && status < 500;

export const authorizeWithRetries = async (
  attempt: () => Promise<Response>,
  options: {
    delaysMs?: readonly number[];
    /** False once the authorization is no longer needed (the socket it was for is gone). */
    stillWanted?: () => boolean;
    sleep?: (ms: number) => Promise<void>;
  } = {},
): Promise<ChannelAuthData> => {
  const delays = options.delaysMs ?? AUTH_RETRY_DELAYS_MS;
  const sleep = options.sleep ?? wait;
  for (let tries = 0; ; tries += 1) {
    let failure: ChannelAuthError;
    try {
      const response = await attempt();
      if (response.ok) return (await response.json()) as ChannelAuthData;
      failure = new ChannelAuthError(
        `Channel authorization failed (${response.status}): ${await response.text()}`,
        response.status,
      );
    } catch (error) {
      failure = new ChannelAuthError(
        `Channel authorization got no answer: ${error instanceof Error ? error.message : String(error)}`,
        0,
      );
    }
    const delay = delays[tries];
    if (isFinal(failure.status) || delay === undefined || options.stillWanted?.() === false)
      throw failure;
    await sleep(delay * (1 + Math.random() * 0.2));
    if (options.stillWanted?.() === false) throw failure;
  }
};
