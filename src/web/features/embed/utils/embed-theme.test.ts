import { afterEach, describe, expect, it } from 'vitest';
import { brandTokens } from '../../../../shared/brand-tokens.js';
import { applyEmbedTheme } from './embed-theme.js';

const root = document.documentElement;

/** A system scheme the test sets (and changes). */
const systemScheme = (dark: boolean) => {
  const listeners = new Set<() => void>();
  const query = {
    matches: dark,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  } as unknown as MediaQueryList;
  return {
    matchMedia: () => query,
    change: (next: boolean) => {
      (query as { matches: boolean }).matches = next;
      listeners.forEach((listener) => listener());
    },
  };
};

afterEach(() => {
  root.removeAttribute('style');
  delete root.dataset.scheme;
  document.head.querySelectorAll('style').forEach((style) => style.remove());
});

describe('applyEmbedTheme', () => {
  it('sets the accent tokens of the forced scheme, text on it by contrast', () => {
    applyEmbedTheme({ color: '#facc15', scheme: 'light' });
    const light = brandTokens('#facc15', 'light');
    expect(root.dataset.scheme).toBe('light');
    expect(root.style.getPropertyValue('--color-primary')).toBe('#facc15');
    expect(root.style.getPropertyValue('--color-on-primary')).toBe('#000000');
    expect(root.style.getPropertyValue('--color-primary-strong')).toBe(light.primaryStrong);
  });

  it('follows the system’s scheme with auto', () => {
    const system = systemScheme(false);
    const stop = applyEmbedTheme({ color: '#1e293b', scheme: 'auto' }, document, system.matchMedia);
    expect(root.dataset.scheme).toBeUndefined();
    expect(root.style.getPropertyValue('--color-primary-soft')).toBe(
      brandTokens('#1e293b', 'light').primarySoft,
    );
    system.change(true);
    expect(root.style.getPropertyValue('--color-primary-soft')).toBe(
      brandTokens('#1e293b', 'dark').primarySoft,
    );
    stop();
  });

  it('forced dark: the page’s dark rules apply whatever the system’s', () => {
    const style = document.createElement('style');
    style.textContent = `:root { --color-bg: #f3f5f9; }
@media (prefers-color-scheme: dark) { :root:not([data-scheme='light']) { --color-bg: #0b1120; } }`;
    document.head.appendChild(style);
    applyEmbedTheme({ scheme: 'dark' });
    expect(root.dataset.scheme).toBe('dark');
    const rules = Array.from(style.sheet!.cssRules);
    const copy = rules.at(-1) as CSSStyleRule;
    expect(copy.selectorText).toMatch(/^:root\[data-scheme=["']dark["']\]$/);
    expect(copy.style.getPropertyValue('--color-bg').trim()).toBe('#0b1120');
  });

  it('sets radius and font tokens', () => {
    applyEmbedTheme({ radius: '4px', fontFamily: 'Inter, sans-serif' });
    expect(root.style.getPropertyValue('--radius-sm')).toBe('4px');
    expect(root.style.getPropertyValue('--radius-lg')).toBe('4px');
    expect(root.style.getPropertyValue('--font-sans')).toBe('Inter, sans-serif');
    expect(root.dataset.scheme).toBeUndefined();
  });
});
