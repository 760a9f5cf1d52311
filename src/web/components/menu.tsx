import type { ReactNode } from 'react';

/** The items of a menu (role="menu"), in order. */
export const menuItemsIn = (menu: HTMLElement | null): HTMLElement[] =>
  Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

/**
 * Moves the focus between a menu's items for `key`: Down and Up (round from either end), Home and
 * End. False: not one of those keys (nothing moved).
 */
export const moveInMenu = (key: string, menu: HTMLElement | null): boolean => {
  const items = menuItemsIn(menu);
  const at = items.indexOf(document.activeElement as HTMLElement);
  const targets: Partial<Record<string, number>> = {
    ArrowDown: at + 1,
    ArrowUp: at - 1,
    Home: 0,
    End: items.length - 1,
  };
  const to = targets[key];
  if (to === undefined) return false;
  items[(to + items.length) % items.length]?.focus();
  return true;
};

/** An item of a menu (base.css `.menu__item`); a disabled one still takes the focus. */
export const MenuItem = ({
  className,
  onClick,
  disabled,
  tabIndex,
  children,
}: {
  className: string;
  onClick: () => void;
  disabled?: boolean | undefined;
  tabIndex?: number;
  children: ReactNode;
}) => (
  <button
    type="button"
    role="menuitem"
    tabIndex={tabIndex}
    className={`menu__item ${className}`}
    aria-disabled={disabled || undefined}
    onClick={onClick}
  >
    {children}
  </button>
);
