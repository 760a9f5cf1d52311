import type { KeyboardEvent, ReactNode } from 'react';

/**
 * While a composer tool's popup is driven from the message box itself (saved replies opened by `/`):
 * the box's keys go to the tool first, and the box points at the popup and its highlighted option.
 */
export interface ComposerDriver {
  /** True: the tool handled the key (the box does nothing more with it, Enter sends nothing). */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** The id of the popup the box controls. */
  controls: string;
  /** The id of the highlighted option, if any. */
  activeDescendant: string | undefined;
}

/** What a tool of the composer (saved replies) may do with the message box. */
export interface Composer {
  /** The text in the box now. */
  text: string;
  /** The box takes no input (messages loading). */
  disabled: boolean;
  /** Puts this text in the box (the draft) with the caret at its end and the focus in the box. */
  replaceText: (text: string) => void;
  focus: () => void;
  /** Starts (a driver) or ends (null) driving a popup from the box. */
  drive: (driver: ComposerDriver | null) => void;
}

/** Renders a composer tool: its control in the composer's row, and its popup above it. */
export type ComposerTools = (composer: Composer) => ReactNode;
