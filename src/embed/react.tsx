import { useEffect, useImperativeHandle, useRef, type CSSProperties, type Ref } from 'react';
import {
  mount,
  type JobMessengerEvents,
  type JobMessengerHandle,
  type MountOptions,
} from './job-messenger.js';

export type { JobMessengerHandle, MountOptions };

/** What a host may ask of a mounted messenger through `ref`: open another conversation. */
export type JobMessengerRef = Pick<JobMessengerHandle, 'open'>;

export type JobMessengerProps = MountOptions & {
  /** The messenger's base URL (`https://messenger.example`). */
  url: string;
  /** `ref.current.open({company, candidate, job})`, as the handle's `open`. */
  ref?: Ref<JobMessengerRef | null>;
  onReady?: () => void;
  onUnread?: (detail: JobMessengerEvents['unread']) => void;
  onConversation?: (detail: JobMessengerEvents['conversation']) => void;
  onSigninRequired?: () => void;
  className?: string;
  style?: CSSProperties;
};

/**
 * The embedded messenger for a React host: a `<div>` in which `mount` puts the messenger's iframe,
 * mounted again when an option changes and destroyed on unmount. The callbacks may change freely
 * (the latest ones are called, without mounting again). A `signInUrl` works once: each mount again
 * (an option changed, React's StrictMode in development) needs a fresh one, or ends in
 * `signin-required`.
 */
export const JobMessenger = (props: JobMessengerProps) => {
  const { onReady, onUnread, onConversation, onSigninRequired, className, style, ref, ...options } =
    props;
  const element = useRef<HTMLDivElement>(null);
  const handleRef = useRef<JobMessengerHandle | null>(null);
  useImperativeHandle(ref, () => ({ open: (ids) => handleRef.current?.open(ids) }), []);
  const callbacks = useRef({ onReady, onUnread, onConversation, onSigninRequired });
  useEffect(() => {
    callbacks.current = { onReady, onUnread, onConversation, onSigninRequired };
  });
  // the options as a value: an inline `theme={{…}}` object does not mount again on every render
  const key = JSON.stringify(options);

  useEffect(() => {
    if (!element.current) return;
    const handle = mount(element.current, JSON.parse(key) as MountOptions);
    handleRef.current = handle;
    handle.on('ready', () => callbacks.current.onReady?.());
    handle.on('unread', (detail) => callbacks.current.onUnread?.(detail));
    handle.on('conversation', (detail) => callbacks.current.onConversation?.(detail));
    handle.on('signin-required', () => callbacks.current.onSigninRequired?.());
    return () => {
      handleRef.current = null;
      handle.destroy();
    };
  }, [key]);

  return <div ref={element} className={className} style={style} />;
};
