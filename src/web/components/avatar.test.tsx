import { act, render } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { Avatar, DEFERRED_IMAGE_DELAY_MS, holdDeferredImages } from './avatar.js';

/** Holds every image decode until the test lets it finish (or fail). */
const holdDecodes = () => {
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const decode = vi.fn(
    () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
  );
  Object.defineProperty(HTMLImageElement.prototype, 'decode', {
    configurable: true,
    value: decode,
  });
  return { pending, decode };
};

afterEach(() => {
  vi.useRealTimers();
  delete (HTMLImageElement.prototype as { decode?: unknown }).decode;
});

describe('avatar', () => {
  it('draws the initials until the image is decoded, then the image at its fixed size', async () => {
    const { pending, decode } = holdDecodes();
    const view = render(<Avatar name="Acme Robotics" imageUrl="/logo-a.svg" size="md" />);
    // a second row with the same logo does not decode it again
    render(<Avatar name="Acme Robotics" imageUrl="/logo-a.svg" size="sm" />);
    expect(view.container.querySelector('img')).toBeNull();
    expect(view.container).toHaveTextContent('AR');
    expect(decode).toHaveBeenCalledTimes(1);

    await act(async () => pending[0]?.resolve());
    const image = view.container.querySelector('img');
    expect(image).toHaveAttribute('src', '/logo-a.svg');
    expect(image).toHaveAttribute('width', '44');
    expect(image).toHaveAttribute('height', '44');

    // decoded once: shown at once wherever it appears next
    const again = render(<Avatar name="Acme Robotics" imageUrl="/logo-a.svg" />);
    expect(again.container.querySelector('img')).not.toBeNull();
  });

  it('keeps the initials when the image cannot be decoded', async () => {
    const { pending } = holdDecodes();
    const view = render(<Avatar name="Nile Software" imageUrl="/broken.png" />);
    await act(async () => pending[0]?.reject(new Error('broken')));
    expect(view.container.querySelector('img')).toBeNull();
    expect(view.container).toHaveTextContent('NS');
  });

  it("defers a list row's image: asked for once it stayed a moment, never for a row scrolled past, not while a list scrolls", async () => {
    vi.useFakeTimers();
    const { pending, decode } = holdDecodes();
    const passing = render(<Avatar name="Passing By" imageUrl="/passing.svg" defer />);
    const staying = render(<Avatar name="Staying Here" imageUrl="/staying.svg" defer />);
    expect(decode).not.toHaveBeenCalled();
    // the first row is scrolled past before the delay
    await act(async () => vi.advanceTimersByTime(DEFERRED_IMAGE_DELAY_MS / 2));
    passing.unmount();
    // the list keeps scrolling: nothing is asked for meanwhile
    holdDeferredImages();
    await act(async () => vi.advanceTimersByTime(DEFERRED_IMAGE_DELAY_MS - 1));
    expect(decode).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(DEFERRED_IMAGE_DELAY_MS));
    expect(decode).toHaveBeenCalledTimes(1);
    expect(staying.container.querySelector('img')).toBeNull();
    await act(async () => pending[0]?.resolve());
    expect(staying.container.querySelector('img')).toHaveAttribute('src', '/staying.svg');
  });
});
