import { describe, expect, it } from 'vitest';
import { authorizeWithRetries, ChannelAuthError } from './channel-authorization.js';

const answers = (...statuses: (number | 'no answer')[]) => {
  const asked: number[] = [];
  const attempt = () => {
    const status = statuses[asked.length] ?? 200;
    asked.push(asked.length);
    if (status === 'no answer') return Promise.reject(new TypeError('fetch failed'));
    return Promise.resolve(
      new Response(status === 200 ? JSON.stringify({ auth: 'key:signature' }) : 'refused', {
        status,
      }),
    );
  };
  return { attempt, asked };
};
const noWait = { sleep: () => Promise.resolve() };

describe('channel authorization', () => {
  it('tries again after a server failure or no answer, and gets the signature', async () => {
    const { attempt, asked } = answers(502, 'no answer', 503);
    await expect(authorizeWithRetries(attempt, noWait)).resolves.toEqual({ auth: 'key:signature' });
    expect(asked).toHaveLength(4);
  });

  it('takes a refusal as final', async () => {
    const { attempt, asked } = answers(403);
    await expect(authorizeWithRetries(attempt, noWait)).rejects.toMatchObject({ status: 403 });
    expect(asked).toHaveLength(1);
  });

  it('gives up after its last wait, or once the socket it was for is gone', async () => {
    const failing = answers(502, 502, 502, 502, 502, 502, 502);
    await expect(
      authorizeWithRetries(failing.attempt, { ...noWait, delaysMs: [1, 1] }),
    ).rejects.toBeInstanceOf(ChannelAuthError);
    expect(failing.asked).toHaveLength(3);

    const gone = answers(502, 502, 502);
    await expect(
      authorizeWithRetries(gone.attempt, { ...noWait, stillWanted: () => false }),
    ).rejects.toMatchObject({ status: 502 });
    expect(gone.asked).toHaveLength(1);
  });
});
