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
import { useOutsideDismiss } from '../../../lib/use-outside-dismiss.js';

const EDIT_ICON = 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4';
const DELETE_ICON = 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6';

/**
 * Edit and Delete beside one of the viewer's own recent messages. Shown while the message is
 * hovered or holds the focus (CSS); always in the Tab order, so the keyboard reaches them.
 */
export const MessageActions = ({
  onEdit,
  onDelete,
  editRef,
}: {
  onEdit: () => void;
  onDelete: () => void;
  editRef?: Ref<HTMLButtonElement>;
}) => {
  const { t } = useTranslation();
  return (
    <div className="message__actions" role="group" aria-label={t('messageEdits.actions')}>
      <button ref={editRef} type="button" className="message__action" onClick={onEdit}>
        <LineIcon path={EDIT_ICON} size={16} />
        <span>{t('messageEdits.edit')}</span>
      </button>
      <button type="button" className="message__action" onClick={onDelete}>
        <LineIcon path={DELETE_ICON} size={16} />
        <span>{t('messageEdits.delete')}</span>
      </button>
    </div>
  );
};

/**
 * The same two actions as a small menu, opened by a long press on a touch screen: the first item
 * takes the focus; Up/Down move, Escape or a press elsewhere close it.
 */
export const MessageMenu = ({
  onEdit,
  onDelete,
  onClose,
}: {
  onEdit: () => void;
  onDelete: () => void;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const menuRef = useRef<HTMLDivElement>(null);
  useOutsideDismiss(true, menuRef, onClose);
  useEffect(() => {
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(
      menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [],
    );
    const at = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => items[(to + items.length) % items.length]?.focus();
    if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      move(at + 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      move(at - 1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      move(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      move(items.length - 1);
    }
  };

  return (
    <div
      ref={menuRef}
      className="message__menu"
      role="menu"
      aria-label={t('messageEdits.menu')}
      data-testid="message-menu"
      onKeyDown={onKeyDown}
    >
      <button type="button" role="menuitem" className="message__menu-item" onClick={onEdit}>
        {t('messageEdits.edit')}
      </button>
      <button type="button" role="menuitem" className="message__menu-item" onClick={onDelete}>
        {t('messageEdits.delete')}
      </button>
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
