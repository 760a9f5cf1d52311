import type { KeyboardEvent } from 'react';
import type { Template } from '../../../../shared/saved-replies.js';
import type { PickerMode } from '../hooks/use-slash-opening.js';

/**
 * The picker's list keys, from its search field or from the message box (true: handled, and the
 * event goes no further): the arrows move round the matches, Home and End (in the search field)
 * go to the ends, Enter inserts the highlighted reply, Escape closes to the message box, Tab
 * closes a list opened by `/` and moves on.
 */
export const pickerKeyHandler =
  ({
    mode,
    matches,
    activeIndex,
    setActive,
    insert,
    closeToComposer,
    close,
  }: {
    mode: PickerMode | null;
    matches: readonly Template[];
    activeIndex: number;
    setActive: (index: number) => void;
    insert: (template: Template) => void;
    closeToComposer: () => void;
    close: () => void;
  }) =>
  (event: KeyboardEvent<HTMLElement>): boolean => {
    if (event.nativeEvent.isComposing) return false;
    const count = matches.length;
    const activeTemplate = matches[activeIndex];
    switch (event.key) {
      case 'ArrowDown':
        if (count > 0) setActive((activeIndex + 1) % count);
        break;
      case 'ArrowUp':
        if (count > 0) setActive((activeIndex - 1 + count) % count);
        break;
      case 'Home':
        if (mode !== 'search') return false;
        setActive(0);
        break;
      case 'End':
        if (mode !== 'search') return false;
        setActive(Math.max(0, count - 1));
        break;
      case 'Enter':
        if (event.shiftKey) return false;
        // with nothing to insert, Enter in the message box sends what it holds
        if (!activeTemplate) return mode === 'search';
        insert(activeTemplate);
        break;
      case 'Escape':
        closeToComposer();
        break;
      case 'Tab':
        if (mode === 'slash') close();
        return false;
      default:
        return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  };
