import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LineIcon } from '../../../components/line-icon.js';
import { useOutsideDismiss } from '../../../lib/use-outside-dismiss.js';

export interface ConversationMenuProps {
  /** The viewer blocked the other party: the menu offers Unblock instead of Block. */
  blocked: boolean;
  /** A block or unblock is on its way: neither is offered twice. */
  busy: boolean;
  onBlock: () => void;
  onUnblock: () => void;
  onReport: () => void;
}

type Item = { key: string; label: string; onSelect: () => void; disabled?: boolean };

/**
 * The chat header's conversation menu (the WAI-ARIA menu button): "Conversation options" opens a
 * menu of Block or Unblock, and Report. Enter, Space or Down opens it on its first item, Up on its
 * last; Up and Down move round the items, Home and End go to the ends; Escape closes it and gives
 * the button its focus back; Tab, a click or focus outside close it. Choosing an item gives the
 * button its focus back before the item acts (so the report dialog returns the focus there).
 */
export const ConversationMenu = ({
  blocked,
  busy,
  onBlock,
  onUnblock,
  onReport,
}: ConversationMenuProps) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  /** Which item takes the focus when the menu has opened. */
  const [focusAt, setFocusAt] = useState<'first' | 'last'>('first');
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonId = useId();
  const menuId = useId();

  const items: Item[] = [
    blocked
      ? { key: 'unblock', label: t('safety.unblock'), onSelect: onUnblock, disabled: busy }
      : { key: 'block', label: t('safety.block'), onSelect: onBlock, disabled: busy },
    { key: 'report', label: t('safety.report'), onSelect: onReport },
  ];

  const menuItems = () =>
    Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    const all = menuItems();
    (focusAt === 'first' ? all[0] : all[all.length - 1])?.focus();
  }, [open, focusAt]);

  const dismiss = useCallback(() => setOpen(false), []);
  useOutsideDismiss(open, rootRef, dismiss);

  const openAt = (at: 'first' | 'last') => {
    setFocusAt(at);
    setOpen(true);
  };

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = menuItems();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const moveTo = (index: number) => all[(index + all.length) % all.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        moveTo(at + 1);
        break;
      case 'ArrowUp':
        moveTo(at - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(all.length - 1);
        break;
      case 'Escape':
        event.stopPropagation();
        close();
        break;
      case 'Tab':
        // the focus moves on from the button's place, as if the menu were not there
        setOpen(false);
        buttonRef.current?.focus();
        return;
      default:
        return;
    }
    event.preventDefault();
  };

  const choose = (item: Item) => {
    if (item.disabled) return;
    close();
    item.onSelect();
  };

  return (
    <div className="conversation-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className="icon-button conversation-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        title={t('safety.menuButton')}
        data-testid="conversation-menu-button"
        onClick={() => (open ? setOpen(false) : openAt('first'))}
        onKeyDown={onButtonKeyDown}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <circle cx="12" cy="5" r="1.8" fill="currentColor" />
          <circle cx="12" cy="12" r="1.8" fill="currentColor" />
          <circle cx="12" cy="19" r="1.8" fill="currentColor" />
        </svg>
        <span className="visually-hidden">{t('safety.menuButton')}</span>
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          className="conversation-menu__list"
          role="menu"
          aria-labelledby={buttonId}
          onKeyDown={onMenuKeyDown}
        >
          {items.map((item) => (
            <button
              key={item.key}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="conversation-menu__item"
              aria-disabled={item.disabled || undefined}
              onClick={() => choose(item)}
            >
              {item.key === 'report' ? (
                <LineIcon path="M5 21V4m0 0h11l-2 4 2 4H5" size={16} />
              ) : (
                <LineIcon path="M12 3a9 9 0 100 18 9 9 0 000-18zM5.6 5.6l12.8 12.8" size={16} />
              )}
              <span>{item.label}</span>
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
};
