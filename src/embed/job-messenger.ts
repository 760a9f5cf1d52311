import {
  EMBED_FRAME_PATH,
  EMBED_SOURCE,
  FRAME_PARAMS,
  type EmbedConversationRef,
  type EmbedMode,
  type EmbedScheme,
  type HostMessage,
} from '../shared/embed-protocol.js';

/**
 * embed.js: the host page's side of the embedded messenger (`window.JobMessenger.mount`). It makes
 * the messenger's iframe and talks to it with postMessage, checking origins both ways: it accepts
 * only messages from the messenger's origin and its own frame's window, and posts only to that
 * origin. Built by scripts/build-embed.mjs (IIFE, minified) into dist/web/embed.js.
 */

export type { EmbedConversationRef, EmbedMode, EmbedScheme };

export interface MountTheme {
  /** The accent, `#rrggbb` (text on it black or white, whichever contrasts more). */
  color?: string;
  colorScheme?: EmbedScheme;
  /** Corner radius: a CSS length from 0 to 32px, or a number of px. */
  radius?: string | number;
  /** A font-family list (letters, digits, spaces, `,`, `-`, `_`, quotes). */
  fontFamily?: string;
}

/** The host ids of a conversation: opened, or created without a message. */
export interface ConversationIds {
  company: string;
  candidate: string;
  job?: string | null;
}

interface CommonOptions {
  /** A sign-in link made by the host's server (`…/sso?token=…`); the frame path becomes its `next`. */
  signInUrl?: string;
  /** `en` or `ar`. */
  locale?: string;
  theme?: MountTheme;
  /** The messenger's base URL; default: where embed.js was loaded from. */
  url?: string;
}

export type MountOptions = CommonOptions &
  ({ mode?: 'inbox' } | ({ mode: 'conversation' } & ConversationIds) | { mode: 'badge' });

/** Each event's detail. */
export interface JobMessengerEvents {
  ready: undefined;
  unread: { count: number };
  conversation: EmbedConversationRef;
  'signin-required': undefined;
}
export type JobMessengerEvent = keyof JobMessengerEvents;
export type JobMessengerListener<E extends JobMessengerEvent> = (
  detail: JobMessengerEvents[E],
) => void;

export interface JobMessengerHandle {
  /** Removes the iframe and stops listening. */
  destroy(): void;
  /** Opens (or creates) a conversation in the frame (inbox and conversation modes). */
  open(ids: ConversationIds): void;
  /** Listens to an event; returns the function that stops listening. */
  on<E extends JobMessengerEvent>(event: E, listener: JobMessengerListener<E>): () => void;
}

const TITLES: Record<EmbedMode, string> = {
  inbox: 'Messages',
  conversation: 'Conversation',
  badge: 'Unread messages',
};

/** Where this script was loaded from, read while it runs (null once loaded, or when bundled). */
const scriptSrc =
  typeof document === 'undefined'
    ? undefined
    : (document.currentScript as HTMLScriptElement | null)?.src;

/** The frame's path and query: `/messages?embed=…&host_origin=…&…`. */
export const framePath = (options: MountOptions, hostOrigin: string): string => {
  const mode = options.mode ?? 'inbox';
  const params = new URLSearchParams();
  const set = (name: string, value: string | number | null | undefined) => {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  };
  set(FRAME_PARAMS.embed, mode);
  set(FRAME_PARAMS.hostOrigin, hostOrigin);
  if (options.mode === 'conversation') {
    set(FRAME_PARAMS.company, options.company);
    set(FRAME_PARAMS.candidate, options.candidate);
    set(FRAME_PARAMS.job, options.job);
  }
  set(FRAME_PARAMS.lang, options.locale);
  const theme = options.theme ?? {};
  set(FRAME_PARAMS.color, theme.color);
  set(FRAME_PARAMS.scheme, theme.colorScheme);
  set(FRAME_PARAMS.radius, theme.radius);
  set(FRAME_PARAMS.font, theme.fontFamily);
  return `${EMBED_FRAME_PATH}?${params.toString()}`;
};

/** The iframe's src: the sign-in link with the frame path as `next`, else the frame itself. */
export const frameSrc = (options: MountOptions, base: string, hostOrigin: string): string => {
  const path = framePath(options, hostOrigin);
  if (!options.signInUrl) return new URL(path, base).href;
  const link = new URL(options.signInUrl, base).href;
  return `${link}${link.includes('?') ? '&' : '?'}next=${encodeURIComponent(path)}`;
};

type FrameData = { source: string; type: string; count?: unknown; id?: unknown } & Record<
  string,
  unknown
>;

const detailOf = (data: FrameData): [JobMessengerEvent, unknown] | null => {
  switch (data.type) {
    case 'ready':
    case 'signin-required':
      return [data.type, undefined];
    case 'unread':
      return typeof data.count === 'number' ? ['unread', { count: data.count }] : null;
    case 'conversation':
      return typeof data.id === 'number'
        ? [
            'conversation',
            {
              id: data.id,
              company_external_id: data.company_external_id,
              candidate_external_id: data.candidate_external_id,
              job_external_id: data.job_external_id ?? null,
            },
          ]
        : null;
    default:
      return null;
  }
};

export const mount = (element: HTMLElement, options: MountOptions = {}): JobMessengerHandle => {
  const base = options.url ?? scriptSrc;
  if (!base) throw new Error('JobMessenger: no messenger URL (pass options.url)');
  const messengerOrigin = new URL(base).origin;
  const mode = options.mode ?? 'inbox';

  const iframe = document.createElement('iframe');
  iframe.title = TITLES[mode] ?? TITLES.inbox;
  iframe.style.width = '100%';
  iframe.style.height = '100%';
  iframe.style.border = '0';
  iframe.src = frameSrc(options, base, location.origin);
  element.appendChild(iframe);

  const listeners = new Map<JobMessengerEvent, Set<(detail: unknown) => void>>();
  // Until the frame says `ready` it cannot hear (its document, then its listener, come later): the
  // last `open` asked before then waits, and goes once it is.
  let ready = false;
  let pendingOpen: HostMessage | null = null;
  const post = (message: HostMessage) =>
    iframe.contentWindow?.postMessage(message, messengerOrigin);

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== messengerOrigin || event.source !== iframe.contentWindow) return;
    const data = event.data as FrameData | null;
    if (!data || typeof data !== 'object' || data.source !== EMBED_SOURCE) return;
    const parsed = detailOf(data);
    if (!parsed) return;
    if (parsed[0] === 'ready') {
      ready = true;
      if (pendingOpen) post(pendingOpen);
      pendingOpen = null;
    }
    for (const listener of [...(listeners.get(parsed[0]) ?? [])]) listener(parsed[1]);
  };
  window.addEventListener('message', onMessage);

  return {
    destroy() {
      window.removeEventListener('message', onMessage);
      listeners.clear();
      iframe.remove();
    },
    open(ids) {
      const message: HostMessage = {
        source: EMBED_SOURCE,
        type: 'open',
        company: ids.company,
        candidate: ids.candidate,
        job: ids.job ?? null,
      };
      if (ready) post(message);
      else pendingOpen = message;
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const entry = listener as (detail: unknown) => void;
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
  };
};

declare global {
  interface Window {
    JobMessenger?: { mount: typeof mount };
  }
}

if (typeof window !== 'undefined') window.JobMessenger = { mount };
