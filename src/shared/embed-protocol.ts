/**
 * The embedded messenger's postMessage protocol and frame URL, free of zod so that embed.js
 * (src/embed/job-messenger.ts) can bundle it; the zod schemas of the same messages are in
 * src/shared/embed.ts (the frame's side).
 */

import { paths } from './paths.js';

/** Every message either way carries `source: EMBED_SOURCE`. */
export const EMBED_SOURCE = 'job-messenger';

export const EMBED_MODES = ['inbox', 'conversation', 'badge'] as const;
export type EmbedMode = (typeof EMBED_MODES)[number];

export const EMBED_SCHEMES = ['light', 'dark', 'auto'] as const;
export type EmbedScheme = (typeof EMBED_SCHEMES)[number];

/** The framed page. */
export const EMBED_FRAME_PATH = paths.messages;

/** The frame URL's query parameters (all but `embed` and `host_origin` optional). */
export const FRAME_PARAMS = {
  embed: 'embed',
  hostOrigin: 'host_origin',
  company: 'company',
  candidate: 'candidate',
  job: 'job',
  lang: 'lang',
  color: 'color',
  scheme: 'scheme',
  radius: 'radius',
  font: 'font',
} as const;

/**
 * A conversation as the host knows it: its messenger id and the host's external ids (each null
 * when that user or job was not made by the host).
 */
export interface EmbedConversationRef {
  id: number;
  company_external_id: string | null;
  candidate_external_id: string | null;
  job_external_id: string | null;
}

/** Frame → host. */
export type FrameMessage =
  | { source: typeof EMBED_SOURCE; type: 'ready' }
  | { source: typeof EMBED_SOURCE; type: 'unread'; count: number }
  | ({ source: typeof EMBED_SOURCE; type: 'conversation' } & EmbedConversationRef)
  | { source: typeof EMBED_SOURCE; type: 'signin-required' };

/** Host → frame. */
export interface OpenMessage {
  source: typeof EMBED_SOURCE;
  type: 'open';
  company: string;
  candidate: string;
  job?: string | null;
}
export type HostMessage = OpenMessage;
