import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { Composer, ComposerDriver } from '../../../lib/composer-tool.js';

/**
 * The box grows with its text (its CSS caps it at about 8 lines, then it scrolls inside): measured
 * at its natural height after each change, and again when its width changes (a resize, a phone turned).
 */
const useFitToText = (textarea: RefObject<HTMLTextAreaElement | null>, text: string) => {
  useLayoutEffect(() => {
    const box = textarea.current;
    if (!box) return;
    const fit = () => {
      box.style.blockSize = 'auto';
      const borders = box.offsetHeight - box.clientHeight;
      box.style.blockSize = `${box.scrollHeight + borders}px`;
    };
    fit();
    if (typeof ResizeObserver === 'undefined') return;
    let width = box.clientWidth;
    const observer = new ResizeObserver(() => {
      if (box.clientWidth === width) return;
      width = box.clientWidth;
      fit();
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, [textarea, text]);
};

/**
 * The message box (its textarea) as the composer's tools see it: the text, putting a text in with
 * the caret at its end, the focus, and the popup a tool drives from the box (its driver).
 */
export const useMessageBox = (
  draft: string,
  setDraft: (text: string) => void,
  disabled: boolean,
) => {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [driver, setDriver] = useState<ComposerDriver | null>(null);
  // the caret goes to the end of a text a tool put in, once it is rendered
  const caretToEnd = useRef(false);
  useLayoutEffect(() => {
    const box = textarea.current;
    if (!caretToEnd.current || !box) return;
    caretToEnd.current = false;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, [draft]);
  const composer: Composer = {
    text: draft,
    disabled,
    replaceText: (text) => {
      const box = textarea.current;
      if (text === draft && box) {
        box.focus();
        box.setSelectionRange(text.length, text.length);
        return;
      }
      caretToEnd.current = true;
      setDraft(text);
    },
    focus: () => textarea.current?.focus(),
    drive: setDriver,
  };
  useFitToText(textarea, draft);
  return { textarea, driver, composer };
};
