import { describe, expect, it } from 'vitest';
import type { FrameMessage, HostMessage } from './embed-protocol.js';
import {
  frameMessageSchema,
  hostMessageSchema,
  type FrameMessageData,
  type HostMessageData,
} from './embed.js';

// the zod-free types (embed.js) and the schemas (the frame) say the same: typecheck fails otherwise
const _sameFrameMessages: [FrameMessage, FrameMessageData] = [
  {} as FrameMessageData,
  {} as FrameMessage,
];
const _sameHostMessages: [HostMessage, HostMessageData] = [
  {} as HostMessageData,
  {} as HostMessage,
];

describe('the embedding messages', () => {
  it('accepts every frame message of the protocol', () => {
    const messages: FrameMessage[] = [
      { source: 'job-messenger', type: 'ready' },
      { source: 'job-messenger', type: 'unread', count: 0 },
      {
        source: 'job-messenger',
        type: 'conversation',
        id: 4,
        company_external_id: 'acme',
        candidate_external_id: 'c-1',
        job_external_id: null,
      },
      { source: 'job-messenger', type: 'signin-required' },
    ];
    for (const message of messages) expect(frameMessageSchema.parse(message)).toEqual(message);
  });

  it('refuses what is not one', () => {
    for (const message of [
      { source: 'other', type: 'ready' },
      { source: 'job-messenger', type: 'unread', count: -1 },
      { source: 'job-messenger', type: 'close' },
    ])
      expect(frameMessageSchema.safeParse(message).success).toBe(false);
    for (const message of [
      { source: 'job-messenger', type: 'open', company: 'acme' },
      { source: 'job-messenger', type: 'open', company: '', candidate: 'c-1' },
      { source: 'job-messenger', type: 'open', company: 'a', candidate: 'b', job: 3 },
    ])
      expect(hostMessageSchema.safeParse(message).success).toBe(false);
    expect(
      hostMessageSchema.parse({
        source: 'job-messenger',
        type: 'open',
        company: 'a',
        candidate: 'b',
      }),
    ).toEqual({ source: 'job-messenger', type: 'open', company: 'a', candidate: 'b' });
  });
});
