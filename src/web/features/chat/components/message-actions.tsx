import {
  useCallback,
  useEffect,
  useRef,
  type KeyboardEvent,
  type PointerEvent,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import { LineIcon } from '../../../components/line-icon.js';
import { MenuItem, menuItemsIn, moveInMenu } from '../../../components/menu.js';
import { useOutsideDismiss } from '../../../lib/use-outside-dismiss.js';

/** What the viewer can do with one of their own recent messages, in the order offered. */
const CHANGES = [
  { name: 'edit', label: 'messageEdits.edit', icon: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4' },
  {
    name: 'delete',
    label: 'messageEdits.delete',
    icon: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6',
  },
] as const;

interface MessageChanges {
  onEdit: () => void;
  onDelete: () => void;
}

interface MessageActionsProps extends MessageChanges {
  editRef?: Ref<HTMLButtonElement>;
}

interface MessageMenuProps extends MessageChanges {
  onClose: () => void;
}

/**
 * Edit and Delete beside one of the viewer's own recent messages. Shown while the message is
 * hovered or holds the focus (CSS); always in the Tab order, so the keyboard reaches them.
 */
export const MessageActions = ({ onEdit, onDelete, editRef }: MessageActionsProps) => {
  const { t } = useTranslation();
  const on = { edit: onEdit, delete: onDelete };
  return (
    <div className="message__actions" role="group" aria-label={t('messageEdits.actions')}>
      {CHANGES.map(({ name, label, icon }) => (
        <button
          key={name}
          ref={name === 'edit' ? editRef : undefined}
          type="button"
          className="message__action"
          onClick={on[name]}
        >
          <LineIcon path={icon} size={16} />
          <span>{t(label)}</span>
        </button>
      ))}
    </div>
  );
};

/**
 * The same two actions as a small menu, opened by a long press on a touch screen: the first item
 * takes the focus; Up/Down move, Escape or a press elsewhere close it.
 */
export const MessageMenu = ({ onEdit, onDelete, onClose }: MessageMenuProps) => {
  const { t } = useTranslation();
  const on = { edit: onEdit, delete: onDelete };
  const menuRef = useRef<HTMLDivElement>(null);
  useOutsideDismiss(true, menuRef, onClose);
  useEffect(() => {
    menuItemsIn(menuRef.current)[0]?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (moveInMenu(event.key, menuRef.current)) {
      event.preventDefault();
    }
  };

  return (
    <div
      ref={menuRef}
      className="popup__panel menu message__menu"
      role="menu"
      aria-label={t('messageEdits.menu')}
      data-testid="message-menu"
      onKeyDown={onKeyDown}
    >
      {CHANGES.map(({ name, label }) => (
        <MenuItem key={name} className="message__menu-item" onClick={on[name]}>
          {t(label)}
        </MenuItem>
      ))}
    </div>
  );
};

/** How long a finger rests on a message before its menu opens. */
export const LONG_PRESS_MS = 500;
/** A finger that moves further than this is scrolling, not pressing. */
const LONG_PRESS_SLOP_PX = 10;

/**
 * A long press of a finger (touch pointers only; a mouse has hover and the keyboard has focus):
 * calls `onLongPress` once the finger rested `LONG_PRESS_MS`, and keeps the browser's own
 * context menu away meanwhile.
 */
export const useLongPress = (enabled: boolean, onLongPress: () => void) => {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const fired = useRef(false);
  const latest = useRef(onLongPress);
  useEffect(() => {
    latest.current = onLongPress;
  });
  const cancel = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    start.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);
  if (!enabled) return {};
  return {
    onPointerDown: (event: PointerEvent) => {
      if (event.pointerType !== 'touch') return;
      cancel();
      fired.current = false;
      start.current = { x: event.clientX, y: event.clientY };
      timer.current = setTimeout(() => {
        timer.current = null;
        fired.current = true;
        latest.current();
      }, LONG_PRESS_MS);
    },
    onPointerMove: (event: PointerEvent) => {
      const from = start.current;
      if (from && Math.hypot(event.clientX - from.x, event.clientY - from.y) > LONG_PRESS_SLOP_PX)
        cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onContextMenu: (event: { preventDefault: () => void }) => {
      if (timer.current !== null || fired.current) event.preventDefault();
    },
  };
};
