import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

/** jsdom has no layout: give scroll containers the height their inline max-height allows. */
Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
  configurable: true,
  get(this: HTMLElement) {
    const max = Number.parseFloat(this.style.maxHeight);
    return Number.isFinite(max) ? max : 0;
  },
});
Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
  configurable: true,
  get() {
    return 320;
  },
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in globalThis)) {
  Object.defineProperty(globalThis, 'ResizeObserver', {
    configurable: true,
    value: ResizeObserverStub,
  });
}

if (!('scrollTo' in Element.prototype)) {
  Object.defineProperty(Element.prototype, 'scrollTo', {
    configurable: true,
    value(this: Element, options?: ScrollToOptions | number, y?: number) {
      if (typeof options === 'number') this.scrollTop = y ?? 0;
      else if (options?.top !== undefined) this.scrollTop = options.top;
    },
  });
}
if (!('scrollIntoView' in Element.prototype)) {
  Object.defineProperty(Element.prototype, 'scrollIntoView', { configurable: true, value() {} });
}

/** Small-screen media query: tests flip it with `setSmallScreen`. */
let smallScreen = false;
const mediaListeners = new Set<() => void>();
export const setSmallScreen = (value: boolean): void => {
  smallScreen = value;
  mediaListeners.forEach((listener) => listener());
};
window.matchMedia = ((query: string) => ({
  get matches() {
    return query.includes('max-width') ? smallScreen : false;
  },
  media: query,
  onchange: null,
  addEventListener: (_type: string, listener: () => void) => mediaListeners.add(listener),
  removeEventListener: (_type: string, listener: () => void) => mediaListeners.delete(listener),
  addListener: (listener: () => void) => mediaListeners.add(listener),
  removeListener: (listener: () => void) => mediaListeners.delete(listener),
  dispatchEvent: () => false,
})) as unknown as typeof window.matchMedia;

// jsdom does not play media
HTMLMediaElement.prototype.play = vi.fn(() => Promise.resolve());
HTMLMediaElement.prototype.pause = vi.fn();

beforeEach(() => {
  localStorage.clear();
  document.cookie.split(';').forEach((cookie) => {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
  history.replaceState(null, '', '/messages');
});

afterEach(() => {
  cleanup();
  setSmallScreen(false);
});
