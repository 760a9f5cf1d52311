/**
 * Open-loop sends at a steady rate (run with `node --import tsx`, driven by spawn.ts): send i is
 * fired at start + i/rate whatever the earlier ones' answers, through POST /user/send/message with
 * the sender's Bearer token; each one is timed from the first byte written to the last byte of the
 * answer read (HDR histogram, µs) and its stored message's id and created_at are kept.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { paths } from '../../src/shared/paths.js';
import { createHistogram, encodeHistogram, recordMs } from './histogram.js';
import { firePacedCalls, httpCall, type HttpAnswer } from './http-call.js';
import { serveWorker } from './worker-runtime.js';

export interface PacedSend {
  conversationId: number;
  jobId: number;
  receiverId: number;
  senderToken: string;
}

export interface PacedSendRequest {
  url: string;
  /** Query string of every call (the app key). */
  query: string;
  sends: PacedSend[];
  /** Sends per second. */
  rate: number;
}

export interface PacedSendResult {
  /** Send latencies, µs (encoded HDR histogram). */
  histogram: string;
  ok: number;
  failed: number;
  statuses: Record<string, number>;
  errors: string[];
  /** By send index: the stored message (null when the send failed). */
  stored: ({ chatId: number; createdAt: string } | null)[];
  /** How late the last send was fired against its schedule, ms (the generator kept up if small). */
  maxFireLagMs: number;
  seconds: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const run = async (request: PacedSendRequest): Promise<PacedSendResult> => {
  const base = new URL(request.url);
  const path = `${paths.sendMessage}?${request.query}`;
  const histogram = createHistogram();
  const stored: PacedSendResult['stored'] = request.sends.map(() => null);
  let ok = 0;
  let maxFireLagMs = 0;

  const fire = (index: number, scheduledAt: number) => {
    const send = request.sends[index] as PacedSend;
    const started = performance.now();
    maxFireLagMs = Math.max(maxFireLagMs, started - scheduledAt);
    return httpCall(agent, base, {
      method: 'POST',
      path,
      headers: { accept: 'application/json', authorization: `Bearer ${send.senderToken}` },
      json: {
        receiver_id: send.receiverId,
        messenger_user: send.conversationId,
        job_id: send.jobId,
        message: `Notify bench message ${index} for receiver ${send.receiverId}`,
        client_id: randomUUID(),
      },
      timeoutMs: 30_000,
    }).then((answer) => {
      recordMs(histogram, performance.now() - started);
      return answer;
    });
  };
  const accepted = (index: number, answer: HttpAnswer) => {
    ok += 1;
    const { message } = JSON.parse(answer.body.toString()) as {
      message: { id: number; created_at: string };
    };
    stored[index] = { chatId: message.id, createdAt: message.created_at };
  };

  const started = performance.now();
  const tally = await firePacedCalls(request.sends.length, request.rate, fire, accepted, started);
  return {
    histogram: encodeHistogram(histogram),
    ok,
    failed: tally.failed,
    statuses: tally.statuses,
    errors: tally.errors,
    stored,
    maxFireLagMs: Math.round(maxFireLagMs * 10) / 10,
    seconds: (performance.now() - started) / 1000,
  };
};

serveWorker({ run: (payload: PacedSendRequest) => run(payload) }, () => agent.destroy());
