import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import type { MessengerUser, Role } from '../../../../shared/models.js';
import { otherPartyOf } from '../utils/conversation-view.js';
import { ConversationRow } from './conversation-row.js';

/** Rows have one fixed height, so 10,000 of them cost no measuring. */
export const CONVERSATION_ROW_HEIGHT = 76;

interface ConversationListProps {
  items: readonly MessengerUser[];
  viewerRole: Role;
  selectedId: number | null;
  archived: boolean;
  label: string;
  testId: 'conversation-list' | 'archived-list';
  /** Max height in px (944 alone, 320 with an archived section, 350 for the archived list). */
  maxHeight: number;
  now: number;
  onSelect: (item: MessengerUser) => void;
  onToggleArchive: (item: MessengerUser, archive: boolean) => void;
}

/** A virtualized list of conversation rows; Arrow keys, Home and End move between rows. */
export const ConversationList = ({
  items,
  viewerRole,
  selectedId,
  archived,
  label,
  testId,
  maxHeight,
  now,
  onSelect,
  onToggleArchive,
}: ConversationListProps) => {
  const scrollRef = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<number | null>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => CONVERSATION_ROW_HEIGHT,
    getItemKey: (index) => items[index]?.id ?? index,
    overscan: 6,
    initialRect: {
      width: 320,
      height: Math.min(maxHeight, items.length * CONVERSATION_ROW_HEIGHT),
    },
  });

  const focusRow = useCallback((index: number) => {
    const row = scrollRef.current?.querySelector<HTMLElement>(
      `[data-testid="conversation-row"][data-index="${index}"]`,
    );
    if (row) {
      row.focus();
      pendingFocus.current = null;
      return true;
    }
    return false;
  }, []);

  // after scrolling a row into the rendered range, focus it
  useEffect(() => {
    if (pendingFocus.current !== null) focusRow(pendingFocus.current);
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (target.dataset.testid !== 'conversation-row') return;
    const current = Number(target.dataset.index);
    let next: number | null = null;
    if (event.key === 'ArrowDown') next = Math.min(items.length - 1, current + 1);
    else if (event.key === 'ArrowUp') next = Math.max(0, current - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    if (next === null || Number.isNaN(next)) return;
    event.preventDefault();
    virtualizer.scrollToIndex(next, { align: 'auto' });
    if (!focusRow(next)) pendingFocus.current = next;
  };

  const virtualItems = virtualizer.getVirtualItems();
  return (
    <div
      ref={scrollRef}
      className="conversation-list"
      style={{ maxHeight }}
      data-testid={testId}
      role="list"
      aria-label={label}
      onKeyDown={onKeyDown}
    >
      <div className="conversation-list__inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualItems.map((virtualItem) => {
          const item = items[virtualItem.index];
          if (!item) return null;
          return (
            <div
              key={virtualItem.key}
              role="listitem"
              aria-setsize={items.length}
              aria-posinset={virtualItem.index + 1}
              className="conversation-list__slot"
              style={{ height: virtualItem.size, transform: `translateY(${virtualItem.start}px)` }}
            >
              <ConversationRow
                item={item}
                party={otherPartyOf(item, viewerRole)}
                selected={item.id === selectedId}
                archived={archived}
                index={virtualItem.index}
                now={now}
                onSelect={onSelect}
                onToggleArchive={onToggleArchive}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
};
