import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, LineIcon } from '../../../components/line-icon.js';
import { MenuItem, menuItemsIn, moveInMenu } from '../../../components/menu.js';
import { usePopup } from '../../../lib/use-popup.js';

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
export const ConversationMenu = ({ blocked, busy, ...actions }: ConversationMenuProps) => {
  const { t } = useTranslation();
  const { open, setOpen, rootRef, closeToButton, buttonProps, popupProps } = usePopup();
  /** Which item takes the focus when the menu has opened. */
  const [focusAt, setFocusAt] = useState<'first' | 'last'>('first');
  const menuRef = useRef<HTMLDivElement>(null);

  const items: Item[] = [
    blocked
      ? { key: 'unblock', label: t('safety.unblock'), onSelect: actions.onUnblock, disabled: busy }
      : { key: 'block', label: t('safety.block'), onSelect: actions.onBlock, disabled: busy },
    { key: 'report', label: t('safety.report'), onSelect: actions.onReport },
  ];

  useEffect(() => {
    if (!open) return;
    const all = menuItemsIn(menuRef.current);
    (focusAt === 'first' ? all[0] : all[all.length - 1])?.focus();
  }, [open, focusAt]);

  const openAt = (at: 'first' | 'last') => {
    setFocusAt(at);
    setOpen(true);
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (moveInMenu(event.key, menuRef.current)) {
      event.preventDefault();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      closeToButton();
    } else if (event.key === 'Tab') {
      // the focus moves on from the button's place, as if the menu were not there
      closeToButton();
    }
  };

  const choose = (item: Item) => {
    if (item.disabled) return;
    closeToButton();
    item.onSelect();
  };

  return (
    <div className="popup conversation-menu" ref={rootRef}>
      <button
        {...buttonProps}
        className="icon-button popup__button conversation-menu__button"
        aria-haspopup="menu"
        title={t('safety.menuButton')}
        data-testid="conversation-menu-button"
        onClick={() => (open ? setOpen(false) : openAt('first'))}
        onKeyDown={onButtonKeyDown}
      >
        <Icon size={20}>
          <circle cx="12" cy="5" r="1.8" fill="currentColor" />
          <circle cx="12" cy="12" r="1.8" fill="currentColor" />
          <circle cx="12" cy="19" r="1.8" fill="currentColor" />
        </Icon>
        <span className="visually-hidden">{t('safety.menuButton')}</span>
      </button>
      {open ? (
        <div
          ref={menuRef}
          {...popupProps}
          className="popup__panel menu conversation-menu__list"
          role="menu"
          onKeyDown={onMenuKeyDown}
        >
          {items.map((item) => (
            <MenuItem
              key={item.key}
              tabIndex={-1}
              className="conversation-menu__item"
              disabled={item.disabled}
              onClick={() => choose(item)}
            >
              {item.key === 'report' ? (
                <LineIcon path="M5 21V4m0 0h11l-2 4 2 4H5" size={16} />
              ) : (
                <LineIcon path="M12 3a9 9 0 100 18 9 9 0 000-18zM5.6 5.6l12.8 12.8" size={16} />
              )}
              <span>{item.label}</span>
            </MenuItem>
          ))}
        </div>
      ) : null}
    </div>
  );
};
