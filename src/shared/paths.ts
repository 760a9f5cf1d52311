/**
 * The contract's HTTP paths and limits, free of zod so the client's first bundle can import them
 * without the schemas (the contract files by domain, e.g. messages.ts, import them from here).
 */
export const MESSAGE_MAX_LENGTH = 5000;
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 100;
export const BODY_LIMIT_BYTES = 64 * 1024;

/** A value for each of a pattern's `:parameters`, in order. */
type ParameterValues<Pattern extends string> = Pattern extends `${string}:${string}/${infer Rest}`
  ? [string | number, ...ParameterValues<Rest>]
  : Pattern extends `${string}:${string}`
    ? [string | number]
    : [];

/**
 * A path with parameters, written once. Called with a value for each `:parameter` in order, it is
 * the path to request (each value percent-encoded); its `pattern` is what the server registers, and
 * the OpenAPI document shows it with `{parameter}`.
 */
export type PathTemplate<Pattern extends string = string> = ((
  ...values: ParameterValues<Pattern>
) => string) & { readonly pattern: Pattern };

export const pathTemplate = <const Pattern extends string>(
  pattern: Pattern,
): PathTemplate<Pattern> => {
  const fill = (...values: (string | number)[]) => {
    let index = 0;
    return pattern.replace(/:[A-Za-z_][A-Za-z0-9_]*/g, () =>
      encodeURIComponent(String(values[index++])),
    );
  };
  return Object.assign(fill, { pattern });
};

export const paths = {
  home: '/',
  messages: '/messages',
  config: '/messenger/config',
  /** Liveness and readiness, for load balancers and orchestrators (docs/deploy.md). */
  healthz: '/healthz',
  readyz: '/readyz',
  login: '/login',
  logout: '/logout',
  tokens: '/api/tokens',
  token: pathTemplate('/api/tokens/:id'),
  demoAccounts: '/api/demo-accounts',
  initialData: '/load/messengers/initial/data',
  getMessage: '/user/get/message',
  sendMessage: '/user/send/message',
  unseen: pathTemplate('/user/send/message/unseen/:id'),
  archive: pathTemplate('/user/messenger/:id/archive'),
  unarchive: pathTemplate('/user/messenger/:id/unarchive'),
  typing: pathTemplate('/user/messenger/:id/typing'),
  settings: '/user/settings',
  attachments: '/user/attachments',
  attachment: pathTemplate('/user/attachments/:id'),
  attachmentThumbnail: pathTemplate('/user/attachments/:id/thumbnail'),
  /** A generated demo logo (`logos`) or photo (`photos`), `<name>.svg`. */
  demoImage: pathTemplate('/images/:kind/:file'),
  broadcastingAuth: '/broadcasting/auth',
  broadcastingUserAuth: '/broadcasting/user-auth',
  /** With a hosted Pusher: its webhooks (`channel_occupied`, `channel_vacated`) feed presence. */
  pusherWebhook: '/pusher/webhook',
  /** The embedded endpoint's Pusher HTTP API: publish one event, or a batch. */
  triggerEvents: pathTemplate('/apps/:appId/events'),
  triggerBatchEvents: pathTemplate('/apps/:appId/batch_events'),
  sso: '/sso',
  unsubscribe: '/unsubscribe',
  /** Undoes an unsubscribe (POST, with the undo's own token that the unsubscribe page gives). */
  resubscribe: '/unsubscribe/undo',
  /** The embedding script a host page loads (`window.JobMessenger`), and its TypeScript types. */
  embedScript: '/embed.js',
  embedTypes: '/embed.d.ts',
  /** The embedded page's calls (ADR 022): open or create a conversation by host ids, read one's. */
  embedConversations: '/messenger/embed/conversations',
  embedConversation: pathTemplate('/messenger/embed/conversations/:id'),
  /** The site's colours (BRAND_COLOR's accent tokens, light and dark), loaded by every page. */
  brandStylesheet: '/brand.css',
} as const;

/** A stand-in origin: `next` is resolved against it exactly as the browser resolves it against ours. */
const PATH_BASE = 'http://same-origin.invalid';
/** Longer `next` values are refused unread. */
const NEXT_MAX_LENGTH = 2048;

/** `path` read as a browser or a proxy that decodes it once would read it, or null when it cannot be decoded. */
const decodedOnce = (path: string): string | null => {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
};

const leavesTheOrigin = (path: string): boolean =>
  !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\');

/**
 * Where `next` may send someone after sign-in (`/sso`, `/login`): the path as the browser will
 * normalize it (dot segments, `%2e`, percent-encoding), when that is a path on this site, else null.
 * The value must start with one "/" and hold no backslash and no control character (browsers read
 * "\" as "/" and drop tabs and line breaks, so "/\evil" and "/<tab>/evil" mean "//evil"). It is then
 * resolved against this origin, and the result is judged again: "/.//evil", "/%2e//evil" and
 * "/a/..//evil" all become "//evil", which a browser given it in `Location` reads as another host.
 * A result that would start with "//" or "/\" once percent-decoded is refused too. The answer is
 * percent-encoded, fit for a `Location` header.
 */
export const sameOriginPath = (value: string | null | undefined): string | null => {
  if (!value || value.length > NEXT_MAX_LENGTH || leavesTheOrigin(value)) return null;
  if (value.includes('\\')) return null;
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f))
    return null;
  let url: URL;
  try {
    url = new URL(value, PATH_BASE);
  } catch {
    return null;
  }
  if (url.origin !== PATH_BASE) return null;
  const normalized = `${url.pathname}${url.search}${url.hash}`;
  if (leavesTheOrigin(normalized)) return null;
  const decoded = decodedOnce(url.pathname);
  if (decoded === null || leavesTheOrigin(decoded)) return null;
  return normalized;
};
