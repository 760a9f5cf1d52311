import { useEffect, type RefObject } from 'react';

/** What `keepTabInside` reads of a key press (React's or the DOM's). */
interface TabPress {
  key: string;
  shiftKey: boolean;
  preventDefault: () => void;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const isRadio = (element: Element): element is HTMLInputElement =>
  element instanceof HTMLInputElement && element.type === 'radio';

/** A radio group is one Tab stop: its checked radio (when one is checked). */
const isSkippedRadio = (element: HTMLElement, radios: readonly HTMLInputElement[]): boolean =>
  isRadio(element) &&
  element.name !== '' &&
  !element.checked &&
  radios.some((radio) => radio.name === element.name && radio.checked);

const focusableIn = (root: HTMLElement): HTMLElement[] => {
  const all = Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE));
  const radios = all.filter(isRadio);
  return all.filter(
    (element) =>
      element.tabIndex >= 0 &&
      !element.hasAttribute('inert') &&
      element.getAttribute('aria-hidden') !== 'true' &&
      !isSkippedRadio(element, radios),
  );
};

/**
 * A modal's focus: `initial` takes it when the modal opens, and whatever had it before gets it
 * back when the modal closes (is unmounted).
 */
export const useModalFocus = (initial: RefObject<HTMLElement | null>): void => {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    initial.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
    // once, when the modal opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
};

/** Keeps Tab and Shift+Tab inside `root` (a modal): from the last stop to the first and back. */
export const keepTabInside = (event: TabPress, root: HTMLElement | null): void => {
  if (event.key !== 'Tab' || !root) return;
  const focusables = focusableIn(root);
  const first = focusables[0];
  const last = focusables[focusables.length - 1];
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !root.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !root.contains(active))) {
    event.preventDefault();
    first.focus();
  }
};
