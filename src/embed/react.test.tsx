import { render } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { JobMessenger, type JobMessengerRef } from './react.js';

const M = 'https://messenger.example';

const post = (data: object, source: Window | null) =>
  window.dispatchEvent(
    new MessageEvent('message', { data: { source: 'job-messenger', ...data }, origin: M, source }),
  );

describe('<JobMessenger>', () => {
  it('mounts the iframe, forwards events to its callbacks and destroys it on unmount', () => {
    const onReady = vi.fn();
    const onUnread = vi.fn();
    const onConversation = vi.fn();
    const onSigninRequired = vi.fn();
    /** A new object each time, as an inline `theme={{…}}` is. */
    const options = () =>
      ({
        url: M,
        mode: 'conversation',
        company: 'acme',
        candidate: 'c-1',
        theme: { color: '#123456' },
        className: 'inbox',
      }) as const;
    const view = render(
      <JobMessenger
        {...options()}
        onReady={onReady}
        onUnread={onUnread}
        onConversation={onConversation}
        onSigninRequired={onSigninRequired}
      />,
    );
    const iframe = view.container.querySelector('.inbox > iframe') as HTMLIFrameElement;
    expect(iframe).not.toBeNull();
    const src = new URL(iframe.src);
    expect(src.origin).toBe(M);
    expect(Object.fromEntries(src.searchParams)).toMatchObject({
      embed: 'conversation',
      company: 'acme',
      candidate: 'c-1',
      color: '#123456',
    });

    const frame = iframe.contentWindow;
    const ref = {
      id: 3,
      company_external_id: 'acme',
      candidate_external_id: 'c-1',
      job_external_id: null,
    };
    post({ type: 'ready' }, frame);
    post({ type: 'unread', count: 2 }, frame);
    post({ type: 'conversation', ...ref }, frame);
    post({ type: 'signin-required' }, frame);
    expect(onReady).toHaveBeenCalledOnce();
    expect(onUnread).toHaveBeenCalledExactlyOnceWith({ count: 2 });
    expect(onConversation).toHaveBeenCalledExactlyOnceWith(ref);
    expect(onSigninRequired).toHaveBeenCalledOnce();

    // a new render with equal options (a new theme object) keeps the same frame
    view.rerender(<JobMessenger {...options()} onUnread={onUnread} />);
    expect(view.container.querySelector('iframe')).toBe(iframe);

    view.unmount();
    expect(iframe.isConnected).toBe(false);
    post({ type: 'unread', count: 5 }, frame);
    expect(onUnread).toHaveBeenCalledOnce();
  });

  it('mounts again when an option changes', () => {
    const view = render(<JobMessenger url={M} mode="badge" />);
    const first = view.container.querySelector('iframe')!;
    view.rerender(<JobMessenger url={M} mode="inbox" />);
    const second = view.container.querySelector('iframe')!;
    expect(second).not.toBe(first);
    expect(first.isConnected).toBe(false);
    expect(new URL(second.src).searchParams.get('embed')).toBe('inbox');
    expect(view.container.querySelectorAll('iframe')).toHaveLength(1);
  });

  it('opens another conversation through its ref, once the frame is ready', () => {
    const ref = createRef<JobMessengerRef>();
    const view = render(<JobMessenger ref={ref} url={M} mode="inbox" />);
    const iframe = view.container.querySelector('iframe')!;
    const postMessage = vi.spyOn(iframe.contentWindow!, 'postMessage');
    post({ type: 'ready' }, iframe.contentWindow);
    ref.current!.open({ company: 'acme', candidate: 'c-2', job: 'j-1' });
    expect(postMessage).toHaveBeenCalledExactlyOnceWith(
      { source: 'job-messenger', type: 'open', company: 'acme', candidate: 'c-2', job: 'j-1' },
      M,
    );
    view.unmount();
    expect(() => ref.current?.open({ company: 'acme', candidate: 'c-3' })).not.toThrow();
  });
});
