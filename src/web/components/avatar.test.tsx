import { act, render } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { Avatar } from './avatar.js';

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
});
